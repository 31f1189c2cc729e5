import { sameAddress } from "@/lib/chain/address";
import { networkRuntime } from "@/lib/chain/config";
import { isNetworkId } from "@/lib/chain/networks";
import { isLocalChain } from "@/lib/chain/stored";
import { TOKENS } from "@/lib/chain/tokens";
import { findTokenCurrency } from "@/lib/currencies/registry";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import type { ExcessPolicy, PaymentRequest, SecurePayment } from "@/lib/generated/prisma/client";
import { lineTaxUnits } from "@/lib/invoices/compute";
import { invoiceViewForLink } from "@/lib/invoices/view";
import { type AccessPolicy, payeeMasked } from "@/lib/kyt/screen";
import { formatAmount } from "@/lib/money";
import { missingFeesOf } from "@/lib/payments/fee-legs";
import { linkStatus } from "@/lib/payments/link-status";
import { receiptPageOf } from "@/lib/receipts/page";
import { linkWrongAmountOf } from "@/lib/refunds/labels";
import { crossChainPayableRefusal, crossChainSourcesFor, crossChainTermsOf, type payCrossChain } from "@/lib/requests/pay-crosschain";
import { type DueLeg, dueOf, dueTotal } from "@/lib/secure-payments/due";
import { linkDepositUnavailable, linkExcessPolicy } from "@/lib/secure-payments/excess";
import { brandOf } from "@/lib/secure-payments/get-secure-payment";
import { childBlockReason, type LoadedMulticall, multicallChildrenOf } from "@/lib/secure-payments/multicall";
import type { CrossChainSource, PaymentPageData, PaymentPageItem, SecurePaymentStatus } from "@/lib/secure-payments/page-types";

/**
 * The hosted page's view of a link, by token (the token is the capability: no credentials).
 * A pending link past its expiry already shows as expired, before the sweep records it.
 */
const TOKEN = /^[0-9A-Z]{26}$/;

/** An account named after its wallet (wallet sign-in names new accounts so) has no name to show a payer. */
const ADDRESS_LIKE = /^(0x[0-9a-fA-F]{40}|T[1-9A-HJ-NP-Za-km-z]{33})$/;

/** Who the payer deals with: the orchestrator's branding of a linked platform's link, else the account's name. */
function merchantOf(sp: LinkRow): PaymentPageData["merchant"] {
  const brand = brandOf(sp);
  if (brand) return { name: brand.displayName, logoUrl: brand.logoUrl, accentColor: brand.accentColor, supportUrl: brand.supportUrl };
  const name = sp.account.name.trim();
  const logoUrl = sp.account.logoUrl?.startsWith("https://") ? sp.account.logoUrl : null;
  return name && !ADDRESS_LIKE.test(name) ? { name, logoUrl, accentColor: null, supportUrl: null } : null;
}

export type LinkRow = SecurePayment & { account: { name: string; logoUrl: string | null; excessPolicy: ExcessPolicy } };

/**
 * The stored line items ({description, quantity, unitAmount, taxRate?}), with each line's tax and total
 * for display: tax = quantity × unitAmount × taxRate / 100 rounded half up (lib/invoices/compute.ts).
 */
function lineItemsOf(value: unknown, decimals: number): PaymentPageData["lineItems"] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v: { description?: unknown; quantity?: unknown; unitAmount?: unknown; taxRate?: unknown }) => {
    if (typeof v?.description !== "string" || typeof v.unitAmount !== "string" || typeof v.quantity !== "number") return [];
    const net = parseUnitsSafe(v.unitAmount, decimals) * BigInt(v.quantity);
    const taxRate = typeof v.taxRate === "string" ? v.taxRate : null;
    const tax = taxRate === null ? 0n : lineTaxUnits(net, taxRate);
    return [
      {
        description: v.description,
        quantity: v.quantity,
        unitAmount: v.unitAmount,
        taxRate,
        tax: formatAmount(tax, decimals),
        total: formatAmount(net + tax, decimals),
      },
    ];
  });
}

function parseUnitsSafe(amount: string, decimals: number): bigint {
  const [whole = "0", frac = ""] = amount.split(".");
  return BigInt(whole + frac.padEnd(decimals, "0").slice(0, decimals));
}

/**
 * A link and its requests, in order. A multicall parent holds no requests of its own: its
 * requests are those of its children that can still be paid, or are paid (`multicall` has them all).
 */
