import { insertBenchAccount } from "@/lib/accounts/bench";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";

/** Baseline for `npm run bench`: a route that does one INSERT. 404 unless BENCH_ROUTES=true. */
export async function POST(): Promise<Response> {
  if (!env().BENCH_ROUTES) return new Response(null, { status: 404 });
  await insertBenchAccount();
  return new Response("{}", { status: 201, headers: { "content-type": "application/json" } });
}
