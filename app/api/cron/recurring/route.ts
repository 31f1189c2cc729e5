import { cronRoute } from "@/lib/http/cron";
import { sweepRecurring } from "@/lib/recurring/run";

export const dynamic = "force-dynamic";

/** Triggers every due recurring payment once (lib/recurring/executor.ts); safe to call concurrently and often. */
const handler = cronRoute("recurring", () => sweepRecurring());
export const GET = handler;
export const POST = handler;
