import { FIAT_PATH_DECIMALS } from "@/lib/chain/conversion";
import { explorerUrl, tokenOf } from "@/lib/chain/stored";
import type { Payment, PaymentRequest } from "@/lib/generated/prisma/client";
import { formatAmount } from "@/lib/money";

/**
 * Every webhook event body is built here, one builder per event type, with the keys in the
 * documented order (docs/spec/DECISIONS.md, docs/spec/reference-notes.md §1.9 Webhooks). Bodies are serialised once,
 * when the event is written, and sent byte for byte, so that order is what receivers see.
 */
export const EVENT_TYPES = [
  "payment.confirmed",
  "payment.partial",
  "payment.failed",
  "payment.refunded",
  "client_id.linked",
  "request.recurring",
  "payment.upcoming_failure",
  "payment.past_due",
  "request.upcoming",
  "request.past_due",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/**
 * Every event type of the reference's `POST /v1/webhook/test` enum (docs/spec/reference-notes.md §1.8): a test
 * delivery sends a sample of any of them, in the reference's documented shape, so a receiver can
 * be checked against all it may handle. Duebill itself emits the EVENT_TYPES above.
 */
export const TEST_EVENT_TYPES = [
  "payment.processing",
  "payment.failed",
  "payment.refunded",
  "payment.confirmed",
  "payment.partial",
  "request.recurring",
  "payment_detail.updated",
  "compliance.updated",
  "client_id.linked",
  "secure_payment.access_rejected",
  "kyt.screening.completed",
  "secure_payment.user_event",
  "payment.upcoming_failure",
  "payment.past_due",
  "request.upcoming",
  "request.past_due",
] as const;
export type TestEventType = (typeof TEST_EVENT_TYPES)[number];

/** Events for an orchestrator's webhooks (/v2/orchestrators/webhooks), never an integrator's. */
export const ORCHESTRATOR_EVENTS = ["client_id.linked"] as const satisfies readonly EventType[];

const PROCESSOR = "request-network";

interface RequestRef {
  requestId: string;
  paymentReference: string;
}

export interface PaymentConfirmedFields extends RequestRef {
  explorer: string;
  amount: string;
  totalAmountPaid: string;
  expectedAmount: string;
  timestamp: string;
  txHash: string;
  network: string;
  currency: string;
  paymentCurrency: string;
  fees: { type: string; amount: string; currency: string }[];
  /** The merchant's own reference of the request (its link's `reference`, or POST /v2/request's); null when none was given. */
  reference: string | null;
  /** Who paid (Payment.payer: a smart account is the contract) and the EOA behind it (Payment.payerEoa); null when unknown. */
  payerAddress?: string | null;
  payerEoaAddress?: string | null;
  recurring?: RecurringRef;
  crossChain?: CrossChainRef;
  /** How the request was paid (lib/refunds/labels.ts, docs/guides/refunds.md): the last keys of payment.confirmed and payment.partial. */
  label?: AmountLabelRef;
  /** payment.confirmed: the signed receipt of the payment that completed the request (docs/guides/receipts.md), after the label. */
  receiptUrl?: string;
}

export type AmountLabelRef = { amountLabel: "exact" | "over" | "under" | "late" | null; excessAmount: string };
const labelKeys = (l: AmountLabelRef | undefined) => ({ amountLabel: l?.amountLabel ?? null, excessAmount: l?.excessAmount ?? "0" });

/** A payment delivered from another chain: where the payer paid (the source) and through whom. */
export interface CrossChainRef {
  sourceChain: string;
  sourceNetwork: string;
  sourceTxHash: string;
  provider: string;
  /** The wallet that paid on the source chain (the destination transaction's sender is the bridge). */
  payer?: string;
}

/** A payment of a recurring schedule (docs/spec/DECISIONS.md: recurringPaymentId, paymentIndex). */
export interface RecurringRef {
  recurringPaymentId: string;
  paymentIndex: number;
}

export function paymentConfirmedEvent(f: PaymentConfirmedFields) {
  return {
    event: "payment.confirmed" as const,
    ...paymentBody(f),
    ...labelKeys(f.label),
    ...(f.receiptUrl ? { receiptUrl: f.receiptUrl } : {}),
  };
}

/** A fee leg short of its share (lib/payments/fee-legs.ts): where the fee should have gone and how much is missing. */
export interface MissingFeeRef {
  type: string;
  feeAddress: string;
  amount: string;
  currency: string;
}

/**
 * payment.partial (the reference's event of a payment that leaves a request partly paid): Duebill
 * sends it when a payment leaves a request's fee short — subStatus `fee_short`, with `missingFees`.
 * The body is payment.confirmed's, field for field, plus missingFees.
 */
export function paymentPartialEvent(f: PaymentConfirmedFields & { missingFees: MissingFeeRef[] }) {
  return {
    event: "payment.partial" as const,
    ...paymentBody({ ...f, subStatus: "fee_short" }),
    missingFees: f.missingFees.map((m) => ({ type: m.type, feeAddress: m.feeAddress, amount: m.amount, currency: m.currency })),
    ...labelKeys(f.label),
  };
}

export function paymentBody(f: PaymentConfirmedFields & { subStatus?: string }) {
  return {
    requestId: f.requestId,
    requestID: f.requestId,
    paymentReference: f.paymentReference,
    explorer: f.explorer,
    amount: f.amount,
    totalAmountPaid: f.totalAmountPaid,
    expectedAmount: f.expectedAmount,
    timestamp: f.timestamp,
    txHash: f.txHash,
    network: f.network,
    currency: f.currency,
    paymentCurrency: f.paymentCurrency,
    isCryptoToFiat: false,
    subStatus: f.subStatus ?? "",
    paymentProcessor: PROCESSOR,
    fees: f.fees,
    reference: f.reference,
    // The reference's payer fields: equal for a plain wallet; a smart account's contract and its EOA otherwise.
    payerAddress: f.payerAddress ?? null,
    payerEoaAddress: f.payerEoaAddress ?? null,
    ...(f.recurring ? { recurringPaymentId: f.recurring.recurringPaymentId, paymentIndex: f.recurring.paymentIndex } : {}),
    ...(f.crossChain
      ? {
          crossChain: {
            sourceChain: f.crossChain.sourceChain,
            sourceNetwork: f.crossChain.sourceNetwork,
            sourceTxHash: f.crossChain.sourceTxHash,
            provider: f.crossChain.provider,
          },
        }
      : {}),
  };
}

/**
 * payment.failed carries the interface's payment-event fields, like payment.confirmed (Events:
 * "event: payment.confirmed or payment.failed"), plus `failureReason` and, for a recurring
 * payment, `recurringPaymentId`, `paymentIndex` and `failureCode` (docs/spec/DECISIONS.md). `txHash` is the
 * failed (mined and reverted) transaction when there is one, else "" (most failures are found by
 * the dry run before anything is sent); `explorer` is then that transaction's page, else the
 * payer's address page (where the short balance or allowance shows). `amount` is what the
 * payment was to move; `totalAmountPaid` what the request has received so far.
 */
interface PaymentFailedFields extends Omit<PaymentConfirmedFields, "recurring" | "crossChain"> {
  subStatus: string;
  failureReason: string;
  /** For a recurring payment: which schedule and index, and the executor's reason code. */
  recurring?: RecurringRef & { failureCode: string };
}

export function paymentFailedEvent(f: PaymentFailedFields) {
  return {
    event: "payment.failed" as const,
    requestId: f.requestId,
    requestID: f.requestId,
    paymentReference: f.paymentReference,
    explorer: f.explorer,
    amount: f.amount,
    totalAmountPaid: f.totalAmountPaid,
    expectedAmount: f.expectedAmount,
    timestamp: f.timestamp,
    txHash: f.txHash,
    network: f.network,
    currency: f.currency,
    paymentCurrency: f.paymentCurrency,
    isCryptoToFiat: false,
    subStatus: f.subStatus,
    paymentProcessor: PROCESSOR,
    fees: f.fees,
    reference: f.reference,
    failureReason: f.failureReason,
    ...(f.recurring
      ? { recurringPaymentId: f.recurring.recurringPaymentId, paymentIndex: f.recurring.paymentIndex, failureCode: f.recurring.failureCode }
      : {}),
  };
}

/** The explorer's page of an address (the payer of a payment that failed before any transaction). */
export function explorerAddressUrl(network: string, address: string): string {
  const tx = explorerUrl(network, "");
  return tx ? tx.replace(/(#\/)?(tx|transaction)\/$/, (_m, hash: string | undefined) => `${hash ?? ""}address/`) + address : address;
}

/**
 * payment.failed for a request whose payment failed: `amount` (token units) is what the payment
 * was to move, `txHash` the reverted transaction or null when nothing was mined.
 */
export function paymentFailedPayload(
  request: PaymentRequest,
  f: {
    amount: bigint;
    feeAmount: bigint;
    payer: string;
    txHash: string | null;
    timestamp: string;
    subStatus: string;
    failureReason: string;
    recurring?: RecurringRef & { failureCode: string };
  },
) {
  const token = tokenOf(request);
  const owed = (d: { toFixed(): string }) => formatAmount(BigInt(d.toFixed()), request.isConversion ? FIAT_PATH_DECIMALS : token.decimals);
  return paymentFailedEvent({
    requestId: request.id,
    paymentReference: request.paymentReference,
    explorer: f.txHash ? explorerUrl(request.network, f.txHash) : explorerAddressUrl(request.network, f.payer),
    amount: formatAmount(f.amount, token.decimals),
    totalAmountPaid: owed(request.amountPaid),
    expectedAmount: owed(request.expectedAmount),
    timestamp: f.timestamp,
    txHash: f.txHash ?? "",
    network: request.network,
    currency: request.invoiceCurrency,
    paymentCurrency: request.paymentCurrency,
    fees: f.feeAmount > 0n ? [{ type: "platform", amount: formatAmount(f.feeAmount, token.decimals), currency: token.symbol }] : [],
    reference: request.reference,
    subStatus: f.subStatus,
    failureReason: f.failureReason,
    recurring: f.recurring,
  });
}

type PaymentExtras = { crossChain?: CrossChainRef; feesPaid?: bigint; label?: AmountLabelRef; receiptUrl?: string };
/** payment.confirmed for a request detection has just marked paid; extras: the bridge's source, all its payments' fees, the label. */
export function paymentConfirmedPayload(request: PaymentRequest, payment: Payment, x: PaymentExtras = {}) {
  return paymentConfirmedEvent({ ...paymentFields(request, payment, x.crossChain, x.feesPaid), label: x.label, receiptUrl: x.receiptUrl });
}

/** payment.partial for a request a payment left fee-short (its fees so far, and what each short leg misses). */
export function paymentPartialPayload(request: PaymentRequest, payment: Payment, missingFees: MissingFeeRef[], x: PaymentExtras) {
  return paymentPartialEvent({ ...paymentFields(request, payment, undefined, x.feesPaid), missingFees, label: x.label });
}

function paymentFields(request: PaymentRequest, payment: Payment, crossChain?: CrossChainRef, feesPaid?: bigint): PaymentConfirmedFields {
  const token = tokenOf(request);
  const units = (d: { toFixed(): string }) => formatAmount(BigInt(d.toFixed()), token.decimals);
  // A conversion request owes (and counts paid) its invoice currency at the path's 8 decimals; payments move tokens.
  const owed = (d: { toFixed(): string }) => formatAmount(BigInt(d.toFixed()), request.isConversion ? FIAT_PATH_DECIMALS : token.decimals);
  const fee = feesPaid ?? BigInt(payment.feeAmount.toFixed());
  return {
    requestId: request.id,
    paymentReference: request.paymentReference,
    explorer: explorerUrl(payment.network, payment.txHash),
    amount: units(payment.amount),
    totalAmountPaid: owed(request.amountPaid),
    expectedAmount: owed(request.expectedAmount),
    timestamp: payment.blockTime.toISOString(),
    txHash: payment.txHash,
    network: request.network,
    currency: request.invoiceCurrency,
    paymentCurrency: request.paymentCurrency,
    fees: fee > 0n ? [{ type: "platform", amount: formatAmount(fee, token.decimals), currency: token.symbol }] : [],
    reference: request.reference,
    payerAddress: payment.payer,
    payerEoaAddress: payment.payerEoa,
    recurring:
      request.recurringScheduleId && request.recurringIndex
        ? { recurringPaymentId: request.recurringScheduleId, paymentIndex: request.recurringIndex }
        : undefined,
    crossChain,
  };
}

export { clientIdLinkedEvent } from "@/lib/events/client-id-linked";
