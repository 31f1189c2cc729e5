/**
 * The columns of every export, in this order, for every kind (payments, payouts, refunds, requests):
 * one header, so one spreadsheet template or import mapping serves them all. These names are a
 * contract (docs/guides/exports.md documents each): add columns at the end, never rename or reorder.
 */
export const EXPORT_COLUMNS = [
  "date",
  "type",
  "direction",
  "id",
  "requestId",
  "reference",
  "invoiceNumber",
  "network",
  "tokenSymbol",
  "tokenAddress",
  "amount",
  "signedAmount",
  "invoiceCurrency",
  "invoiceAmount",
  "feeAmount",
  "feeAddress",
  "payer",
  "payee",
  "txHash",
  "logIndex",
  "blockNumber",
  "explorerUrl",
  "paymentReference",
  "status",
  "paidAmount",
  "refundedAmount",
] as const;

export type ExportColumn = (typeof EXPORT_COLUMNS)[number];

/** One row: strings (amounts are decimal strings in token or currency units), logIndex a number, null where not applicable. */
export type ExportRow = Record<ExportColumn, string | number | null>;

export const EXPORT_KINDS = ["payments", "requests", "refunds", "payouts"] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

export const EXPORT_FORMATS = ["csv", "json", "ndjson"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The statuses each kind filters on: a transfer's request's status, or the refund's own. */
export const REQUEST_STATUSES = ["pending", "partially_paid", "paid"] as const;
export const REFUND_STATUSES = ["prepared", "sent", "confirmed", "cancelled"] as const;
export const STATUSES_OF: Record<ExportKind, readonly string[]> = {
  payments: REQUEST_STATUSES,
  payouts: REQUEST_STATUSES,
  requests: REQUEST_STATUSES,
  refunds: REFUND_STATUSES,
};
