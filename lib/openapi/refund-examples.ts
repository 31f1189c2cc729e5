import type { OperationExample } from "@/lib/openapi/example-context";

/** The refund operations' examples (lib/operations/refunds.ts): each runs on a request paid on chain first. */
const from = (what: string) => `the \`${what}\``;
const PAID_REQUEST_ID = {
  "<requestId>": `${from("requestId")} of a request paid on chain ([Create a payment request](#createRequest), then paid with [Transactions that pay a request](#payRequest))`,
};
const REFUND_ID = { ...PAID_REQUEST_ID, "<refundId>": `the \`refund.id\` of [Prepare a refund](#createRefund) of that request` };

export const REFUND_EXAMPLES: Record<string, () => OperationExample> = {
  createRefund: () => ({ params: { requestId: "<requestId>" }, body: { amount: "5" }, placeholders: PAID_REQUEST_ID }),
  listRefunds: () => ({ params: { requestId: "<requestId>" }, placeholders: PAID_REQUEST_ID }),
  getRefund: () => ({ params: { requestId: "<requestId>", refundId: "<refundId>" }, placeholders: REFUND_ID }),
  markRefundSent: () => ({
    params: { requestId: "<requestId>", refundId: "<refundId>" },
    body: { txHash: "<txHash>" },
    placeholders: { ...REFUND_ID, "<txHash>": "the hash of the refund transaction the payee's wallet sent" },
  }),
  cancelRefund: () => ({ params: { requestId: "<requestId>", refundId: "<refundId>" }, placeholders: REFUND_ID }),
};
