import { z } from "zod";
import { insertBenchRequest } from "@/lib/accounts/bench";
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

/**
 * The floor of `POST /v2/payouts` for `npm run bench`: the same credential, limiter and JSON body
 * read (any object: validating a payout is the route's own work), then only the INSERT of the row
 * the route writes (lib/accounts/bench.ts).
 */
export const insertBenchRoute = withApi(
  defineOperation({
    ...base,
    method: "POST",
    path: "/api/bench/insert",
    auth: ["apiKey", "clientId"],
    body: z.record(z.string(), z.unknown()),
    responses: { 201: { description: "ok" } },
  }),
  async ({ principal }) => {
    if (!env().BENCH_ROUTES) return new Response(null, { status: 404 });
    await insertBenchRequest(principal.accountId, principal.kind === "clientId" ? principal.clientId : null);
    return json("{}", 201);
  },
);
