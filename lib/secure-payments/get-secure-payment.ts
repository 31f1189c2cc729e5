import { FIAT_PATH_DECIMALS } from "@/lib/chain/conversion";
import { tokenOf } from "@/lib/chain/stored";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { notFound } from "@/lib/errors";
import type { ExcessPolicy, PaymentRequest, SecurePayment } from "@/lib/generated/prisma/client";
import { invoiceViewForLink } from "@/lib/invoices/view";
import { feeProgressOf, type MissingFee, missingFeesOf } from "@/lib/payments/fee-legs";
import { linkStatus } from "@/lib/payments/link-status";
import { REQUEST_ID_PATTERN } from "@/lib/payments/reference";
import { linkWrongAmountOf, NO_WRONG_AMOUNT, type WrongAmount, wrongAmountFields } from "@/lib/refunds/labels";
import { linkExcessPolicy } from "@/lib/secure-payments/excess";

/**
 * GET /v2/secure-payments?requestId=: the secure payment object of the interface, every field
 * present (nullable ones as null). Scoped to the session's account: another account's request
 * is 404, like a missing one.
 */
export function blockReasonOf(sp: SecurePayment, request: PaymentRequest, paymentType: string): string | null {
  if (sp.direction !== "outgoing") return "not_outgoing";
  if (paymentType !== "single") return "not_single_payment";
  if (sp.status === "compliance_failed") return "compliance_failed";
  if (request.status === "paid") return "already_paid";
  if (linkStatus(sp, [request]) === "expired") return "secure_payment_expired";
  if (sp.status !== "pending") return "secure_payment_not_pending";
  // A fee-short request is payable now: its missing fee (lib/payments/fee-legs.ts), as a multicall child too.
  if (request.status === "partially_paid" && request.subStatus !== "fee_short") return "request_processing";
  return null;
}

/** A link's wrong-amount label and policy, as the secure payment object reports them (lib/refunds). */
export interface LinkExcess {
  policy: ExcessPolicy;
  effective: ExcessPolicy;
  wrong: WrongAmount;
  decimals: number;
}

export function toSecurePaymentResponse(
  sp: SecurePayment,
  request: PaymentRequest,
  missingFees: MissingFee[] = [],
  excess?: LinkExcess,
  payerEoaAddress: string | null = null,
) {
  const blockReason = blockReasonOf(sp, request, sp.paymentType);
  return {
    token: sp.token,
    securePaymentUrl: `${env().APP_URL.replace(/\/$/, "")}/pay/${sp.token}`,
    // Read time, not the stored row: a pending link past its expiry is expired before the sweep runs.
    status: linkStatus(sp, [request]),
    paymentType: sp.paymentType,
    createdAt: sp.createdAt.toISOString(),
    expiresAt: sp.expiresAt.toISOString(),
    redirectUrl: sp.redirectUrl,
    redirectLabel: sp.redirectLabel,
    completedAt: sp.completedAt?.toISOString() ?? null,
    payerAddress: sp.payerAddress,
    // The EOA behind payerAddress (Payment.payerEoa): the same wallet unless a smart account paid.
    payerEoaAddress: sp.payerAddress ? payerEoaAddress : null,
    payerKytResults: sp.payerKytResults ?? [],
    payeeKytResults: sp.payeeKytResults ?? [],
    destination: sp.destination ?? null,
    claimedDestination: sp.claimedDestination ?? null,
    orchestratorId: sp.orchestratorId,
    feePlan: sp.feePlan ?? null,
    network: sp.network,
    currency: sp.currency,
    executionKind: sp.executionKind,
    identityMode: sp.identityMode,
    clientId: sp.clientId,
    branding: brandingOf(sp),
    childExecutable: blockReason === null,
    blockReason,
    // Duebill extension: the request's payment came without its whole fee (lib/payments/fee-legs.ts).
    subStatus: missingFees.length > 0 ? ("fee_short" as const) : null,
    missingFees,
    // Duebill extension: the receipt email the payer gave on the hosted page (only this authenticated view shows it).
    collectPayerEmail: sp.collectPayerEmail,
    payerEmail: sp.payerEmail,
    // Duebill extension: how it was paid (over, under, late…) and what happens to money it did not ask for.
    ...wrongAmountFields(excess?.wrong ?? NO_WRONG_AMOUNT, excess?.decimals ?? 0),
    excessPolicy: sp.excessPolicy,
    effectiveExcessPolicy: excess?.effective ?? sp.excessPolicy ?? "offer",
  };
}

/** The orchestrator's branding snapshot of a linked client ID's link (null: Duebill's own look). */
export function brandOf(sp: Pick<SecurePayment, "branding">) {
  const b = sp.branding as {
    displayName?: string;
    logoUrl?: string | null;
    accentColor?: string | null;
    supportUrl?: string | null;
  } | null;
  if (!b?.displayName) return null;
  return { displayName: b.displayName, logoUrl: b.logoUrl ?? null, accentColor: b.accentColor ?? null, supportUrl: b.supportUrl ?? null };
}

/** `branding` of the secure payment object: source client_id with the orchestrator's brand, else the default. */
export function brandingOf(sp: Pick<SecurePayment, "whitelabel" | "branding">) {
  const brand = brandOf(sp);
  return brand
    ? { whitelabelEnabled: sp.whitelabel, source: "client_id" as const, ...brand }
    : { whitelabelEnabled: false, source: "request_network" as const };
}

export async function getSecurePaymentByRequest(accountId: string, requestId: string) {
  if (!REQUEST_ID_PATTERN.test(requestId)) throw notFound("Secure payment not found");
  const link = await db().securePaymentRequest.findUnique({ where: { requestId }, include: { securePayment: true } });
  if (!link || link.securePayment.accountId !== accountId) throw notFound("Secure payment not found");
  const request = await db().paymentRequest.findUniqueOrThrow({ where: { id: requestId } });
  const fees = request.status === "paid" ? null : (await feeProgressOf([request])).get(request.id)!;
  const sp = link.securePayment;
  const account = await db().account.findUniqueOrThrow({ where: { id: accountId }, select: { excessPolicy: true } });
  const requests = await db().paymentRequest.findMany({ where: { securePayment: { securePaymentToken: sp.token } } });
  // The link's payer was its requests' first detected payer (settle.ts): the EOA of that payment.
  const paid = sp.payerAddress
    ? await db().payment.findFirst({
        where: { request: { securePayment: { securePaymentToken: link.securePaymentToken } }, payer: sp.payerAddress },
        orderBy: [{ blockNumber: "asc" }, { logIndex: "asc" }],
        select: { payerEoa: true },
      })
    : null;
  const [policy, wrong] = await Promise.all([linkExcessPolicy(sp, account.excessPolicy, requests), linkWrongAmountOf(requests)]);
  const view = toSecurePaymentResponse(
    sp,
    request,
    fees ? missingFeesOf(request, fees) : [],
    { ...policy, wrong, decimals: request.isConversion ? FIAT_PATH_DECIMALS : tokenOf(request).decimals },
    paid?.payerEoa ?? null,
  );
  return { ...view, invoice: await invoiceViewForLink(sp.token) };
}
