import type { UnsignedTx } from "@/lib/chain/calldata";
import { networkRuntime } from "@/lib/chain/config";
import { isNetworkId } from "@/lib/chain/networks";
import { toInteropName } from "@/lib/destinations/erc7828";
import type { PaymentRequest, SecurePayment } from "@/lib/generated/prisma/client";
import { type AccessPolicy, payeeMasked } from "@/lib/kyt/screen";
import { formatAmount } from "@/lib/money";
import type { BrandingSnapshot } from "@/lib/orchestrators/linked-creator";
import type { PayMetadata } from "@/lib/payments/plan";
import type { PaymentPageData } from "@/lib/secure-payments/page-types";

/**
 * The reference's public shapes of a link: `GET /v2/secure-payments/{token}` (single and batch
 * variants) and `GET /{token}/pay` (paymentType, feeBundle, eoaApprovalTransactions, metadata
 * with paymentTransactionIndex and approvalTransactionsCount), so a client written for the
 * reference reads Duebill's answers unchanged. Duebill's own view of the link (what the hosted
 * checkout renders: merchant, line items, network details, cross-chain sources …) rides along
 * as `checkout`, a field the reference does not have.
 */
type Link = Pick<
  SecurePayment,
  | "token"
  | "paymentType"
  | "redirectUrl"
  | "redirectLabel"
  | "orchestratorId"
  | "clientId"
  | "branding"
  | "reference"
  | "feePlan"
  | "destination"
  | "accessPolicy"
  | "createdAt"
  | "network"
  | "excessPolicy"
>;

const units = (d: { toFixed(): string }) => BigInt(d.toFixed());
const mask = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;

/** The reference's branding object ({id, logoPath, primaryActionColor, …}) from the link's snapshot; null: Duebill's own look. */
export function referenceBranding(sp: Pick<Link, "branding" | "token" | "clientId" | "orchestratorId">) {
  const b = sp.branding as Partial<BrandingSnapshot> | null;
  if (!b?.displayName) return null;
  return {
    // Snapshots taken before the id was recorded name the link instead: stable, and never another brand's.
    id: b.id ?? `branding_${sp.token}`,
    ...(sp.clientId ? { clientIdId: sp.clientId } : {}),
    ...(sp.orchestratorId ? { orchestratorId: sp.orchestratorId } : {}),
    ...(b.logoUrl ? { logoPath: b.logoUrl } : {}),
    ...(b.accentColor ? { primaryActionColor: b.accentColor } : {}),
    displayRequestBranding: false,
    // Duebill extension: the name the page shows.
    displayName: b.displayName,
  };
}

/** A request's destination in the reference's shape; address fields masked (and the id left out) when the policy hides the payee. */
function destinationOf(sp: Link, r: PaymentRequest, masked: boolean) {
  const stored = sp.destination as { destinationId?: string; payeeAddress?: string } | null;
  const chainId = isNetworkId(r.network) ? networkRuntime(r.network).network.chainId : 0;
  const interop = r.network === "tron" ? r.payee : toInteropName(r.payee, chainId);
  const hide = (s: string) => (masked ? mask(s) : s);
  return {
    ...(stored?.destinationId && !masked ? { destinationId: stored.destinationId } : {}),
    payeeAddress: hide(stored?.payeeAddress ?? interop),
    tokenAddress: r.tokenAddress,
    walletAddress: hide(r.payee),
    network: r.network,
    isMasked: masked,
  };
}

