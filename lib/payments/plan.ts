import { approveTx, type BatchItem, batchPayTx, feeProxyPayTx, type UnsignedTx } from "@/lib/chain/calldata";
import type { NetworkRuntime } from "@/lib/chain/config";
import { NETWORKS, type NetworkId } from "@/lib/chain/networks";
import { type ChainReader, chainReaderFor } from "@/lib/chain/reader";
import { AppError } from "@/lib/errors";

export interface PayMetadata {
  stepsRequired: number;
  needsApproval: boolean;
  approvalTransactionIndex: number | null;
  paymentTransactionIndex: number;
  hasEnoughBalance: boolean;
  hasEnoughGas: boolean;
  /** Conversion payments only: the rate the calldata was built with and whether it is still usable. */
  conversion?: ConversionMetadata;
}

export interface ConversionMetadata {
  invoiceCurrency: string;
  /** What the proxy is asked to pay, in the invoice currency (the path's 8 decimals, shown as a decimal). */
  requestAmount: string;
  feeAmount: string;
  paymentCurrency: string;
  /** Conversion path given to the proxy: currency hashes and the token address. */
  path: string[];
  /** Payment-currency units per invoice-currency unit, as read from ChainlinkConversionPath. */
  rate: string;
  rateSource: "chainlink";
  /** Update time of the oldest feed of the path, and its age at the latest block. */
  rateUpdatedAt: string;
  rateAgeSeconds: number;
  maxRateTimespan: number;
  /** After this the proxy reverts "aggregator rate is outdated" (unless the feeds update). */
  rateExpiresAt: string;
  rateIsStale: boolean;
  /** Token amounts at this rate: the payment, its fee, and maxToSpend (their sum + 1 %). */
  convertedAmount: string;
  convertedFeeAmount: string;
  maxToSpend: string;
  /** Why the payment would fail as built (a stale rate), or null. */
  warning: string | null;
  /** A quoted conversion (Tron, lib/payments/quoted-conversion.ts): the network the rate was read on, and the quote. */
  rateNetwork?: string;
  quote?: { id: string; rate: string; amountIn: string; feeAmountIn: string; expiresAt: string; graceSeconds: number };
}

export interface PaymentPlan {
  transactions: UnsignedTx[];
  metadata: PayMetadata;
}

/**
 * A partly paid request owes the rest of its amount and the same share of its fee: the fee is
 * paid in proportion to what is still owed (rounded down, as the contract's integer maths).
 */
export function feeForRemaining(fee: bigint, remaining: bigint, expected: bigint): bigint {
  return expected === 0n ? 0n : (fee * remaining) / expected;
}

export const TRON_BATCH_MESSAGE = "Batch payments are not supported for TRON networks. Please submit individual payment requests.";

/** Batches run on the EVM batch contract only: a Tron batch (more than one item) is a 400 with the reference's message. */
export function assertNotTronBatch(network: NetworkId, items: number): void {
  if (NETWORKS[network].kind !== "evm" && items > 1) throw new AppError("tron_batch_unsupported", TRON_BATCH_MESSAGE);
}

/** Gas a plan's transactions need at most: approvals ~60k, a fee-proxy payment ~100k, a batch ~100k per item. */
const GAS_PER_APPROVAL = 60_000n;
export const GAS_PER_PAYMENT = 120_000n;

interface Funding {
  /** The network's runtime, resolved once by the caller's terms. */
  runtime: NetworkRuntime;
  token: string;
  /** Contract that pulls the tokens (fee proxy or batch contract). */
  spender: string;
  total: bigint;
  wallet: string | undefined;
  approveResetRequired: boolean;
  paymentGas: bigint;
}

/** approve(total) when `allowance` is short, preceded by approve(0) for USDT-style tokens holding another non-zero allowance. */
export function approvalsToReach(
  chain: "evm" | "tron",
  token: string,
  spender: string,
  allowance: bigint,
  total: bigint,
  approveResetRequired: boolean,
): UnsignedTx[] {
  if (allowance >= total) return [];
  return [
    ...(allowance > 0n && approveResetRequired ? [approveTx(chain, token, spender, 0n)] : []),
    approveTx(chain, token, spender, total),
  ];
}

/**
 * The approvals a payer needs before the payment: none when the allowance already covers
 * the total, otherwise approve(total) — preceded by approve(0) for USDT-style tokens that
 * revert when changing one non-zero allowance to another. Without a wallet or an RPC to
 * read (Tron here), an approval is always included.
 */
