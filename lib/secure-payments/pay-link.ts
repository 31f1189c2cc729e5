import { parseUnits } from "viem";
import { asHex, isEvmAddress, isTronAddress, parseAddressFor, sameAddress } from "@/lib/chain/address";
import { type NetworkRuntime, networkRuntime } from "@/lib/chain/config";
import { isNetworkId } from "@/lib/chain/networks";
import { chainReaderFor } from "@/lib/chain/reader";
import { findTokenCurrency } from "@/lib/currencies/registry";
import { AppError, invalidField, notFound } from "@/lib/errors";
import type { AccessPolicy } from "@/lib/kyt/screen";
import { formatAmount } from "@/lib/money";
import { planBatchPayment, planSinglePayment } from "@/lib/payments/plan";
import { assertCrossChainPayable, crossChainTermsOf, payCrossChain } from "@/lib/requests/pay-crosschain";
import { dueOf } from "@/lib/secure-payments/due";
import { multicallPayAnswer, multicallView } from "@/lib/secure-payments/multicall-view";
import { type CrossChainLinkPlan, loadLink, pageDataOf } from "@/lib/secure-payments/page-data";
import type { PaymentPageData, PaymentPagePlan } from "@/lib/secure-payments/page-types";
import { publicLinkView, referencePayAnswer } from "@/lib/secure-payments/public-view";

/**
 * The public token routes: `GET /v2/secure-payments/{token}` (the reference's view of the link,
 * with the hosted checkout's own view as `checkout`) and `GET /{token}/pay` (the payer's
 * transactions for the whole link). The token is the capability: no credentials.
 */
type CrossChainChoice = { chain?: string; token?: string; quoteId?: string };
type Loaded = NonNullable<Awaited<ReturnType<typeof loadLink>>>;

export async function getPublicLinkOrThrow(token: string, wallet?: string) {
  const link = await loadLink(token);
  const page = link ? await pageDataOf(link) : null;
  if (!link || !page) throw notFound("Secure payment not found");
  const paymentOptions = wallet === undefined ? undefined : await paymentOptionsFor(link, page, wallet);
  const view = link.multicall ? multicallView(link.multicall, page) : publicLinkView(link.sp, link.requests, page, page.currency.decimals);
  return paymentOptions ? { ...view, paymentOptions } : view;
}

/**
 * The reference's `paymentOptions` for `wallet` (GET /{token}?wallet=): its balance of the link's
 * token on the link's network against what it must still send, fees included —
 * `{sepolia: {USDC: {balance, hasEnoughBalance, neededAmount}}}`. Left out when the link is no
 * longer pending or the chain cannot be read now (the view never fails for it).
 */
async function paymentOptionsFor(link: Loaded, page: PaymentPageData, wallet: string) {
  const network = link.sp.network;
  if (!isNetworkId(network)) return undefined;
  if (!(network === "tron" ? isTronAddress(wallet) : isEvmAddress(wallet)))
    throw invalidField("wallet", network === "tron" ? "must be a Tron address" : "must be an EVM address");
  if (page.status !== "pending") return undefined;
  const reader = chainReaderFor(network);
  const balance = reader ? await reader.balanceOf(page.currency.address, wallet).catch(() => null) : null;
  if (balance === null) return undefined;
  const decimals = page.currency.decimals;
  // What the page computed the next transaction sends (dueOf), not a second read of the payments.
  const needed = parseUnits(page.totalAmount, decimals);
  const option = {
    balance: formatAmount(balance, decimals),
    hasEnoughBalance: balance >= needed,
    neededAmount: formatAmount(needed, decimals),
  };
  return { [network]: { [page.currency.symbol]: option } };
}

