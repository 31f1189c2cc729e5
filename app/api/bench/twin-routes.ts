import { z } from "zod";
import { env } from "@/lib/env";
import { json, withApi } from "@/lib/http/handler";
import { defineOperation, type Operation } from "@/lib/http/operation";
import { getRequestOrThrow } from "@/lib/requests/get-request";

/**
 * Twin routes for `npm run bench`: the same API-key route with and without the rate limiter,
 * so the limiter's cost is measured alone. 404 unless BENCH_ROUTES=true.
 */
function benchRoute(op: Operation) {
  return withApi(op, async () => (env().BENCH_ROUTES ? json("[]") : new Response(null, { status: 404 })));
}

const base = {
  method: "GET" as const,
  operationId: "bench",
  summary: "benchmark twin",
  tags: ["Bench"],
  auth: ["apiKey" as const],
  responses: { 200: { description: "ok" } },
};

export const limitedBenchRoute = benchRoute(defineOperation({ ...base, path: "/api/bench/limited" }));
export const unlimitedBenchRoute = benchRoute(defineOperation({ ...base, path: "/api/bench/unlimited", rateLimit: "off" }));

/**
 * The floor of `GET /v2/request/{id}` for `npm run bench`: the same credential, limiter and
 * parsing, then only the request's one indexed read (by id and account), serialised.
 */
export const readBenchRoute = withApi(
  defineOperation({ ...base, path: "/api/bench/read/{id}", params: z.object({ id: z.string() }).strict() }),
  async ({ principal, params }) => {
    if (!env().BENCH_ROUTES) return new Response(null, { status: 404 });
    const row = await getRequestOrThrow(principal.accountId, params.id);
    return json({ requestId: row.id, amount: row.amount, createdAt: row.createdAt.toISOString() });
  },
);
