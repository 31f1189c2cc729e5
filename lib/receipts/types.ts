/**
 * The signed receipt of one recorded transfer (#30). `receipt` is signed as it stands: its
 * canonical encoding (docs/guides/receipts.md: RFC 8785 JSON canonicalization) is the message
 * Duebill's Ed25519 key `signature.keyId` signs. Every amount is a string; base-unit amounts are
 * integers in the token's smallest unit, `*Decimal` fields the same amount with its decimals.
 */
export const RECEIPT_VERSION = "duebill.receipt.v1" as const;

export type ReceiptKind = "payment" | "refund";

export interface ReceiptInvoiceLine {
  description: string;
  quantity: string;
  unitPrice: string;
  taxRate: string | null;
  net: string;
  tax: string;
  total: string;
}

export interface ReceiptPayload {
  version: typeof RECEIPT_VERSION;
  /** rcp_… — also the last segment of `verifyUrl`. */
  id: string;
  kind: ReceiptKind;
  issuedAt: string;
  issuer: { name: string; url: string; verifyUrl: string };
  /** The account paid (the payee's business), as named on its hosted pages. */
  merchant: { accountId: string; name: string };
  request: {
    requestId: string;
    paymentReference: string;
    /** The merchant's own reference (order ID), when it gave one. */
    reference: string | null;
    amount: string;
    invoiceCurrency: string;
    paymentCurrency: string;
    payee: string;
    payer: string | null;
    network: string;
    feePercentage: string | null;
    feeAddress: string | null;
    invoice: {
      number: string;
      issueDate: string;
      dueDate: string | null;
      lines: ReceiptInvoiceLine[];
      subtotal: string;
      taxTotal: string;
      total: string;
    } | null;
  };
  /** How `request.paymentReference` follows from the request (a verifier recomputes it). */
  referenceDerivation: {
    algorithm: string;
    inputs: Record<string, string>;
    paymentReference: string;
  };
  transfer: {
    network: string;
    chainId: number | null;
    token: { address: string; symbol: string; decimals: number };
    /** Base units. */
    amount: string;
    amountDecimal: string;
    feeAmount: string;
    feeAmountDecimal: string;
    feeAddress: string | null;
    from: string | null;
    to: string;
    /** The contract that emitted the event (the fee proxy or conversion proxy). */
    emitter: string;
    event: string;
    txHash: string;
    logIndex: number;
    blockNumber: string;
    blockHash: string;
    blockTime: string;
    /** Confirmations when the receipt was issued. */
    confirmations: number;
    explorerUrl: string | null;
    /** The invoice-currency amount this transfer counted for (conversion payments), else null. */
    invoiceAmount: string | null;
  };
  /** Set on a refund's receipt: which refund, why, and the reference it was sent under. */
  refund: { refundId: string; reason: string; refundReference: string } | null;
}

export interface SignedReceipt {
  receipt: ReceiptPayload;
  signature: { alg: "Ed25519"; keyId: string; value: string };
}
