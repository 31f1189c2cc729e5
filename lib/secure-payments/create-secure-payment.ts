import type { Principal } from "@/lib/auth/principal";
import { parseAddressFor } from "@/lib/chain/address";
import { isNetworkId, type NetworkId } from "@/lib/chain/networks";
import type { Token } from "@/lib/chain/tokens";
import { nowMs } from "@/lib/clock";
import { findTokenCurrency, unpayableCurrencyMessage } from "@/lib/currencies/registry";
import { db } from "@/lib/db";
import { getActiveDestination, getDestinationOrThrow, toDestinationDto } from "@/lib/destinations/destinations";
import { env } from "@/lib/env";
import { AppError, invalidField } from "@/lib/errors";
import { type FeePlan, resolveFeePlan, splitByPlan } from "@/lib/fees/fee-plan";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ulid } from "@/lib/ids";
import type { InvoiceInput } from "@/lib/invoices/prepare";
import { storeInvoice } from "@/lib/invoices/store";
import { isAvailableKytProvider, kytProviderForClientId, notAvailableKytProvider } from "@/lib/kyt/plan";
import { type AccessPolicy, screenWallet } from "@/lib/kyt/screen";
import { parseAmount } from "@/lib/money";
import type { LinkCreator } from "@/lib/orchestrators/linked-creator";
import { storedFeeLegs } from "@/lib/payments/fee-legs";
import { assertNotTronBatch } from "@/lib/payments/plan";
import { resolveTerms } from "@/lib/payments/terms";
import { ownerOf, requestData } from "@/lib/requests/create-request";
import { checkLineItems, type LineItemInput, prepareLinkInvoice } from "@/lib/secure-payments/link-invoice";

/**
 * Secure payment links: requests grouped behind a token, paid on the hosted page. Incoming
 * links pay the account's destination (the client ID's bound one, or the active one); an
 * outgoing link pays a recipient from the creator's wallet, with the payee screened now.
 */

export type AccessPolicyInput = AccessPolicy;

export interface CreateSecurePaymentInput {
  requests: { amount: string; destinationId?: string }[];
  destinationId?: string;
  reference?: string;
  payerIdentifier?: string;
  redirectUrl?: string;
  redirectLabel?: string;
  accessPolicy?: AccessPolicyInput;
  feePercentage?: string;
  feeAddress?: string;
  description?: string;
  /** quantity × unitAmount (+ tax at taxRate, when given) must add up to the amounts (link-invoice.ts). */
  lineItems?: LineItemInput[];
  /** A full invoice: number, dates, lines with tax; its total must be the requests' amounts (lib/invoices). */
  invoice?: InvoiceInput;
  /** This link's wrong-amount policy (lib/refunds/policy.ts); absent: the account's. */
  excessPolicy?: "return" | "offer" | "keep";
  /** The hosted page asks the payer for an email for the receipt (lib/mail). */
  collectPayerEmail?: boolean;
}

export interface CreatePayoutLinkInput {
  recipient: string;
  creatorWalletAddress: string;
  network: string;
  currency: string;
  amount: string;
  reference?: string;
  recipientIdentifier?: string;
  redirectUrl?: string;
  redirectLabel?: string;
}

export interface LinkResult {
  requestIds: string[];
  securePaymentUrl: string;
  token: string;
  feePlan: FeePlan | null;
}

async function boundDestinationId(principal: Principal): Promise<string | null> {
  if (principal.kind !== "clientId") return null;
  const client = await db().clientId.findUnique({ where: { id: principal.clientId }, select: { boundDestinationId: true } });
  return client?.boundDestinationId ?? null;
}

export function linkUrl(token: string): string {
  return `${env().APP_URL.replace(/\/$/, "")}/pay/${token}`;
}

type Orchestrated = LinkCreator["orchestrated"];

/** The fee plan: an orchestrator's (per-client override, then its default) for its linked client IDs, else the account's own. */
function feePlanFor(principal: Principal, orchestrated: Orchestrated, flow: "get_paid" | "pay", token: Token, total: bigint) {
  return orchestrated
    ? resolveFeePlan(orchestrated.orchestratorId, flow, token, total, orchestrated.clientId)
    : resolveFeePlan(principal.accountId, flow, token, total);
}

