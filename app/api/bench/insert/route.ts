import { insertBenchRoute } from "@/app/api/bench/twin-routes";

export const dynamic = "force-dynamic";
/** Baseline for `npm run bench` (twin-routes.ts): one INSERT of the payout's row. 404 unless BENCH_ROUTES=true. */
export const POST = insertBenchRoute;
