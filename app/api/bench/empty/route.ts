import { env } from "@/lib/env";

export const dynamic = "force-dynamic";

/** Baseline for `npm run bench`: an empty route handler. 404 unless BENCH_ROUTES=true. */
export async function GET(): Promise<Response> {
  if (!env().BENCH_ROUTES) return new Response(null, { status: 404 });
  return new Response("[]", { headers: { "content-type": "application/json" } });
}