export function publicLinkView(sp: Link, requests: PaymentRequest[], page: PaymentPageData, decimals: number) {
  const masked = payeeMasked(sp.accessPolicy as AccessPolicy | null);
  const destinationId = (sp.destination as { destinationId?: string } | null)?.destinationId;
  const common = {
    status: page.status,
    redirectUrl: sp.redirectUrl,
    redirectLabel: sp.redirectLabel,
    orchestratorId: sp.orchestratorId,
    branding: referenceBranding(sp),
    analytics: {
      creationTimestamp: sp.createdAt.toISOString(),
      numberOfPaymentsExcludingFees: requests.length,
      destinationIds: destinationId && !masked ? [destinationId] : [],
    },
    requestIds: requests.map((r) => r.id),
    network: sp.network,
    reference: sp.reference,
    isPayeeAddressMasked: masked,
    feePlan: (sp.feePlan as Record<string, unknown> | null) ?? null,
    // A payment came without its whole fee: the link stays pending (its request partially_paid) until the fee is paid.
    subStatus: page.subStatus,
    missingFees: page.missingFees,
    // Duebill extension: how it was paid (over, under, late…) and what happens to money it did not ask for.
    amountLabel: page.amountLabel,
    excessAmount: page.excessAmount,
    returnedAmount: page.returnedAmount,
    excessPolicy: sp.excessPolicy,
    effectiveExcessPolicy: page.effectiveExcessPolicy,
  };
  const amountOf = (r: PaymentRequest) => formatAmount(units(r.expectedAmount), decimals);
  const payeeOf = (r: PaymentRequest) => (masked ? mask(r.payee) : r.payee);
  const shape =
    sp.paymentType === "batch"
      ? {
          paymentType: "batch" as const,
          ...common,
          payees: requests.map(payeeOf),
          amounts: requests.map(amountOf),
          paymentCurrencies: requests.map(() => page.currency.id),
          isNativeCurrency: requests.map(() => false),
          destinations: requests.map((r) => destinationOf(sp, r, masked)),
        }
      : {
          paymentType: "single" as const,
          ...common,
          payee: requests[0] ? payeeOf(requests[0]) : "",
          amount: requests[0] ? amountOf(requests[0]) : "0",
          paymentCurrency: page.currency.id,
          // Links are paid in tokens (ERC-20 / TRC-20), never in a chain's native currency.
          isNativeCurrency: false,
          destination: requests[0] ? destinationOf(sp, requests[0], masked) : null,
        };
  return { ...shape, checkout: page };
}

/** The reference's feeBundle: the link's fee plan in token amounts (fee plans apply to dollar-pegged tokens only: 1 token = 1 USD). */
export function feeBundleOf(sp: Pick<SecurePayment, "feePlan">) {
  const plan = sp.feePlan as Record<string, string> | null;
  if (!plan?.grossAmountUsd) return null;
  return {
    bundleId: null,
    defaultFeeBearer: (plan.defaultFeeBearer as "payer" | "payee" | undefined) ?? null,
    amountSummary: {
      grossAmount: plan.grossAmountUsd,
      netRecipientAmount: plan.netRecipientAmountUsd ?? plan.grossAmountUsd,
      totalFees: plan.totalFeesUsd ?? "0",
      payeeBorneFees: plan.payeeBorneFeesUsd ?? "0",
      payerBorneFees: plan.payerBorneFeesUsd ?? "0",
      payerTotal: plan.payerTotalAmountUsd ?? plan.grossAmountUsd,
    },
    // Fees are paid inside the payment transaction (the fee proxy's fee leg); a plan with several fee addresses
    // adds fee-only calls after the payment in `transactions`, not here.
    fees: [],
  };
}

/** A plan's metadata as the reference types it: indexes are numbers, so an absent approval leaves its index out. */
type IndexMetadata = Pick<PayMetadata, "approvalTransactionIndex" | "paymentTransactionIndex" | "needsApproval">;

export function referenceMetadata<M extends IndexMetadata>(metadata: M) {
  const { approvalTransactionIndex, ...rest } = metadata;
  return {
    ...rest,
    ...(approvalTransactionIndex === null ? {} : { approvalTransactionIndex }),
    // Approvals precede the payment (a cross-chain plan always lists its approval, sent only when needed).
    approvalTransactionsCount: metadata.needsApproval ? metadata.paymentTransactionIndex : 0,
  };
}

/** `GET /{token}/pay` in the reference's shape: the same transactions, with paymentType, feeBundle and its metadata fields. */
export function referencePayAnswer<T extends { transactions: unknown[]; metadata: IndexMetadata }>(
  sp: Pick<SecurePayment, "feePlan" | "paymentType">,
  plan: T,
) {
  const metadata = referenceMetadata(plan.metadata);
  const base = { ...plan, feeBundle: feeBundleOf(sp), eoaApprovalTransactions: [] as UnsignedTx[], metadata };
  if (sp.paymentType !== "batch") return { paymentType: "single" as const, ...base };
  const approvals = plan.transactions.slice(0, plan.metadata.paymentTransactionIndex);
  return {
    paymentType: "batch" as const,
    ...base,
    ERC20ApprovalTransactions: approvals,
    batchPaymentTransaction: plan.transactions[plan.metadata.paymentTransactionIndex],
  };
}
