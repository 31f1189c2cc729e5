import type { OperationExample } from "@/lib/openapi/example-context";

/** The dunning operations' examples (lib/operations/dunning.ts, issue 32). */
const SCHEDULE_ID = {
  "<id>": "the `id` of [Create a payout](#createPayout) sent with a `recurrence` (a recurring payout of your account)",
};

export const DUNNING_EXAMPLES: Record<string, () => OperationExample> = {
  getRecurringPolicy: () => ({}),
  setRecurringPolicy: () => ({ body: { retryIntervals: [300, 3600, 86400], graceSeconds: 432000, reminderLeadTimes: [259200, 86400] } }),
  setRecurringPayoutPolicy: () => ({ params: { id: "<id>" }, body: { graceSeconds: 86400 }, placeholders: SCHEDULE_ID }),
};
