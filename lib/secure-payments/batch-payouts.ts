import type { Principal } from "@/lib/auth/principal";
import { sameAddress } from "@/lib/chain/address";
import { NETWORKS } from "@/lib/chain/networks";
import { db } from "@/lib/db";
import { AppError, invalidField, notFound } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ulid } from "@/lib/ids";
import { linkStatus } from "@/lib/payments/link-status";
import { TRON_BATCH_MESSAGE } from "@/lib/payments/plan";
import { type LinkResult, linkUrl } from "@/lib/secure-payments/create-secure-payment";

export interface BatchPayoutsInput {
  tokens: string[];
  redirectUrl?: string;
  redirectLabel?: string;
}

/**
 * `POST /v2/secure-payments/batch-payouts`: merges pending single-payout links of the account into
 * one batch link the creator's wallet pays in one transaction. Their requests move to the new link
 * (a request belongs to one link) and the children become `invalidated`, in one transaction; the
 * batch expires with its earliest child. Same network, currency and creator wallet; EVM only.
 */
export async function createBatchPayoutLink(principal: Principal, body: BatchPayoutsInput): Promise<LinkResult> {
  if (new Set(body.tokens).size !== body.tokens.length) throw invalidField("tokens", "lists a token twice");
  const token = ulid();
  const requestIds = await db().$transaction(async (tx) => {
    // Locked, so two merges of the same children cannot both succeed.
    const locked = await tx.$queryRaw<{ token: string }[]>`
      SELECT "token" FROM "SecurePayment" WHERE "token" = ANY(${body.tokens}) AND "accountId" = ${principal.accountId} FOR UPDATE`;
    const children = await tx.securePayment.findMany({
      where: { token: { in: locked.map((r) => r.token) } },
      include: { requests: { include: { request: true }, orderBy: { position: "asc" } } },
    });
    const byToken = new Map(children.map((c) => [c.token, c]));
    const ordered = body.tokens.map((t, i) => {
      const c = byToken.get(t);
      if (!c) throw notFound(`Secure payment ${t} not found`);
      const status = linkStatus(
        c,
        c.requests.map((r) => r.request),
      );
      if (status !== "pending") throw invalidField(`tokens.${i}`, `secure payment ${t} is ${status.replace("_", " ")}`);
      if (c.direction !== "outgoing" || c.paymentType !== "single")
        throw invalidField(`tokens.${i}`, `secure payment ${t} is not a single payout link`);
      return c;
    });
    const first = ordered[0]!;
    if (NETWORKS[first.network as keyof typeof NETWORKS]?.kind !== "evm") throw new AppError("tron_batch_unsupported", TRON_BATCH_MESSAGE);
    const creator = first.requests[0]?.request.payer ?? null;
    ordered.forEach((c, i) => {
      if (c.network !== first.network)
        throw new AppError("validation_failed", "All requests must be on the same network", {
          errors: [{ field: `tokens.${i}`, message: `is on ${c.network}, the first on ${first.network}` }],
        });
      if (c.currency !== first.currency) throw invalidField(`tokens.${i}`, `is in ${c.currency}, the first in ${first.currency}`);
      const payer = c.requests[0]?.request.payer ?? null;
      if (!creator || !payer || !sameAddress(payer, creator))
        throw invalidField(`tokens.${i}`, "every payout must be sent from the same creator wallet");
    });
    const requestIds = ordered.flatMap((c) => c.requests.map((r) => r.requestId));
    await tx.securePaymentRequest.deleteMany({ where: { securePaymentToken: { in: body.tokens } } });
    await tx.securePayment.updateMany({ where: { token: { in: body.tokens } }, data: { status: "invalidated" } });
    await tx.securePayment.create({
      data: {
        token,
        accountId: principal.accountId,
        clientId: first.clientId,
        orchestratorId: first.orchestratorId,
        identityMode: first.identityMode,
        whitelabel: first.whitelabel,
        branding: (first.branding ?? undefined) as Prisma.InputJsonValue | undefined,
        direction: "outgoing",
        paymentType: "batch",
        network: first.network,
        currency: first.currency,
        executionKind: "evm_same_chain",
        expiresAt: new Date(Math.min(...ordered.map((c) => c.expiresAt.getTime()))),
        redirectUrl: body.redirectUrl ?? null,
        redirectLabel: body.redirectLabel ?? null,
        payeeKytResults: ordered.flatMap((c) => (Array.isArray(c.payeeKytResults) ? c.payeeKytResults : [])) as Prisma.InputJsonValue,
        requests: { create: requestIds.map((requestId, position) => ({ requestId, position })) },
      },
    });
    return requestIds;
  });
  return { requestIds, securePaymentUrl: linkUrl(token), token, feePlan: null };
}