export async function approvalsFor(f: Funding): Promise<{ approvals: UnsignedTx[]; hasEnoughBalance: boolean; hasEnoughGas: boolean }> {
  return fundingFor(f.runtime, f.wallet, [f]);
}

/**
 * approvalsFor over several pulls of one transaction list (a batch's tokens through the batch
 * contract and its fee-only legs through the fee proxy): the approvals of each (token, spender),
 * and whether the wallet holds, per token, the sum every spender pulls of it, and the gas of all.
 */
export async function fundingFor(
  runtime: NetworkRuntime,
  wallet: string | undefined,
  pulls: readonly Omit<Funding, "runtime" | "wallet">[],
  reader: ChainReader | null = wallet ? chainReaderFor(runtime) : null,
): Promise<{ approvals: UnsignedTx[]; hasEnoughBalance: boolean; hasEnoughGas: boolean }> {
  const chain = runtime.network.kind;
  if (!reader || !wallet)
    return { approvals: pulls.map((f) => approveTx(chain, f.token, f.spender, f.total)), hasEnoughBalance: true, hasEnoughGas: true };
  const tokens = [...new Set(pulls.map((f) => f.token))];
  const [allowances, balances, native, gasPrice] = await Promise.all([
    Promise.all(pulls.map((f) => reader.allowance(f.token, wallet, f.spender))),
    Promise.all(tokens.map((t) => reader.balanceOf(t, wallet))),
    reader.nativeBalance(wallet),
    reader.gasPrice(),
  ]);
  const approvals = pulls.flatMap((f, i) => approvalsToReach(chain, f.token, f.spender, allowances[i]!, f.total, f.approveResetRequired));
  const gas = pulls.reduce((g, f) => g + f.paymentGas, BigInt(approvals.length) * GAS_PER_APPROVAL);
  const hasEnoughBalance = tokens.every((t, i) => balances[i]! >= pulls.filter((f) => f.token === t).reduce((sum, f) => sum + f.total, 0n));
  return { approvals, hasEnoughBalance, hasEnoughGas: native >= gas * gasPrice };
}

/** Approvals, then the payment, then fee-only transfers to a fee plan's further addresses (`feeLegs`, after the payment). */
export function assemble(
  approvals: UnsignedTx[],
  payment: UnsignedTx,
  balance: { hasEnoughBalance: boolean; hasEnoughGas: boolean },
  feeLegs: UnsignedTx[] = [],
): PaymentPlan {
  const transactions = [...approvals, payment, ...feeLegs];
  return {
    transactions,
    metadata: {
      stepsRequired: transactions.length,
      needsApproval: approvals.length > 0,
      approvalTransactionIndex: approvals.length > 0 ? approvals.length - 1 : null,
      paymentTransactionIndex: approvals.length,
      hasEnoughBalance: balance.hasEnoughBalance,
      hasEnoughGas: balance.hasEnoughGas,
    },
  };
}

export interface SinglePayment {
  /** The network's runtime (fee proxy, chain kind, RPC), resolved once by the caller's terms. */
  runtime: NetworkRuntime;
  tokenAddress: string;
  payee: string;
  amount: bigint;
  feeAmount: bigint;
  feeAddress: string | null;
  paymentReference: `0x${string}`;
  approveResetRequired: boolean;
  /**
   * Fee legs to other addresses than feeAddress (a fee plan with several destinations): each is a
   * fee-only transfer through the fee proxy after the payment (amount 0, same payee and reference).
   */
  extraFeeLegs?: readonly { address: string; amount: bigint }[];
}

/** A fee-only fee-proxy transfer: nothing to the payee, `amount` to `address`, under the request's reference. */
export function feeLegTx(
  kind: "evm" | "tron",
  proxy: string,
  p: Pick<SinglePayment, "tokenAddress" | "payee" | "paymentReference">,
  leg: { address: string; amount: bigint },
) {
  return feeProxyPayTx(kind, {
    proxy,
    token: p.tokenAddress,
    to: p.payee,
    amount: 0n,
    paymentReference: p.paymentReference,
    feeAmount: leg.amount,
    feeAddress: leg.address,
  });
}