export interface LoadedLink {
  sp: LinkRow;
  requests: PaymentRequest[];
  multicall?: LoadedMulticall;
  /** The link's status now (linkStatus: expiry applied, a paid link never expired). */
  status: SecurePaymentStatus;
}

export async function loadLink(token: string): Promise<LoadedLink | null> {
  if (!TOKEN.test(token)) return null;
  const sp = await db().securePayment.findUnique({
    where: { token },
    include: { requests: { orderBy: { position: "asc" } }, account: { select: { name: true, logoUrl: true, excessPolicy: true } } },
  });
  if (!sp) return null;
  if (sp.paymentType === "multicall") {
    // The parent row is loaded already: only its children are read.
    const multicall = { parent: sp, children: await multicallChildrenOf(token) };
    const shown = multicall.children.filter((c) => childBlockReason(c) === null || c.status === "completed");
    const every = multicall.children.flatMap((c) => c.requests.map((r) => r.request));
    return { sp, requests: shown.flatMap((c) => c.requests.map((r) => r.request)), multicall, status: linkStatus(sp, every) };
  }
  const requests = await db().paymentRequest.findMany({ where: { id: { in: sp.requests.map((r) => r.requestId) } } });
  const order = new Map(sp.requests.map((r) => [r.requestId, r.position]));
  requests.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return { sp, requests, status: linkStatus(sp, requests) };
}

const mask = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;
const units = (d: { toFixed(): string }) => BigInt(d.toFixed());

export async function getPaymentPage(token: string): Promise<PaymentPageData | null> {
  const link = await loadLink(token);
  return link ? pageDataOf(link) : null;
}

