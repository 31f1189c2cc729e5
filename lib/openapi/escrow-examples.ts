import type { ExampleContext, OperationExample } from "@/lib/openapi/example-context";

/** The commerce payment operations' examples (lib/operations/escrow.ts): each names the request it acts on and the step before it. */
const CREATED = { "<requestId>": "the `requestId` of [Create a payment request](#createRequest)" };
const PREPARED = {
  "<requestId>": "the `requestId` you passed to [Prepare an authorization](#authorizeCommercePaymentCalldata)",
  "<payerSignature>":
    "the payer wallet's EIP-712 signature of that answer's `typedData` (`eth_signTypedData_v4` of its `domain`, `types`, `primaryType` and `message`)",
};
const AUTHORIZED = {
  "<requestId>": "the `requestId` of a request authorized with [Submit the payer's authorization](#authorizeCommercePayment)",
};
const CAPTURED = { "<requestId>": "the `requestId` of an authorized request captured with [Capture (relayed)](#captureCommercePayment)" };

export const ESCROW_EXAMPLES: Record<string, (ctx: ExampleContext) => OperationExample> = {
  authorizeCommercePaymentCalldata: (ctx) => ({ body: { requestId: "<requestId>", payerAddress: ctx.payer }, placeholders: CREATED }),
  authorizeCommercePayment: () => ({
    params: { requestId: "<requestId>" },
    body: { signature: "<payerSignature>" },
    placeholders: PREPARED,
  }),
  captureCommercePayment: () => ({ params: { requestId: "<requestId>" }, body: { amount: "5" }, placeholders: AUTHORIZED }),
  captureCommercePaymentCalldata: () => ({ params: { requestId: "<requestId>" }, body: { amount: "5" }, placeholders: AUTHORIZED }),
  voidCommercePayment: () => ({ params: { requestId: "<requestId>" }, placeholders: AUTHORIZED }),
  voidCommercePaymentCalldata: () => ({ params: { requestId: "<requestId>" }, placeholders: AUTHORIZED }),
  refundCommercePaymentCalldata: () => ({ params: { requestId: "<requestId>" }, body: { amount: "1" }, placeholders: CAPTURED }),
  refundCommercePayment: () => ({
    params: { requestId: "<requestId>" },
    body: { amount: "1", validBefore: "<validBefore>", refundSalt: "<refundSalt>", signature: "<payeeSignature>" },
    placeholders: {
      ...CAPTURED,
      "<validBefore>": "the `typedData.message.validBefore` of [Refund transactions](#refundCommercePaymentCalldata) for amount 1",
      "<refundSalt>": "that answer's `refundSalt`",
      "<payeeSignature>": "the payee wallet's EIP-712 signature of that answer's `typedData`",
    },
  }),
  getCommercePaymentStatus: () => ({ params: { requestId: "<requestId>" }, placeholders: AUTHORIZED }),
};
