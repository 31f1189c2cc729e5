import { z } from "zod";
import { defineOperation } from "@/lib/http/operation";
import { errorResponses } from "@/lib/openapi/common";
import { amountLabelShape } from "@/lib/operations/requests-schemas";
import { DIRECTIONS } from "@/lib/payments/direction";

const text = (max: number, description: string) => z.string().min(1).max(max).optional().meta({ description });

const paymentSchema = z
  .object({
    id: z.string(),
    amount: z.string(),
    sourceNetwork: z.string(),
    destinationNetwork: z.string(),
    sourceTxHash: z.string().nullable(),
    destinationTxHash: z.string().nullable(),
    timestamp: z.string(),
    type: z.enum(["direct", "conversion", "crosschain", "recurring"]),
    conversionRateSource: z.string().nullable(),
    conversionRateDestination: z.string().nullable(),
    convertedAmountSource: z.string().nullable(),
    convertedAmountDestination: z.string().nullable(),
    currency: z.string(),
    paymentCurrency: z.string(),
    fees: z
      .array(
        z.object({
          type: z.string(),
          stage: z.string(),
          provider: z.string(),
          amount: z.string(),
          currency: z.string(),
          receiverAddress: z.string(),
          network: z.string(),
        }),
      )
      .nullable(),
    recurringPaymentId: z.string().nullable(),
    rateProvider: z.string().nullable(),
    request: z.object({
      requestId: z.string(),
      paymentReference: z.string(),
      hasBeenPaid: z.boolean(),
      customerInfo: z.record(z.string(), z.unknown()).nullable(),
      reference: z.string().nullable(),
      amountLabel: amountLabelShape.amountLabel,
      excessAmount: amountLabelShape.excessAmount,
    }),
    payer: z.string().nullable(),
    payee: z.string(),
    direction: z.enum(DIRECTIONS).meta({
      description:
        "Duebill extension: `incoming` pays a request of the account (it is the payee), `outgoing` a payout it made (recurring payouts included)",
    }),
  })
  .meta({ id: "Payment" });

/** GET /v2/payments' query: its bounds hold for the API and for the dashboard's Payments filters alike. */
export const searchPaymentsQuery = z.object({
  txHash: text(100, "Transaction hash"),
  walletAddress: text(100, "Payer or payee wallet"),
  paymentReference: text(40, "The on-chain payment reference (0x + 16 hex)"),
  requestId: text(100, "Request ID"),
  reference: text(255, "Your merchant reference"),
  type: z.enum(["direct", "conversion", "crosschain", "recurring"]).optional(),
  invoiceCurrency: text(96, "Invoice currency, e.g. USD or USDC-base"),
  paymentCurrency: text(96, "Payment currency, e.g. USDC or USDC-base"),
  network: text(32, "Network ID (Duebill extension)"),
  direction: z.enum(DIRECTIONS, { error: "must be incoming or outgoing" }).optional().meta({
    description:
      "Duebill extension: `incoming` (payments of the account's requests and payment links: money in) or `outgoing` (its payouts, payout links and recurring payouts: money out)",
  }),
  fromDate: text(40, "From (inclusive), ISO 8601 UTC"),
  toDate: text(40, "Until (inclusive), ISO 8601 UTC"),
  limit: text(4, "Page size, 1–100 (default 20)"),
  offset: text(9, "Results to skip (default 0)"),
});

export const searchPaymentsOp = defineOperation({
  method: "GET",
  path: "/v2/payments",
  operationId: "searchPayments",
  summary: "Search the account's payments",
  description:
    "Filters are ANDed: `txHash`, `walletAddress` (payer or payee), `paymentReference`, `requestId`, `reference` (your merchant reference), `type`, `invoiceCurrency`, `paymentCurrency`, `network` and `direction` (Duebill extensions), `fromDate`/`toDate` (ISO 8601 UTC, inclusive). Newest first; `limit` (1–100, default 20) and `offset`. Without a filter, every payment of the account (Duebill extension).",
  tags: ["Payments"],
  auth: ["apiKey", "session"],
  query: searchPaymentsQuery,
  responses: {
    200: {
      description: "Matching payments and pagination",
      schema: z.object({
        payments: z.array(paymentSchema),
        pagination: z.object({ total: z.number(), limit: z.number(), offset: z.number(), hasMore: z.boolean() }),
      }),
    },
    ...errorResponses(400, 401, 403, 429),
  },
});
