import { z } from "zod";

/**
 * The recurrence fields of GET /v2/request/{requestId} (RequestStatus): a recurring payout's payment, or a
 * recurring request's period (lib/recurring/request-recurrence.ts). Absent on other requests.
 */
export const recurrenceStatusShape = {
  recurringPaymentId: z.string().optional().meta({
    description: "The recurring payout this request is one payment of, or the recurring request's series (as in request.recurring)",
  }),
  paymentIndex: z
    .number()
    .int()
    .nullable()
    .optional()
    .meta({ description: "Which payment (1-based) of the recurring payout, or which period of the recurring request (1: the original)" }),
  recurrence: z
    .object({ startDate: z.string(), frequency: z.enum(["DAILY", "WEEKLY", "MONTHLY", "YEARLY"]) })
    .optional()
    .meta({ description: "Recurring requests: the series' calendar (absent on other requests)" }),
  isRecurrenceStopped: z.boolean().optional().meta({ description: "Recurring requests: no further period is created while true" }),
  originalRequestId: z.string().optional().meta({ description: "Recurring requests' later periods: the original request (period 1)" }),
  originalRequestPaymentReference: z.string().optional().meta({ description: "The original request's payment reference" }),
  nextPeriodDate: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "Recurring requests: when the next period's request is created (null while stopped)" }),
  securePaymentUrl: z.string().optional().meta({
    description: "Recurring requests: the period's hosted payment link (/pay/{token}), created with the period; absent for a fiat invoice",
  }),
};

/** PATCH /v1/request/{paymentReference}/stop-recurrence: a recurring request named by its payment reference. */
export const paymentReferenceParamsSchema = z.object({
  paymentReference: z
    .string()
    .max(100)
    .meta({ description: "The request's payment reference (0x + 16 hex)", example: "0xb3581f0b0f74cc61" }),
});