interface LinkFields {
  network: NetworkId;
  currency: string;
  direction: "incoming" | "outgoing";
  requestIds: string[];
  fee: FeePlan | null;
  reference?: string;
  payerIdentifier?: string;
  redirectUrl?: string;
  redirectLabel?: string;
}

/** The columns every link shares, incoming or outgoing: owner identity, network, expiry, redirect, fee plan, items. */
function linkData(principal: Principal, orchestrated: Orchestrated, token: string, f: LinkFields) {
  const { clientId } = ownerOf(principal);
  return {
    token,
    accountId: principal.accountId,
    clientId,
    identityMode: clientId ? "client_id" : "manual_dashboard",
    orchestratorId: orchestrated?.orchestratorId ?? (principal.kind === "orchestratorKey" ? principal.accountId : null),
    whitelabel: orchestrated?.branding != null,
    branding: (orchestrated?.branding ?? undefined) as Prisma.InputJsonValue | undefined,
    direction: f.direction,
    paymentType: f.requestIds.length > 1 ? "batch" : "single",
    network: f.network,
    currency: f.currency,
    executionKind: f.network === "tron" ? "tron_batch" : "evm_same_chain",
    expiresAt: new Date(nowMs() + env().SECURE_PAYMENT_TTL_HOURS * 3_600_000),
    redirectUrl: f.redirectUrl ?? null,
    redirectLabel: f.redirectLabel ?? null,
    reference: f.reference ?? null,
    payerIdentifier: f.payerIdentifier ?? null,
    feePlan: (f.fee ?? undefined) as Prisma.InputJsonValue | undefined,
    requests: { create: f.requestIds.map((requestId, position) => ({ requestId, position })) },
  } satisfies Prisma.SecurePaymentUncheckedCreateInput;
}

export async function createSecurePayment(
  principal: Principal,
  body: CreateSecurePaymentInput,
  orchestrated: Orchestrated = null,
): Promise<LinkResult> {
  const chosen = body.accessPolicy?.screeningProvider;
  if (chosen && !isAvailableKytProvider(chosen)) throw invalidField("accessPolicy.screeningProvider", notAvailableKytProvider(chosen));
  // The page would promise a receipt by email that nothing sends: refused by name, as a screening provider that does not run.
  if (body.collectPayerEmail && !env().SMTP_URL)
    throw invalidField(
      "collectPayerEmail",
      "this server sends no email (SMTP_URL is not set), so a link cannot promise the payer an emailed receipt",
    );
  const bound = await boundDestinationId(principal);
  const asked = [body.destinationId, ...body.requests.map((r) => r.destinationId)].filter((d): d is string => d !== undefined);
  if (bound && asked.some((d) => d !== bound))
    throw new AppError("destination_mismatch", "destinationId differs from the client ID's bound destination");
  if (new Set(asked).size > 1) throw invalidField("destinationId", "every request of a link pays the same destination");
  const destination = asked[0]
    ? await getDestinationOrThrow(principal.accountId, asked[0])
    : bound
      ? await getDestinationOrThrow(principal.accountId, bound)
      : await getActiveDestination(principal.accountId);
  if (!destination)
    throw invalidField("destinationId", "no payee destination: register one (POST /v2/payee-destination) or pass destinationId");
  if (!destination.active) throw invalidField("destinationId", "destination is not active");
  if (!isNetworkId(destination.network)) throw new AppError("internal_error", "destination has an unknown network");
  const network = destination.network;
  assertNotTronBatch(network, body.requests.length);
  const currency = findTokenCurrency(`${destination.tokenSymbol}-${network}`);
  if (!currency) throw new AppError("internal_error", "destination has an unknown currency");
  const token = currency.token;

  const grossUnits = body.requests.map((r, i) => parseAmount(r.amount, token.decimals, `requests.${i}.amount`));
  const total = grossUnits.reduce((a, b) => a + b, 0n);
  const lineItems = checkLineItems(body.lineItems, currency.id, token.decimals, total);
  const invoice = prepareLinkInvoice(body.invoice, body.lineItems !== undefined, currency.id, total, body.requests.length);
  const fee = await feePlanFor(principal, orchestrated, "get_paid", token, total);
  const secureToken = ulid();
  const rows = grossUnits.map((gross, i) => {
    const split = splitByPlan(fee?.plan ?? null, fee?.feeAddress ?? null, gross, network === "tron" ? "tron" : "evm");
    const terms = resolveTerms({
      amount: body.requests[i]!.amount,
      invoiceCurrency: currency.id,
      paymentCurrency: currency.id,
      payee: destination.walletAddress,
    });
    return {
      ...requestData(
        principal,
        "request",
        { ...terms, expectedAmount: split.toPayee, feeAmount: split.fee, feeAddress: split.feeAddress },
        { reference: body.reference },
      ),
      ...storedFeeLegs(split.legs),
    };
  });
  await db().$transaction(async (tx) => {
    await tx.paymentRequest.createMany({ data: rows });
    const link = linkData(principal, orchestrated, secureToken, {
      ...body,
      network,
      currency: currency.id,
      direction: "incoming",
      requestIds: rows.map((r) => r.id),
      fee: fee?.plan ?? null,
    });
    await tx.securePayment.create({
      data: {
        ...link,
        accessPolicy: (body.accessPolicy ?? undefined) as Prisma.InputJsonValue | undefined,
        description: body.description ?? null,
        lineItems: lineItems as Prisma.InputJsonValue | undefined,
        excessPolicy: body.excessPolicy ?? null,
        collectPayerEmail: body.collectPayerEmail ?? false,
        destination: toDestinationDto(destination) as unknown as Prisma.InputJsonValue,
      },
    });
    // In the link's transaction: a refused or rolled-back link takes no invoice number.
    if (invoice) await storeInvoice(invoice, { accountId: principal.accountId, securePaymentToken: secureToken }, tx);
  });
  return { requestIds: rows.map((r) => r.id), securePaymentUrl: linkUrl(secureToken), token: secureToken, feePlan: fee?.plan ?? null };
}

