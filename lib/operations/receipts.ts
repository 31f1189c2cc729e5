import { defineOperation } from "@/lib/http/operation";
import { errorResponses } from "@/lib/openapi/common";
import {
  paymentIdParamsSchema,
  receiptDownloadQuerySchema,
  receiptIdParamsSchema,
  signedReceiptSchema,
} from "@/lib/operations/receipts-schemas";
import { refundParamsSchema } from "@/lib/operations/refunds-schemas";

/**
 * Signed receipts of recorded payments and confirmed refunds (issue 30), a Duebill extension:
 * Ed25519 over the RFC 8785 canonical JSON of `receipt`; the keys at /.well-known/duebill-receipt-keys.json;
 * the algorithm and the verifier in docs/guides/receipts.md.
 */
const tags = ["Receipts"];
const issuedOnFirstRead =
  "A receipt is issued when detection records the transfer; one recorded before receipts existed gets it on first read.";

export const getReceiptOp = defineOperation({
  method: "GET",
  path: "/v2/receipts/{receiptId}",
  operationId: "getReceipt",
  summary: "A signed receipt (public)",
  description:
    "The signed receipt by its id (unguessable: whoever holds the id or the link may read it, as with a hosted link's token). No credentials; any origin may read it (`Access-Control-Allow-Origin: *`), and it never changes (cacheable). `?download=1` answers it as an attachment.",
  tags,
  auth: [],
  params: receiptIdParamsSchema,
  query: receiptDownloadQuerySchema,
  responses: { 200: { description: "Signed receipt", schema: signedReceiptSchema }, ...errorResponses(400, 404, 429) },
});

export const getPaymentReceiptOp = defineOperation({
  method: "GET",
  path: "/v2/payments/{paymentId}/receipt",
  operationId: "getPaymentReceipt",
  summary: "The signed receipt of a payment",
  description: `The signed receipt of one of your payments (the \`id\` of GET /v2/payments). ${issuedOnFirstRead} Another account's payment: 404.`,
  tags,
  auth: ["apiKey", "clientId"],
  browser: false,
  params: paymentIdParamsSchema,
  responses: { 200: { description: "Signed receipt", schema: signedReceiptSchema }, ...errorResponses(401, 403, 404, 429) },
});

export const getRefundReceiptOp = defineOperation({
  method: "GET",
  path: "/v2/request/{requestId}/refunds/{refundId}/receipt",
  operationId: "getRefundReceipt",
  summary: "The signed receipt of a confirmed refund",
  description: `The signed receipt of a refund detection confirmed. ${issuedOnFirstRead} A refund not confirmed yet, or another account's: 404.`,
  tags,
  auth: ["apiKey", "clientId"],
  browser: false,
  params: refundParamsSchema,
  responses: { 200: { description: "Signed receipt", schema: signedReceiptSchema }, ...errorResponses(401, 403, 404, 429) },
});
