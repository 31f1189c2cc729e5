import type { OperationExample } from "@/lib/openapi/example-context";

/** The PDF operations' examples (lib/operations/documents.ts): each downloads the file with `-o`-able output. */
export const DOCUMENT_EXAMPLES: Record<string, () => OperationExample> = {
  getReceiptPdf: () => ({
    params: { receiptId: "<receiptId>" },
    placeholders: { "<receiptId>": "the `id` of a payment's receipt (the `receiptUrl` of its `payment.confirmed` webhook ends with it)" },
  }),
  getRequestInvoicePdf: () => ({
    params: { requestId: "<requestId>" },
    placeholders: { "<requestId>": "the `requestId` of [Create a payment request](#createRequest) sent with `invoice`" },
  }),
  getSecurePaymentInvoicePdf: () => ({
    params: { token: "<token>" },
    placeholders: { "<token>": "the `token` of [Create a secure payment link](#createSecurePayment) sent with `invoice`" },
  }),
};
