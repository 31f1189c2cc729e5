import { sweepDetection } from "@/lib/detection/sweep";
import { cronRoute } from "@/lib/http/cron";

export const dynamic = "force-dynamic";

const handler = cronRoute("payment-detection", sweepDetection);
export const GET = handler;
export const POST = handler;