/** GET /v2/secure-payments/{token}/pay?wallet=: the payer's transactions for the whole link. */
export async function planLinkPayment(token: string, walletInput: string, crossChain?: CrossChainChoice) {
  const link = await loadLink(token);
  if (!link || !isNetworkId(link.sp.network)) throw notFound("Secure payment not found");
  // The link's network resolved once, for the plan's calldata and the multicall answer's chain ID.
  const runtime = networkRuntime(link.sp.network);
  const plan = await planFor(link, runtime, walletInput, crossChain);
  if (link.multicall) return multicallPayAnswer(link.multicall, plan as PaymentPagePlan, runtime);
  return referencePayAnswer(link.sp, plan);
}

async function planFor(
  link: Loaded,
  runtime: NetworkRuntime,
  walletInput: string,
  crossChain?: CrossChainChoice,
): Promise<PaymentPagePlan | CrossChainLinkPlan> {
  const { sp, requests, status } = link;
  if (status !== "pending") throw new AppError("conflict", `This payment link is ${status.replace("_", " ")}`);
  const network = runtime.network.id;
  if ((crossChain?.chain === undefined) !== (crossChain?.token === undefined))
    throw invalidField(
      crossChain?.chain === undefined ? "chain" : "token",
      "chain and token go together (cross-chain); omit both to pay on the link's network",
    );
  const wallet = crossChain?.chain ? walletInput : parseAddressFor(network, walletInput, "wallet");
  const policy = (sp.accessPolicy as AccessPolicy | null) ?? null;
  const allowed = policy?.allowedPayerAddresses ?? [];
  if (sp.direction === "incoming" && allowed.length > 0 && !allowed.some((a) => sameAddress(a, wallet))) {
    throw new AppError("forbidden", "This wallet is not allowed to pay this link");
  }
  if (sp.direction === "outgoing" && requests[0]?.payer && !sameAddress(requests[0].payer, wallet)) {
    throw invalidField("wallet", "this payout must be sent from the creator's wallet");
  }
  const token0 = sp.currency ? findTokenCurrency(sp.currency)?.token : undefined;
  const reset = token0?.approveResetRequired ?? false;
  // Exactly what the page shows (dueOf): each open request's rest of its amount and of each fee leg (a short fee alone, amount 0).
  const { legs: due, batchFeeAddress } = await dueOf(requests);
  if (due.length === 0) throw new AppError("conflict", "Already paid");
  if (crossChain?.chain && crossChain.token) {
    if (sp.direction !== "incoming" || due.length !== 1)
      throw invalidField("chain", "cross-chain payment pays a single incoming link; pay this one on its own network");
    const p = due[0]!;
    assertCrossChainPayable(p);
    return payCrossChain(crossChainTermsOf(p.request, p), {
      chain: crossChain.chain,
      token: crossChain.token,
      wallet,
      quoteId: crossChain.quoteId,
    });
  }
  if (due.length === 1) {
    const p = due[0]!;
    const r = p.request;
    return planSinglePayment(
      {
        runtime,
        tokenAddress: r.tokenAddress,
        payee: r.payee,
        amount: p.amount,
        feeAmount: p.feeAmount,
        feeAddress: p.feeAddress,
        paymentReference: asHex(r.paymentReference),
        approveResetRequired: reset,
        extraFeeLegs: p.extraFeeLegs,
      },
      wallet,
    );
  }
  // The batch contract sends every fee to one address (due.ts); other fee legs follow as fee-only transfers.
  const plan = await planBatchPayment(
    runtime,
    due.map((p) => ({
      token: p.request.tokenAddress,
      to: p.request.payee,
      amount: p.amount,
      paymentReference: asHex(p.request.paymentReference),
      feeAmount: p.feeAmount,
      approveResetRequired: reset,
    })),
    batchFeeAddress,
    wallet,
    due.flatMap((p) =>
      p.extraFeeLegs.map((l) => ({
        token: p.request.tokenAddress,
        to: p.request.payee,
        paymentReference: asHex(p.request.paymentReference),
        address: l.address,
        amount: l.amount,
        approveResetRequired: reset,
      })),
    ),
  );
  return { transactions: [...plan.approvals, plan.batch, ...plan.feeLegs], metadata: plan.metadata };
}
