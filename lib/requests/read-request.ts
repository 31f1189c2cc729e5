import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import type { Invoice, Payment, PaymentRequest, Refund, RequestRecurrence } from "@/lib/generated/prisma/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { REQUEST_ID_PATTERN } from "@/lib/payments/reference";

/**
 * Everything GET /v2/request/{id} shows about one request, in ONE statement: the request (scoped to
 * the account inside the query, so another account's request and a missing one are the same 404), its
 * payments, refunds, link (token, status, expiry), deposit address's late amount, recurrence series
 * (with the original's id and reference) and invoice (its own, else its link's). The route ran ten
 * statements for these; each Prisma statement costs the server more CPU than the database's work.
 *
 * The related rows travel as JSON objects built by the query, every column of each model listed below
 * (the Record types make tsc refuse a missing or extra column), numbers that JSON cannot carry
 * exactly (Decimal, BigInt) as text, and are decoded into the same objects Prisma returns, so the
 * pure functions that build the response (toRequestStatus, wrongAmountOf, toInvoiceView) are fed
 * exactly what they were. tests/requests/read-request.test.ts compares both, field by field.
 */

/** s: text or enum; i: int; b: bigint; d: decimal; t: timestamp; j: json. */
type Kind = "s" | "i" | "b" | "d" | "t" | "j";
type Columns<T> = Record<keyof T, Kind>;

const PAYMENT: Columns<Payment> = {
  id: "s",
  requestId: "s",
  accountId: "s",
  network: "s",
  txHash: "s",
  logIndex: "i",
  blockNumber: "b",
  blockHash: "s",
  payer: "s",
  payerEoa: "s",
  payee: "s",
  tokenAddress: "s",
  amount: "d",
  feeAmount: "d",
  feeAddress: "s",
  proxyAddress: "s",
  invoiceAmount: "d",
  invoiceFeeAmount: "d",
  conversionRate: "d",
  amountInUsd: "d",
  depositAddress: "s",
  blockTime: "t",
  createdAt: "t",
};

const REFUND: Columns<Refund> = {
  id: "s",
  requestId: "s",
  accountId: "s",
  network: "s",
  tokenAddress: "s",
  toAddress: "s",
  amount: "d",
  refundReference: "s",
  referenceHash: "s",
  reason: "s",
  sender: "s",
  status: "s",
  warning: "s",
  txHash: "s",
  logIndex: "i",
  blockNumber: "b",
  blockHash: "s",
  blockTime: "t",
  sentAt: "t",
  confirmedAt: "t",
  cancelledAt: "t",
  createdAt: "t",
  updatedAt: "t",
};

const INVOICE: Columns<Invoice> = {
  id: "s",
  accountId: "s",
  sequence: "i",
  number: "s",
  requestId: "s",
  securePaymentToken: "s",
  currency: "s",
  issueDate: "t",
  dueDate: "t",
  customer: "j",
  notes: "s",
  lines: "j",
  subtotal: "s",
  taxTotal: "s",
  total: "s",
  createdAt: "t",
};

const RECURRENCE: Columns<RequestRecurrence> = {
  id: "s",
  accountId: "s",
  clientId: "s",
  originalRequestId: "s",
  frequency: "s",
  startDate: "t",
  nextIndex: "i",
  nextDueAt: "t",
  stoppedAt: "t",
  reminderDue: "t",
  reminderNextAt: "t",
  createdAt: "t",
  updatedAt: "t",
};

/** `json_build_object('col', alias."col", …)`, exact numbers as text. Column names are the constants above. */
function jsonObject(alias: string, cols: Record<string, Kind>, extra = ""): string {
  const fields = Object.entries(cols).map(([c, k]) => `'${c}', ${alias}."${c}"${k === "b" || k === "d" ? "::text" : ""}`);
  return `json_build_object(${fields.join(", ")}${extra})`;
}

