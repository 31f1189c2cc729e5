import { cronRoute } from "@/lib/http/cron";
import { webhookSweep } from "@/lib/webhooks/sweep";

export const dynamic = "force-dynamic";

const handler = cronRoute("webhook-delivery", () => webhookSweep());
export const GET = handler;
export const POST = handler;
