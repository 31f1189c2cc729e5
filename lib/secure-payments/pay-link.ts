import { asHex, sameAddress } from "@/lib/chain/address";
import { isNetworkId } from "@/lib/chain/networks";
import { findTokenCurrency } from "@/lib/currencies/registry";
import { AppError, invalidField, notFound } from "@/lib/errors";
import type { AccessPolicy } from "@/lib/kyt/screen";
import { feeForRemaining, planBatchPayment, planSinglePayment } from "@/lib/payments/plan";
import { parseAddressFor } from "@/lib/payments/terms";
import { crossChainTermsOf, payCrossChain } from "@/lib/requests/pay-crosschain";
import { multicallPayAnswer, multicallView } from "@/lib/secure-payments/multicall-view";
import { type CrossChainLinkPlan, loadLink, pageDataOf } from "@/lib/secure-payments/page-data";
import type { PaymentPagePlan } from "@/lib/secure-payments/page-types";
import { publicLinkView, referencePayAnswer } from "@/lib/secure-payments/public-view";
import { linkStatus } from "@/lib/secure-payments/status";

/**
 * The public token routes: `GET /v2/secure-payments/{token}` (the reference's view of the link,
 * with the hosted checkout's own view as `checkout`) and `GET /{token}/pay` (the payer's
 * transactions for the whole link). The token is the capability: no credentials.
 */
type CrossChainChoice = { chain?: string; token?: string; quoteId?: string };

const units = (d: { toFixed(): string }) => BigInt(d.toFixed());

export async function getPublicLinkOrThrow(token: string) {
  const link = await loadLink(token);
  const page = link ? await pageDataOf(link) : null;
  if (!link || !page) throw notFound("Secure payment not found");
  if (link.multicall) return multicallView(link.multicall, page);
  return publicLinkView(link.sp, link.requests, page, page.currency.decimals);
}

/** GET /v2/secure-payments/{token}/pay?wallet=: the payer's transactions for the whole link. */
export async function planLinkPayment(token: string, walletInput: string, crossChain?: CrossChainChoice) {
  const link = await loadLink(token);
  if (!link || !isNetworkId(link.sp.network)) throw notFound("Secure payment not found");
  const plan = await planFor(link, walletInput, crossChain);
  if (link.multicall) return multicallPayAnswer(link.multicall, plan as PaymentPagePlan);
  return referencePayAnswer(link.sp, plan);
}

async function planFor(
  link: NonNullable<Awaited<ReturnType<typeof loadLink>>>,
  walletInput: string,
  crossChain?: CrossChainChoice,
): Promise<PaymentPagePlan | CrossChainLinkPlan> {
  const { sp, requests } = link;
  const status = linkStatus(sp);
  if (status !== "pending") throw new AppError("conflict", `This payment link is ${status.replace("_", " ")}`);
  const network = sp.network;
  if (!isNetworkId(network)) throw notFound("Secure payment not found");
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
  const open = requests.filter((r) => r.status !== "paid");
  if (open.length === 0) throw new AppError("conflict", "Already paid");
  if (crossChain?.chain && crossChain.token) {
    if (sp.direction !== "incoming" || open.length !== 1)
      throw invalidField("chain", "cross-chain payment pays a single incoming link; pay this one on its own network");
    return payCrossChain(crossChainTermsOf(open[0]!), {
      chain: crossChain.chain,
      token: crossChain.token,
      wallet,
      quoteId: crossChain.quoteId,
    });
  }
  if (open.length === 1) {
    const r = open[0]!;
    const remaining = units(r.expectedAmount) - units(r.amountPaid);
    return planSinglePayment(
      {
        network,
        tokenAddress: r.tokenAddress,
        payee: r.payee,
        amount: remaining,
        feeAmount: feeForRemaining(units(r.feeAmount), remaining, units(r.expectedAmount)),
        feeAddress: r.feeAddress,
        paymentReference: asHex(r.paymentReference),
        approveResetRequired: reset,
      },
      wallet,
    );
  }
  const plan = await planBatchPayment(
    network,
    open.map((r) => ({
      token: r.tokenAddress,
      to: r.payee,
      amount: units(r.expectedAmount),
      paymentReference: asHex(r.paymentReference),
      feeAmount: units(r.feeAmount),
      approveResetRequired: reset,
    })),
    open.find((r) => r.feeAddress)?.feeAddress ?? null,
    wallet,
  );
  return { transactions: [...plan.approvals, plan.batch], metadata: plan.metadata };
}
