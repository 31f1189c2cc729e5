import { asHex, parseAddressFor, sameAddress } from "@/lib/chain/address";
import { feeProxyPayTx } from "@/lib/chain/calldata";
import { publicClientFor } from "@/lib/chain/reader";
import { storedTermsOf } from "@/lib/chain/stored";
import { db } from "@/lib/db";
import { AppError, invalidField, notFound } from "@/lib/errors";
import type { PaymentRequest } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { formatAmount, parseAmount } from "@/lib/money";
import { approvalsFor, assemble, GAS_PER_PAYMENT, type PayMetadata, type PaymentPlan } from "@/lib/payments/plan";
import { REQUEST_ID_PATTERN } from "@/lib/payments/reference";
import { lockRequest, readLedger } from "@/lib/refunds/ledger";
import { insertRefund, refundReferenceOf } from "@/lib/refunds/store";
import { type RefundView, toRefundView } from "@/lib/refunds/view";

export const EXCHANGE_WARNING =
  "A refund to an exchange's hot wallet or deposit address may be lost; send only to an address the payer controls.";
export const CONTRACT_WARNING =
  "This address is a contract, not a wallet: make sure it can receive the token and that the payer controls it.";

export interface PrepareRefundInput {
  /** Decimal string in the payment currency; default: everything that can still be refunded. */
  amount?: string;
  /** Where the refund goes; default: the payer. */
  to?: string;
  /** The wallet that sends the refund (its allowance and balance are read); default: the request's payee. */
  wallet?: string;
}

export interface RefundMetadata extends PayMetadata {
  /** The wallet the transactions are for. */
  wallet: string;
  /** The fee of the original payments, kept by the fee address: a refund returns what the payee received, not the fee. */
  feeKept: string;
  /** What can still be refunded after this refund, in the payment currency. */
  refundable: string;
  /** The refund's warning (also on the refund), or null. */
  warning: string | null;
}

export interface PreparedRefund {
  refund: RefundView;
  /** Approvals when the wallet's allowance is short, then the fee-proxy transfer under the refund reference. */
  transactions: PaymentPlan["transactions"];
  metadata: RefundMetadata;
}

/**
 * A request of the account (another account's, or a missing one, is the same 404), as refunds
 * need it: an incoming request. Exported for the dashboard's refund pages.
 */
export async function refundableRequestOrThrow(accountId: string, requestId: string): Promise<PaymentRequest> {
  if (!REQUEST_ID_PATTERN.test(requestId)) throw notFound("Request not found");
  const row = await db().paymentRequest.findFirst({ where: { id: requestId, accountId } });
  if (!row) throw notFound("Request not found");
  return row;
}

function assertIncoming(row: PaymentRequest): void {
  if (row.kind !== "request")
    throw new AppError(
      "conflict",
      "This request is a payout (money the account sent): only incoming requests are refunded, by their payee's wallet",
    );
}

/** The payer to refund by default: the request's, else its first payment's. */
async function payerOf(row: PaymentRequest): Promise<string | null> {
  if (row.payer) return row.payer;
  const first = await db().payment.findFirst({
    where: { requestId: row.id, payer: { not: null } },
    orderBy: [{ blockNumber: "asc" }, { logIndex: "asc" }],
    select: { payer: true },
  });
  return first?.payer ?? null;
}

/** True when `address` holds code on an EVM network (a contract); false when unknown (no RPC, Tron, a failed read). */
async function isContract(row: PaymentRequest, address: string): Promise<boolean> {
  const client = publicClientFor(storedTermsOf(row).network);
  if (!client) return false;
  try {
    const code = await client.getCode({ address: asHex(address) });
    return Boolean(code && code !== "0x");
  } catch (err) {
    log.warn("could not read a refund address's code", { requestId: row.id, error: err instanceof Error ? err.message : String(err) });
    return false;
  }
}

/**
 * The transactions that send `refund` from `wallet`: approve the network's ERC20FeeProxy when the
 * allowance is short (approve(0) first for USDT-style tokens), then
 * transferFromWithReferenceAndFee(token, to, amount, refundReference, 0, 0x0) — no fee on a
 * refund. On Tron `to` is base58 and the calldata carries 20-byte addresses (lib/chain/calldata.ts);
 * without an RPC to read (Tron) the approval is always included.
 */
