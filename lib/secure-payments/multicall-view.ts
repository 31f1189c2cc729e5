import type { UnsignedTx } from "@/lib/chain/calldata";
import { type NetworkRuntime, networkRuntime } from "@/lib/chain/config";
import { isNetworkId } from "@/lib/chain/networks";
import { findTokenCurrency } from "@/lib/currencies/registry";
import { notFound } from "@/lib/errors";
import { formatAmount } from "@/lib/money";
import { owedAmountOf } from "@/lib/payments/fee-legs";
import { linkStatus } from "@/lib/payments/link-status";
import type { PayMetadata } from "@/lib/payments/plan";
import { type ChildRow, childBlockReason, childContext, type LoadedMulticall, loadMulticall } from "@/lib/secure-payments/multicall";
import type { PaymentPageData } from "@/lib/secure-payments/page-types";
import { referenceBranding, referenceMetadata } from "@/lib/secure-payments/public-view";

/**
 * The reference's `multicall` shapes: the parent's view (`GET /v2/secure-payments/{token}` and
 * `GET /v2/secure-payments/multicall-payouts/{token}`) and its pay plan (`GET /{token}/pay`).
 * A parent is `partially_settled` while some, not all, of its children are completed.
 */
const units = (d: { toFixed(): string }) => BigInt(d.toFixed());

function decimalsOf(c: ChildRow): number {
  return (c.currency ? findTokenCurrency(c.currency)?.token.decimals : undefined) ?? 6;
}

function parentStatus(m: LoadedMulticall): "pending" | "expired" | "completed" | "partially_settled" {
  const status = linkStatus(
    m.parent,
    m.children.flatMap((c) => c.requests.map((r) => r.request)),
  );
  if (status === "completed") return "completed";
  if (status === "expired") return "expired";
  const done = m.children.filter((c) => c.status === "completed").length;
  return done > 0 && done < m.children.length ? "partially_settled" : "pending";
}

export function multicallView(m: LoadedMulticall, checkout?: PaymentPageData | null) {
  const { parent } = m;
  const children = m.children.map((c, position) => {
    const reason = childBlockReason(c);
    const request = c.requests[0]?.request;
    return {
      securePaymentToken: c.token,
      requestId: request?.id ?? "",
      position,
      executable: reason === null,
      blockReason: reason,
      messageKey: reason ? `secure_payment.multicall.${reason}` : null,
      context: childContext(c, position),
      recoveryAction: reason && reason !== "already_paid" ? ("remove_child" as const) : null,
      feePlan: (c.feePlan as Record<string, unknown> | null) ?? null,
      amount: request ? formatAmount(units(request.expectedAmount), decimalsOf(c)) : null,
      payee: request?.payee ?? null,
      reference: c.reference,
    };
  });
  const byCurrency = new Map<string, { network: string; currency: string; total: bigint; decimals: number }>();
  let gross = 0n;
  let fees = 0n;
  for (const c of m.children) {
    const request = c.requests[0]?.request;
    if (!request) continue;
    const key = `${c.network}:${c.currency}`;
    const entry = byCurrency.get(key) ?? { network: c.network, currency: c.currency ?? "", total: 0n, decimals: decimalsOf(c) };
    entry.total += units(request.expectedAmount);
    byCurrency.set(key, entry);
    gross += units(request.expectedAmount);
    fees += units(request.feeAmount);
  }
  const decimals = m.children[0] ? decimalsOf(m.children[0]) : 6;
  const fmt = (v: bigint) => formatAmount(v, decimals);
  const status = parentStatus(m);
  return {
    paymentType: "multicall" as const,
    status,
    redirectUrl: parent.redirectUrl,
    redirectLabel: parent.redirectLabel,
    orchestratorId: parent.orchestratorId,
    branding: referenceBranding(parent),
    analytics: {
      creationTimestamp: parent.createdAt.toISOString(),
      numberOfPaymentsExcludingFees: children.length,
      destinationIds: [],
    },
    requestIds: children.map((c) => c.requestId),
    token: parent.token,
    network: parent.network,
    canExecute: (status === "pending" || status === "partially_settled") && children.some((c) => c.executable),
    expiresAt: parent.expiresAt.toISOString(),
    createdAt: parent.createdAt.toISOString(),
    children,
    totals: {
      childCount: children.length,
      blockedChildCount: children.filter((c) => !c.executable).length,
      byDestinationCurrency: [...byCurrency.values()].map((e) => ({
        network: e.network,
        currency: e.currency,
        totalAmount: formatAmount(e.total, e.decimals),
      })),
      amountSummary: {
        grossAmount: fmt(gross),
        netRecipientAmount: fmt(gross),
        totalFees: fmt(fees),
        payeeBorneFees: "0",
        payerBorneFees: fmt(fees),
        payerTotal: fmt(gross + fees),
      },
    },
    ...(checkout ? { checkout } : {}),
  };
}

/** `GET /v2/secure-payments/multicall-payouts/{token}`: the owner's view of a multicall parent (another account's: 404). */
export async function getMulticallForAccount(accountId: string, token: string) {
  const m = await loadMulticall(token);
  if (!m || m.parent.accountId !== accountId) throw notFound("Multicall payout not found");
  return multicallView(m);
}

type Plan = { transactions: UnsignedTx[]; metadata: PayMetadata };

/** The reference's multicall pay plan around the batch plan of the parent's executable children. */
export function multicallPayAnswer(
  m: LoadedMulticall,
  plan: Plan,
  rt: NetworkRuntime | null = isNetworkId(m.parent.network) ? networkRuntime(m.parent.network) : null,
) {
  const executable = m.children.filter((c) => childBlockReason(c) === null);
  const children = executable.map((c) => {
    const request = c.requests[0]!.request;
    return {
      position: m.children.indexOf(c),
      securePaymentToken: c.token,
      requestId: request.id,
      payee: request.payee,
      // What the batch sends this payee: the rest of its amount (0 when only its fee came short, even over-paid).
      amount: formatAmount(owedAmountOf(units(request.expectedAmount), units(request.amountPaid)), decimalsOf(c)),
      paymentCurrency: c.currency ?? "",
      paymentReference: request.paymentReference,
      paymentCurrencyAddress: request.tokenAddress,
      sourceTokenAddress: null,
      tokenAddress: request.tokenAddress,
      network: c.network,
    };
  });
  const pay = plan.metadata.paymentTransactionIndex;
  return {
    paymentType: "multicall" as const,
    transactions: plan.transactions,
    feeBundle: null,
    eoaApprovalTransactions: [] as UnsignedTx[],
    executionKind: "evm_same_chain" as const,
    token: m.parent.token,
    network: m.parent.network,
    ...(rt ? { chainId: rt.network.chainId } : {}),
    childTokens: m.children.map((c) => c.token),
    requestIds: children.map((c) => c.requestId),
    children,
    payees: children.map((c) => c.payee),
    amounts: children.map((c) => c.amount),
    references: executable.map((c) => c.reference),
    ERC20ApprovalTransactions: plan.transactions.slice(0, pay),
    batchPaymentTransaction: plan.transactions[pay],
    metadata: { ...referenceMetadata(plan.metadata), childCount: m.children.length, executableLegCount: children.length },
  };
}