/** The page's view of a loaded link; null when its network or currency is no longer configured. */
export async function pageDataOf(link: LoadedLink): Promise<PaymentPageData | null> {
  if (!isNetworkId(link.sp.network)) return null;
  const { sp, requests } = link;
  const rt = networkRuntime(link.sp.network);
  const currency = sp.currency ? findTokenCurrency(sp.currency) : undefined;
  if (!currency) return null;
  const decimals = currency.token.decimals;
  // What the next transaction pays (the pay plan reads the same legs), not what the link once asked.
  // One computation (due.ts, from the fee rule): the rest of each request's amount and of each of its fee legs.
  const { legs: due, progress } = await dueOf(requests);
  const { total, fees } = dueTotal(due);
  const dueBy = new Map(due.map((l) => [l.request.id, l]));
  const paid = requests.reduce((s, r) => s + units(r.amountPaid), 0n);
  const fullFees = requests.reduce((s, r) => s + units(r.feeAmount), 0n);
  const fullAmount = requests.reduce((s, r) => s + units(r.expectedAmount), 0n) + fullFees;
  const policy = (sp.accessPolicy as AccessPolicy | null) ?? null;
  const masked = payeeMasked(policy);
  const show = (a: string) => (masked ? mask(a) : a);
  const payee = due[0]?.request.payee ?? requests[0]?.payee ?? "";
  const item = (r: PaymentRequest, state: PaymentPageItem["state"]): PaymentPageItem => ({
    requestId: r.id,
    paymentReference: r.paymentReference,
    amount: formatAmount(units(r.expectedAmount), decimals),
    payee: show(r.payee),
    state,
    due: formatAmount(dueBy.get(r.id)?.amount ?? 0n, decimals),
    dueFee: formatAmount(dueBy.get(r.id)?.fee ?? 0n, decimals),
    feeShort: progress.get(r.id)?.subStatus === "fee_short",
  });
  const included = new Set(requests.map((r) => r.id));
  // A multicall lists every child, those the transaction leaves out (expired, screened out …) as excluded.
  const all = link.multicall ? link.multicall.children.flatMap((c) => c.requests.map((x) => x.request)) : requests;
  const items = all.map((r) => item(r, !included.has(r.id) ? "excluded" : dueBy.has(r.id) ? "due" : "paid"));
  const last = await db().payment.findFirst({ where: { requestId: { in: requests.map((r) => r.id) } }, orderBy: { blockNumber: "desc" } });
  // Each fee leg below its share of what was paid (the fee rule's fee_short), of the requests still open.
  const missingFees = requests.filter((r) => progress.has(r.id)).flatMap((r) => missingFeesOf(r, progress.get(r.id)!));
  const [wrong, excess] = await Promise.all([linkWrongAmountOf(requests), linkExcessPolicy(sp, sp.account.excessPolicy, requests)]);
  return {
    token: sp.token,
    status: link.status,
    direction: sp.direction === "outgoing" ? "outgoing" : "incoming",
    paymentType: sp.paymentType === "single" ? "single" : "batch",
    network: {
      id: rt.network.id,
      name: rt.network.name,
      chainId: rt.network.chainId,
      kind: rt.network.kind,
      // Only where an explorer knows the chain (lib/chain/explorer.ts): the devnet's transactions link nowhere.
      explorerTxUrl: rt.explorerTxUrl ?? "",
      testnet: rt.network.testnet,
    },
    rpcUrl: isLocalChain(rt.network.id) ? rt.rpcUrl : null,
    currency: {
      id: currency.id,
      symbol: currency.token.symbol,
      decimals,
      address: currency.token.address,
      // The network's official token (docs/spec/chain-data.md), not a configured stand-in such as a devnet's.
      official: TOKENS.some(
        (t) => t.network === rt.network.id && t.symbol === currency.token.symbol && sameAddress(t.address, currency.token.address),
      ),
    },
    totalAmount: formatAmount(total, decimals),
    payerFees: formatAmount(fees, decimals),
    fullAmount: formatAmount(fullAmount, decimals),
    fullFees: formatAmount(fullFees, decimals),
    paidAmount: formatAmount(paid, decimals),
    // The same sum as totalAmount (the fee branch's name for it): after a short fee, that fee alone.
    amountDue: formatAmount(total, decimals),
    subStatus: missingFees.length > 0 ? "fee_short" : null,
    missingFees,
    items,
    payee: { display: show(payee), masked },
    recipients: [...new Set(due.filter((l) => l.amount > 0n).map((l) => show(l.request.payee)))],
    feeRecipients: [
      ...new Set(
        due.flatMap((l) => [...(l.feeAmount > 0n && l.feeAddress ? [l.feeAddress] : []), ...l.extraFeeLegs.map((x) => x.address)]),
      ),
    ],
    reference: sp.reference,
    expiresAt: sp.expiresAt.toISOString(),
    completedAt: sp.completedAt?.toISOString() ?? null,
    redirectUrl: sp.redirectUrl,
    redirectLabel: sp.redirectLabel,
    payerAddress: sp.payerAddress,
    txHash: last?.txHash ?? null,
    receiptUrl: link.status === "completed" && last ? await receiptPageOf(last.id) : null,
    branding: brandOf(sp),
    merchant: merchantOf(sp),
    description: sp.description,
    lineItems: lineItemsOf(sp.lineItems, decimals),
    invoice: await invoiceViewForLink(sp.token),
    // Only while this server sends email (SMTP_URL): a link made before mail was switched off promises nothing.
    collectPayerEmail: sp.collectPayerEmail && sp.direction === "incoming" && Boolean(env().SMTP_URL),
    payerEmailGiven: sp.payerEmail !== null,
    payByTransfer: linkDepositUnavailable(sp, requests) === null,
    // Offered only where the pay plan would make one (crossChainPayableRefusal).
    crossChainSources: due.some((p) => crossChainPayableRefusal(p)) ? [] : crossChainSourcesOfLink(sp, requests, due),
    amountLabel: wrong.amountLabel,
    excessAmount: formatAmount(wrong.excess, decimals),
    returnedAmount: formatAmount(wrong.returned, decimals),
    effectiveExcessPolicy: excess.effective,
    returnsToSender:
      excess.effective === "return" &&
      (await db().depositAddress.count({
        where: { requestId: { in: requests.map((r) => r.id) }, depositors: { isEmpty: false }, autoReturnBlocked: null },
      })) > 0,
  };
}

export type CrossChainLinkPlan = Awaited<ReturnType<typeof payCrossChain>>;

function crossChainSourcesOfLink(sp: LinkRow, requests: PaymentRequest[], due: readonly DueLeg[]): CrossChainSource[] {
  const owed = due.find((l) => l.request.id === requests[0]?.id);
  if (sp.direction !== "incoming" || requests.length !== 1 || requests[0]!.status === "paid" || !owed) return [];
  return crossChainSourcesFor(crossChainTermsOf(requests[0]!, owed)).map((s) => {
    const rt = networkRuntime(s.network);
    return {
      chain: s.chain,
      tokens: s.tokens,
      network: {
        chainId: rt.network.chainId,
        name: rt.network.name,
        rpcUrl: isLocalChain(s.network) ? rt.rpcUrl : null,
        testnet: rt.network.testnet,
      },
    };
  });
}