export async function refundPlan(
  row: PaymentRequest,
  refund: { toAddress: string; amount: bigint; refundReference: string },
  wallet: string,
): Promise<PaymentPlan> {
  const { runtime, token } = storedTermsOf(row);
  const proxy = runtime.contracts.erc20FeeProxy;
  const amount = refund.amount;
  const funding = await approvalsFor({
    runtime,
    token: row.tokenAddress,
    spender: proxy,
    total: amount,
    wallet,
    approveResetRequired: token.approveResetRequired ?? false,
    paymentGas: GAS_PER_PAYMENT,
  });
  const transfer = feeProxyPayTx(runtime.network.kind, {
    proxy,
    token: row.tokenAddress,
    to: refund.toAddress,
    amount,
    paymentReference: asHex(refund.refundReference),
    feeAmount: 0n,
    feeAddress: null,
  });
  return assemble(funding.approvals, transfer, funding);
}

/**
 * POST /v2/request/{requestId}/refunds: a refund of an incoming request, prepared (a Refund row,
 * status prepared) with the transactions the payee's wallet sends. Capped by what the payee
 * received minus its refunds confirmed, sent or prepared (cancelled ones free their amount); the
 * request row is locked while the cap is checked and the row written, so concurrent refunds
 * cannot overdraw. Chain reads (allowance, balance, the destination's code) happen before the lock.
 */
export async function prepareRefund(accountId: string, requestId: string, input: PrepareRefundInput = {}): Promise<PreparedRefund> {
  const row = await refundableRequestOrThrow(accountId, requestId);
  assertIncoming(row);
  const { network, token } = storedTermsOf(row);
  const before = await readLedger(db(), row.id);
  if (before.received === 0n) throw new AppError("conflict", "Nothing has been paid on this request: there is nothing to refund");

  const payer = await payerOf(row);
  let to: string;
  if (input.to === undefined) {
    if (!payer) throw invalidField("to", "is required: the payer of this request is not known");
    to = parseAddressFor(network, payer, "to");
  } else to = parseAddressFor(network, input.to, "to");
  // The refund reference of the payee's own address is the payment reference: it would read as a payment.
  if (sameAddress(to, row.payee)) throw invalidField("to", "is the request's payee: a refund goes back to the payer");
  if (/^0x0{40}$/i.test(to)) throw invalidField("to", "cannot be the zero address");
  const wallet = input.wallet === undefined ? row.payee : parseAddressFor(network, input.wallet, "wallet");

  const amount = input.amount === undefined ? before.refundable : parseAmount(input.amount, token.decimals, "amount");
  const tooMuch = (refundable: bigint) =>
    invalidField(
      "amount",
      refundable === 0n
        ? "nothing is left to refund on this request"
        : `is more than what can still be refunded (${formatAmount(refundable, token.decimals)} ${token.symbol})`,
    );
  if (amount === 0n || amount > before.refundable) throw tooMuch(before.refundable);

  const explicitStranger = input.to !== undefined && !(payer && sameAddress(payer, to));
  const contract = await isContract(row, to);
  const warning = [explicitStranger ? EXCHANGE_WARNING : null, contract ? CONTRACT_WARNING : null].filter(Boolean).join(" ") || null;

  // The calldata is built before anything is written: a chain read that fails leaves no refund holding the amount.
  const plan = await refundPlan(row, { toAddress: to, amount, refundReference: refundReferenceOf(row, to) }, wallet);
  const { refund, left } = await db().$transaction(async (tx) => {
    await lockRequest(tx, row.id);
    const now = await readLedger(tx, row.id);
    if (amount > now.refundable) throw tooMuch(now.refundable);
    return {
      refund: await insertRefund(tx, row, { to, amount, reason: "requested", sender: "payee", warning }),
      left: now.refundable - amount,
    };
  });
  return {
    refund: toRefundView(refund, row),
    transactions: plan.transactions,
    metadata: {
      ...plan.metadata,
      wallet,
      feeKept: formatAmount(before.feeKept, token.decimals),
      refundable: formatAmount(left, token.decimals),
      warning,
    },
  };
}
