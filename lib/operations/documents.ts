import { z } from "zod";
import { defineOperation } from "@/lib/http/operation";
import { errorResponses } from "@/lib/openapi/common";
import { requestIdParamsSchema } from "@/lib/operations/requests-schemas";

/**
 * PDF documents (#30), a Duebill extension: a receipt's PDF (public, as the receipt's JSON: its
 * ID is unguessable), a request's invoice (the account's API credentials) and a link's invoice
 * (public: the link token is the capability, as on the hosted page). Rendered on request with
 * pdfkit and the bundled DejaVu fonts (docs/guides/documents.md).
 */
const tags = ["Documents"];
const pdf = (description: string) => ({ description, contentType: "application/pdf" });

export const getReceiptPdfOp = defineOperation({
  method: "GET",
  path: "/v2/receipts/{receiptId}/pdf",
  operationId: "getReceiptPdf",
  summary: "A receipt as a PDF",
  description:
    "The signed receipt printed: amount, date, merchant and payer, the transfer (network, token, tx hash linked to the explorer, block, log index, confirmations, fee), the request's references and invoice lines, the signing key ID and a QR code of the verification URL. `Content-Disposition: attachment; filename=\"receipt-<id>.pdf\"`. The receipt's ID is the capability: no credentials.",
  tags,
  auth: [],
  params: z.object({ receiptId: z.string().max(128) }),
  responses: { 200: pdf("The receipt (application/pdf)"), ...errorResponses(400, 404, 429) },
});

export const getRequestInvoicePdfOp = defineOperation({
  method: "GET",
  path: "/v2/request/{requestId}/invoice/pdf",
  operationId: "getRequestInvoicePdf",
  summary: "A request's invoice as a PDF",
  description:
    "The invoice of a request created with `invoice`: lines, tax per rate, total, notes, and how to pay (network, token, payee, payment reference; the link's pay URL as a QR code) — or, once paid, a PAID stamp and the receipt. 404 when the request has no invoice or is another account's.",
  tags,
  auth: ["apiKey", "clientId"],
  browser: false,
  params: requestIdParamsSchema,
  responses: { 200: pdf("The invoice (application/pdf)"), ...errorResponses(400, 401, 403, 404, 429) },
});

export const getLinkInvoicePdfOp = defineOperation({
  method: "GET",
  path: "/v2/secure-payments/{token}/invoice/pdf",
  operationId: "getSecurePaymentInvoicePdf",
  summary: "A link's invoice as a PDF",
  description:
    "The invoice of a secure payment link created with `invoice`, as the payer sees it from the hosted page. The token is the capability: no credentials. 404 when the link has no invoice.",
  tags,
  auth: [],
  params: z.object({ token: z.string().max(64) }),
  responses: { 200: pdf("The invoice (application/pdf)"), ...errorResponses(400, 404, 429) },
});