/** Same-chain payment through the network's ERC20FeeProxy (plus a fee-only transfer per further fee leg). */
export async function planSinglePayment(p: SinglePayment, wallet: string | undefined): Promise<PaymentPlan> {
  const rt = p.runtime;
  const proxy = rt.contracts.erc20FeeProxy;
  const extra = p.extraFeeLegs ?? [];
  const funding = await approvalsFor({
    runtime: rt,
    token: p.tokenAddress,
    spender: proxy,
    total: p.amount + p.feeAmount + extra.reduce((a, l) => a + l.amount, 0n),
    wallet,
    approveResetRequired: p.approveResetRequired,
    paymentGas: GAS_PER_PAYMENT * BigInt(1 + extra.length),
  });
  const payment = feeProxyPayTx(rt.network.kind, {
    proxy,
    token: p.tokenAddress,
    to: p.payee,
    amount: p.amount,
    paymentReference: p.paymentReference,
    feeAmount: p.feeAmount,
    feeAddress: p.feeAddress,
  });
  const legs = extra.map((leg) => feeLegTx(rt.network.kind, proxy, p, leg));
  return assemble(funding.approvals, payment, funding, legs);
}

export interface BatchPlan {
  approvals: UnsignedTx[];
  batch: UnsignedTx;
  /** Fee-only transfers through the fee proxy after the batch (fee legs to addresses other than the batch's fee address). */
  feeLegs: UnsignedTx[];
  metadata: PayMetadata;
}

/** A fee leg the batch cannot carry (the batch contract sends every fee to its one fee address). */
export interface BatchFeeLeg {
  token: string;
  to: string;
  paymentReference: `0x${string}`;
  address: string;
  amount: bigint;
  approveResetRequired: boolean;
}

/**
 * EVM batch through BatchConversionPayments: the payer approves the batch contract for each
 * token's total (plus the contract's batch fee), then one batchPayments call pays everyone.
 */
export async function planBatchPayment(
  rt: NetworkRuntime,
  items: readonly (BatchItem & { approveResetRequired: boolean })[],
  feeAddress: string | null,
  wallet: string | undefined,
  extraFeeLegs: readonly BatchFeeLeg[] = [],
): Promise<BatchPlan> {
  assertNotTronBatch(rt.network.id, items.length);
  const batchContract = rt.contracts.batchPayments;
  const reader = chainReaderFor(rt);
  const batchFeeBps = reader ? await reader.batchFeeBps(batchContract) : 0n;
  const totals = new Map<string, { total: bigint; reset: boolean }>();
  for (const i of items) {
    const prev = totals.get(i.token) ?? { total: 0n, reset: i.approveResetRequired };
    totals.set(i.token, { total: prev.total + i.amount + i.feeAmount, reset: prev.reset });
  }
  // Further fee legs go through the fee proxy, which needs its own allowance; the balance must cover both.
  const proxy = rt.contracts.erc20FeeProxy;
  const legTotals = new Map<string, { total: bigint; reset: boolean }>();
  for (const l of extraFeeLegs) {
    const prev = legTotals.get(l.token) ?? { total: 0n, reset: l.approveResetRequired };
    legTotals.set(l.token, { total: prev.total + l.amount, reset: prev.reset });
  }
  const { approvals, hasEnoughBalance, hasEnoughGas } = await fundingFor(
    rt,
    wallet,
    [
      // The batch's gas counted once, with its first token.
      ...[...totals].map(([token, { total, reset }], i) => ({
        token,
        spender: batchContract,
        total: total + (total * batchFeeBps) / 10_000n,
        approveResetRequired: reset,
        paymentGas: i === 0 ? GAS_PER_PAYMENT * BigInt(items.length) : 0n,
      })),
      ...[...legTotals].map(([token, { total, reset }]) => ({
        token,
        spender: proxy,
        total,
        approveResetRequired: reset,
        paymentGas: GAS_PER_PAYMENT * BigInt(extraFeeLegs.length),
      })),
    ],
    wallet ? reader : null,
  );
  const batch = batchPayTx(batchContract, items, feeAddress);
  const feeLegs = extraFeeLegs.map((l) =>
    feeLegTx(rt.network.kind, proxy, { tokenAddress: l.token, payee: l.to, paymentReference: l.paymentReference }, l),
  );
  const plan = assemble(approvals, batch, { hasEnoughBalance, hasEnoughGas }, feeLegs);
  return { approvals, batch, feeLegs, metadata: plan.metadata };
}
