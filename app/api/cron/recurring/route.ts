import { cronRoute } from "@/lib/http/cron";
import { runRecurringJobs } from "@/lib/recurring/run";

export const dynamic = "force-dynamic";

/**
 * Triggers every due recurring payment once (lib/recurring/executor.ts) and creates every due period of the
 * recurring requests once (lib/recurring/request-periods.ts); safe to call concurrently and often.
 */
const handler = cronRoute("recurring", () => runRecurringJobs());
export const GET = handler;
export const POST = handler;
