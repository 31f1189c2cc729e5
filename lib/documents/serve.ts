import { db } from "@/lib/db";
import { documentBrand } from "@/lib/documents/brand";
import { type InvoiceContext, renderInvoicePdf } from "@/lib/documents/invoice-pdf";
import { renderReceiptPdf } from "@/lib/documents/receipt-pdf";
import { env } from "@/lib/env";
import { notFound } from "@/lib/errors";
import { toInvoiceView } from "@/lib/invoices/view";
import { REQUEST_ID_PATTERN } from "@/lib/payments/reference";
import type { ReceiptPayload, SignedReceipt } from "@/lib/receipts/types";
import { loadLink } from "@/lib/secure-payments/page-data";

/**
 * The documents the API serves as PDF files: a stored receipt (public, by its unguessable ID), a
 * request's invoice (the account's own requests only: another account's is a 404, like an absent
 * one) and a link's invoice (public, by the link token, as the hosted page).
 */

export interface PdfFile {
  filename: string;
  bytes: Buffer;
}

const RECEIPT_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The stored receipt as the signed document: its payload (the JSON that was signed) and signature. */
function signedOf(row: { payload: string; keyId: string; signature: string }): SignedReceipt {
  return { receipt: JSON.parse(row.payload) as ReceiptPayload, signature: { alg: "Ed25519", keyId: row.keyId, value: row.signature } };
}

/** The link a request belongs to, if any (its branding wins on the documents). */
async function linkTokenOf(requestId: string): Promise<string | null> {
  const link = await db().securePaymentRequest.findUnique({ where: { requestId }, select: { securePaymentToken: true } });
  return link?.securePaymentToken ?? null;
}

export async function receiptPdf(receiptId: string): Promise<PdfFile> {
  if (!RECEIPT_ID.test(receiptId)) throw notFound("Receipt not found");
  const row = await db().receipt.findUnique({
    where: { id: receiptId },
    include: { payment: { select: { requestId: true } }, refund: { select: { requestId: true } } },
  });
  if (!row) throw notFound("Receipt not found");
  const signed = signedOf(row);
  const requestId = row.payment?.requestId ?? row.refund?.requestId ?? signed.receipt.request?.requestId;
  const brand = await documentBrand(row.accountId, requestId ? await linkTokenOf(requestId) : null, signed.receipt.merchant?.name);
  return { filename: `receipt-${row.id}.pdf`, bytes: await renderReceiptPdf(signed, brand) };
}

type RequestRow = NonNullable<Awaited<ReturnType<typeof requestWithInvoice>>>;

function requestWithInvoice(requestId: string) {
  return db().paymentRequest.findUnique({ where: { id: requestId }, include: { invoice: true } });
}

/** The receipt of the request's first recorded payment, for a paid invoice. */
async function firstReceipt(requestIds: string[]): Promise<InvoiceContext["receipt"]> {
  if (requestIds.length === 0) return null;
  const row = await db().receipt.findFirst({ where: { payment: { requestId: { in: requestIds } } }, orderBy: { createdAt: "asc" } });
  if (!row) return null;
  const { receipt } = signedOf(row);
  return {
    id: row.id,
    url: receipt.issuer?.verifyUrl ?? `${env().APP_URL.replace(/\/$/, "")}/receipts/${row.id}`,
    txHash: receipt.transfer.txHash,
    paidAt: receipt.transfer.blockTime,
    explorerUrl: receipt.transfer.explorerUrl,
  };
}

function requestContext(r: RequestRow, status: string): InvoiceContext["request"] {
  return {
    amount: r.amount,
    invoiceCurrency: r.invoiceCurrency,
    paymentCurrency: r.paymentCurrency,
    payee: r.payee,
    network: r.network,
    paymentReference: r.paymentReference,
    status,
  };
}

const payUrlOf = (token: string) => `${env().APP_URL.replace(/\/$/, "")}/pay/${token}`;

export async function requestInvoicePdf(accountId: string, requestId: string): Promise<PdfFile> {
  if (!REQUEST_ID_PATTERN.test(requestId)) throw notFound("Invoice not found");
  const r = await requestWithInvoice(requestId);
  if (!r || r.accountId !== accountId || !r.invoice) throw notFound("Invoice not found");
  const token = await linkTokenOf(r.id);
  const invoice = toInvoiceView(r.invoice);
  const paid = r.status === "paid";
  const bytes = await renderInvoicePdf(invoice, {
    brand: await documentBrand(accountId, token),
    request: requestContext(r, r.status),
    payUrl: token && !paid ? payUrlOf(token) : null,
    receipt: paid ? await firstReceipt([r.id]) : null,
  });
  return { filename: `invoice-${invoice.number}.pdf`, bytes };
}

export async function linkInvoicePdf(token: string): Promise<PdfFile> {
  const link = await loadLink(token);
  if (!link) throw notFound("Invoice not found");
  const row = await db().invoice.findUnique({ where: { securePaymentToken: link.sp.token } });
  const first = link.requests[0];
  if (!row || !first) throw notFound("Invoice not found");
  const invoice = toInvoiceView(row);
  const paid = link.status === "completed";
  const open = link.status === "pending";
  const bytes = await renderInvoicePdf(invoice, {
    brand: await documentBrand(link.sp.accountId, link.sp.token),
    request: { ...requestContext({ ...first, invoice: null }, paid ? "paid" : open ? first.status : link.status), amount: row.total },
    payUrl: open ? payUrlOf(link.sp.token) : null,
    receipt: paid ? await firstReceipt(link.requests.map((q) => q.id)) : null,
  });
  return { filename: `invoice-${invoice.number}.pdf`, bytes };
}
