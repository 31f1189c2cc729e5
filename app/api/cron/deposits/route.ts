import { sweepDeposits } from "@/lib/deposits/sweep";
import { cronRoute } from "@/lib/http/cron";

export const dynamic = "force-dynamic";

const handler = cronRoute("deposits", sweepDeposits);
export const GET = handler;
export const POST = handler;
