import { env } from "@/lib/env";
import { json, withApi } from "@/lib/http/handler";
import { defineOperation, type Operation } from "@/lib/http/operation";

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
