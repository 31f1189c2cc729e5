import { pdfResponse } from "@/lib/documents/response";
import { linkInvoicePdf, receiptPdf, requestInvoicePdf } from "@/lib/documents/serve";

export type { InvoiceContext } from "@/lib/documents/invoice-pdf";
export { renderInvoicePdf } from "@/lib/documents/invoice-pdf";
export { fetchLogo } from "@/lib/documents/logo";
export type { DocumentBrand } from "@/lib/documents/pdf-doc";
export { renderReceiptPdf } from "@/lib/documents/receipt-pdf";
export { linkInvoicePdf, receiptPdf, requestInvoicePdf } from "@/lib/documents/serve";

/** The PDF routes' handlers: the file as a download response. */
export const documentsPdf = {
  receipt: async (receiptId: string) => pdfResponse(await receiptPdf(receiptId)),
  requestInvoice: async (accountId: string, requestId: string) => pdfResponse(await requestInvoicePdf(accountId, requestId)),
  linkInvoice: async (token: string) => pdfResponse(await linkInvoicePdf(token)),
};
