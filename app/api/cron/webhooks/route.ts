import { cronRoute } from "@/lib/http/cron";
import { sweepWebhooks } from "@/lib/webhooks/sweep";

export const dynamic = "force-dynamic";

const handler = cronRoute("webhook-delivery", () => sweepWebhooks());
export const GET = handler;
export const POST = handler;
