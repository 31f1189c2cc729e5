import type { OperationExample } from "@/lib/openapi/example-context";

/** The receipt operations' examples (lib/operations/receipts.ts): each reads the receipt of a transfer recorded on chain. */
const PAID =
  "a request paid on chain ([Create a payment request](#createRequest), then paid with [Transactions that pay a request](#payRequest))";
const PAYMENT_ID = { "<paymentId>": `the \`id\` of its payment in [GET /v2/payments](#listPayments), for ${PAID}` };

export const RECEIPT_EXAMPLES: Record<string, () => OperationExample> = {
  getReceipt: () => ({
    params: { receiptId: "<receiptId>" },
    placeholders: {
      "<receiptId>": `the receipt's \`id\` (\`receipt.id\` of [The signed receipt of a payment](#getPaymentReceipt), or the \`receiptUrl\` of its payment.confirmed webhook)`,
    },
  }),
  getPaymentReceipt: () => ({ params: { paymentId: "<paymentId>" }, placeholders: PAYMENT_ID }),
  getRefundReceipt: () => ({
    params: { requestId: "<requestId>", refundId: "<refundId>" },
    placeholders: {
      "<requestId>": `the \`requestId\` of ${PAID}`,
      "<refundId>":
        "the `refund.id` of [Prepare a refund](#createRefund) of that request, once its transaction is on chain and detection confirmed it (status `confirmed`)",
    },
  }),
};