function decode<T>(raw: Record<string, unknown>, cols: Record<string, Kind>): T {
  const out: Record<string, unknown> = {};
  for (const [c, k] of Object.entries(cols)) {
    const v = raw[c] ?? null;
    if (v === null || k === "s" || k === "i" || k === "j") out[c] = v;
    else if (k === "d") out[c] = new Prisma.Decimal(v as string);
    else if (k === "b") out[c] = BigInt(v as string);
    // timestamp(3) without time zone, stored in UTC, which JSON writes without an offset.
    else out[c] = new Date(`${v as string}Z`);
  }
  return out as T;
}

export interface RequestBundle {
  row: PaymentRequest;
  payments: Payment[];
  refunds: Refund[];
  /** The request's link: its token, status and expiry; null without one. */
  link: { token: string; status: string; expiresAt: Date } | null;
  /** DepositAddress.lateAmount (0 without a deposit address). */
  depositLate: Prisma.Decimal;
  recurrence: (RequestRecurrence & { original: { id: string; paymentReference: string } }) | null;
  invoice: Invoice | null;
}

// Built once: the statement's text is the same for every request (only the two parameters vary).
const RELATED = Prisma.raw(`
  (SELECT coalesce(json_agg(${jsonObject("p", PAYMENT)}), '[]'::json) FROM "Payment" p WHERE p."requestId" = r."id") AS "_payments",
  (SELECT coalesce(json_agg(${jsonObject("f", REFUND)}), '[]'::json) FROM "Refund" f WHERE f."requestId" = r."id") AS "_refunds",
  (SELECT json_build_object('token', s."token", 'status', s."status", 'expiresAt', s."expiresAt")
     FROM "SecurePaymentRequest" l JOIN "SecurePayment" s ON s."token" = l."securePaymentToken" WHERE l."requestId" = r."id") AS "_link",
  (SELECT d."lateAmount"::text FROM "DepositAddress" d WHERE d."requestId" = r."id") AS "_depositLate",
  (SELECT ${jsonObject("c", RECURRENCE, `, 'original', json_build_object('id', o."id", 'paymentReference', o."paymentReference")`)}
     FROM "RequestRecurrence" c JOIN "PaymentRequest" o ON o."id" = c."originalRequestId" WHERE c."id" = r."recurrenceId") AS "_recurrence",
  coalesce(
    (SELECT ${jsonObject("i", INVOICE)} FROM "Invoice" i WHERE i."requestId" = r."id"),
    (SELECT ${jsonObject("i", INVOICE)} FROM "SecurePaymentRequest" l JOIN "Invoice" i ON i."securePaymentToken" = l."securePaymentToken"
       WHERE l."requestId" = r."id")
  ) AS "_invoice"`);

type Raw = PaymentRequest & {
  _payments: Record<string, unknown>[];
  _refunds: Record<string, unknown>[];
  _link: { token: string; status: string; expiresAt: string } | null;
  _depositLate: string | null;
  _recurrence: (Record<string, unknown> & { original: { id: string; paymentReference: string } }) | null;
  _invoice: Record<string, unknown> | null;
};

/** The caller's request and what GET /v2/request/{id} shows of it; 404 when it is not the caller's. */
export async function readRequestBundle(accountId: string, requestId: string): Promise<RequestBundle> {
  if (!REQUEST_ID_PATTERN.test(requestId)) throw notFound("Request not found");
  const rows = await db().$queryRaw<Raw[]>`
    SELECT r.*, ${RELATED} FROM "PaymentRequest" r WHERE r."id" = ${requestId} AND r."accountId" = ${accountId}`;
  const raw = rows[0];
  if (!raw) throw notFound("Request not found");
  const { _payments, _refunds, _link, _depositLate, _recurrence, _invoice, ...row } = raw;
  return {
    row,
    payments: _payments.map((p) => decode<Payment>(p, PAYMENT)),
    refunds: _refunds.map((f) => decode<Refund>(f, REFUND)),
    link: _link && { token: _link.token, status: _link.status, expiresAt: new Date(`${_link.expiresAt}Z`) },
    depositLate: new Prisma.Decimal(_depositLate ?? 0),
    recurrence: _recurrence && { ...decode<RequestRecurrence>(_recurrence, RECURRENCE), original: _recurrence.original },
    invoice: _invoice && decode<Invoice>(_invoice, INVOICE),
  };
}
