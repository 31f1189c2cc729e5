import { cronRoute } from "@/lib/http/cron";
import { expireSweep } from "@/lib/jobs/expire";

export const dynamic = "force-dynamic";

const handler = cronRoute("expiry", expireSweep);
export const GET = handler;
export const POST = handler;
