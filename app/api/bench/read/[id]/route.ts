import { readBenchRoute } from "@/app/api/bench/twin-routes";

export const dynamic = "force-dynamic";
export const GET = readBenchRoute;