/** POST /v2/secure-payments/payouts: an outgoing link; the payee is screened at creation. */
export async function createPayoutLink(
  principal: Principal,
  body: CreatePayoutLinkInput,
  orchestrated: Orchestrated = null,
): Promise<LinkResult> {
  if (!isNetworkId(body.network)) throw invalidField("network", `Unknown network "${body.network}"`);
  const network = body.network;
  const currency = findTokenCurrency(body.currency);
  if (!currency) throw invalidField("currency", unpayableCurrencyMessage(body.currency));
  if (currency.token.network !== body.network) throw invalidField("currency", `${currency.id} is not on ${body.network}`);
  const payer = parseAddressFor(body.network, body.creatorWalletAddress, "creatorWalletAddress");
  const recipient = parseAddressFor(body.network, body.recipient, "recipient");
  const terms = resolveTerms({ amount: body.amount, invoiceCurrency: currency.id, paymentCurrency: currency.id, payee: recipient });
  const fee = await feePlanFor(principal, orchestrated, "pay", currency.token, terms.expectedAmount);
  const split = splitByPlan(fee?.plan ?? null, fee?.feeAddress ?? null, terms.expectedAmount, terms.chain);
  const row = {
    ...requestData(
      principal,
      "payout",
      { ...terms, expectedAmount: split.toPayee, feeAmount: split.fee, feeAddress: split.feeAddress },
      { payer, reference: body.reference },
    ),
    ...storedFeeLegs(split.legs),
  };
  const kyt = await screenWallet(recipient, body.network, null, "payee", await kytProviderForClientId(ownerOf(principal).clientId));
  const claimed = await db().payeeDestination.findFirst({ where: { walletAddress: recipient, network: body.network, active: true } });
  const secureToken = ulid();
  await db().$transaction(async (tx) => {
    await tx.paymentRequest.create({ data: row });
    const link = linkData(principal, orchestrated, secureToken, {
      ...body,
      network,
      currency: currency.id,
      direction: "outgoing",
      requestIds: [row.id],
      fee: fee?.plan ?? null,
      payerIdentifier: body.recipientIdentifier,
    });
    await tx.securePayment.create({
      data: {
        ...link,
        status: kyt?.status === "rejected" ? "compliance_failed" : "pending",
        claimedDestination: (claimed ? toDestinationDto(claimed) : undefined) as Prisma.InputJsonValue | undefined,
        payeeKytResults: (kyt ? [kyt] : []) as unknown as Prisma.InputJsonValue,
      },
    });
  });
  return { requestIds: [row.id], securePaymentUrl: linkUrl(secureToken), token: secureToken, feePlan: fee?.plan ?? null };
}
