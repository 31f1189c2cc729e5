import { cronRoute } from "@/lib/http/cron";
import { sweepExpiry } from "@/lib/jobs/expire";

export const dynamic = "force-dynamic";

const handler = cronRoute("expiry", sweepExpiry);
export const GET = handler;
export const POST = handler;
