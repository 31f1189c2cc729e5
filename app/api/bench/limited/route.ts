import { limitedBenchRoute } from "@/lib/api/bench-operations";

export const dynamic = "force-dynamic";
export const GET = limitedBenchRoute;
