import type { UnsignedTx } from "@/lib/chain/calldata";
import type { InvoiceView } from "@/lib/invoices/types";
import type { SecurePaymentStatus } from "@/lib/payments/link-status";
import type { PayMetadata } from "@/lib/payments/plan";

/**
 * What the hosted payment page (`/pay/{token}`) and its client code see of a secure
 * payment. Served by `getPaymentPage(token)` (server components) and by the public
 * `GET /v2/secure-payments/{token}` (the page's live status polling); the token is the
 * capability, so nothing here is private to the integrator (payees may be masked).
 */
export type { SecurePaymentStatus };

export interface PaymentPageItem {
  requestId: string;
  paymentReference: string;
  /** Human decimal the payee receives in all. */
  amount: string;
  payee: string;
  /**
   * `due`: the next transaction pays it (`due` is what it sends this payee now); `paid`: paid
   * already, not paid again; `excluded`: a multicall child that can no longer be paid here
   * (expired, screened out, merged elsewhere): the transaction leaves it out.
   */
  state: "due" | "paid" | "excluded";
  /** Human decimal the next transaction sends this payee ("0" unless `due`; "0" too when only its fee is missing). */
  due: string;
  /** Human decimal the next transaction sends in fees for this payment (the rest of each fee leg; "0" unless `due`). */
  dueFee: string;
  /** Its amount arrived (in part or whole) without its whole fee: the fee rule's `fee_short`. */
  feeShort: boolean;
}

export interface PaymentPageData {
  token: string;
  status: SecurePaymentStatus;
  direction: "incoming" | "outgoing";
  paymentType: "single" | "batch";
  network: { id: string; name: string; chainId: number; kind: "evm" | "tron"; explorerTxUrl: string; testnet: boolean };
  /** RPC URL the browser wallet may use for this chain (set for local devnets; null otherwise). */
  rpcUrl: string | null;
  /** `official`: the network's official token contract (shown with a verified mark), not a stand-in. */
  currency: { id: string; symbol: string; decimals: number; address: string; official: boolean };
  /** What the next transaction sends, fees included (human decimal): what is still owed, never what was paid already. */
  totalAmount: string;
  /** Fees within totalAmount (human decimal; "0" when none). */
  payerFees: string;
  /** The link's whole amount, fees included, of the payments it pays (paid or not; a multicall's excluded children left out). */
  fullAmount: string;
  /** Fees within fullAmount. */
  fullFees: string;
  /** What the link's payments already received (human decimal; "0" when nothing yet). */
  paidAmount: string;
  /**
   * `fee_short` while a payment reached the link without its whole fee (a fee leg got less than its share,
   * or went to another address): the link stays pending, its request partially_paid; null otherwise.
   */
  subStatus: "fee_short" | null;
  /** With fee_short: each fee leg below its share (human decimals in the link's token). */
  missingFees: { type: string; feeAddress: string; amount: string; currency: string }[];
  /** The same sum as totalAmount, kept under the fee rule's name: what the payer must still send now; after a short fee, that fee alone. */
  amountDue: string;
  /** Every payment of the link, in order, each marked due, paid or excluded. */
  items: PaymentPageItem[];
  /** Payee as shown (the first one the next transaction pays): the address, or a masked form when the access policy says so. */
  payee: { display: string; masked: boolean };
  /** Every distinct payee the next transaction sends an amount to, in order (masked like `payee`); empty when only fees are due. */
  recipients: string[];
  /** Every distinct fee address the next transaction sends a fee to, in order. */
  feeRecipients: string[];
  reference: string | null;
  expiresAt: string;
  completedAt: string | null;
  redirectUrl: string | null;
  redirectLabel: string | null;
  payerAddress: string | null;
  txHash: string | null;
  /** The signed receipt page of the payment that completed the link (/receipts/{id}); null until completed. */
  receiptUrl: string | null;
  /** The orchestrator's branding of a linked client ID's link; null: Duebill's own look. */
  branding: { displayName: string; logoUrl: string | null; accentColor: string | null; supportUrl: string | null } | null;
  /** Who is paid, as the payer should read it: the orchestrator's brand, else the account's name; null when unnamed. */
  merchant: { name: string; logoUrl: string | null; accentColor: string | null; supportUrl: string | null } | null;
  /** What the payer pays for, as the link's creator described it. */
  description: string | null;
  /** The link's line items (human decimals; totals, tax included, add up to the amount to the payee). */
  lineItems: { description: string; quantity: number; unitAmount: string; taxRate: string | null; tax: string; total: string }[];
  /** The link's invoice (POST /v2/secure-payments with `invoice`), or null. */
  invoice: InvoiceView | null;
  /** The link asks the payer for an email for the receipt (lib/mail); `payerEmailGiven`: one was given (never the address itself). */
  collectPayerEmail: boolean;
  payerEmailGiven: boolean;
  /** The payer may pay with a plain transfer to the request's deposit address (EVM, single incoming link, configured). */
  payByTransfer: boolean;
  /** Chains the payer may pay from instead (cross-chain: single incoming EVM link, USDC/USDT above 1 USD, a routing provider). */
  crossChainSources: CrossChainSource[];
  /** How the link was paid (lib/refunds/labels.ts): exact, over, under, late; null while nothing (or not all, before expiry) is paid. */
  amountLabel: "exact" | "over" | "under" | "late" | null;
  /** What the payer sent above the amount (human decimal, "0" when none) and what the deposit relayer sent back. */
  excessAmount: string;
  returnedAmount: string;
  /**
   * What happens to an excess, an underpaid or a late payment (lib/refunds/policy.ts): `return` (sent back from
   * the deposit address), `offer` (the merchant is offered a one-click refund), `keep`.
   */
  effectiveExcessPolicy: "return" | "offer" | "keep";
  /** Under `return`, tokens reached the link's deposit address from one wallet (not a contract): they go back to it automatically. */
  returnsToSender: boolean;
}

/** A source chain of a cross-chain payment, with what the wallet needs to switch to it. */
export interface CrossChainSource {
  /** The `chain` value of the pay call (ARBITRUM, BASE, ...). */
  chain: string;
  tokens: string[];
  network: { chainId: number; name: string; rpcUrl: string | null; testnet: boolean };
}

/** `GET /v2/secure-payments/{token}/pay?wallet=`: the payer's transactions, in order (the plan of lib/payments). */
export interface PaymentPagePlan {
  transactions: UnsignedTx[];
  metadata: PayMetadata;
}
