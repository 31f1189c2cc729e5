import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { kytProviderForClientId, planProvider } from "@/lib/kyt/plan";
import { type AccessPolicy, screensPayers, screenWallet } from "@/lib/kyt/screen";
import type { KytResult } from "@/lib/kyt/types";
import { log } from "@/lib/log";
import { PAID_LINK_SQL } from "@/lib/payments/link-status";
import { wrongAmountsOf } from "@/lib/refunds/labels";
import { offerUnderpaidOfExpiredLinks } from "@/lib/refunds/offer";
import { settleMulticallParents } from "@/lib/secure-payments/multicall";

/**
 * Moves pending links forward once their requests are paid: the detected payer wallets of an
 * incoming link are screened (access policy), then the link becomes `completed` — or
 * `compliance_failed` when screening rejects a payer. Final states never change: every
 * update is conditional on `status = pending`. Safe to repeat (the expiry sweep reconciles).
 */
export async function settleSecurePayments(requestIds: readonly string[]): Promise<number> {
  if (requestIds.length === 0) return 0;
  const links = await db().securePaymentRequest.findMany({
    where: { requestId: { in: [...requestIds] } },
    select: { securePaymentToken: true },
  });
  let settled = 0;
  const tokens = [...new Set(links.map((l) => l.securePaymentToken))];
  for (const token of tokens) {
    try {
      if (await settleOne(token)) settled += 1;
    } catch (err) {
      log.warn("settling a secure payment failed", { token, err });
    }
  }
  // Multicall parents over these links complete with their last child.
  try {
    settled += await settleMulticallParents(tokens);
  } catch (err) {
    log.warn("settling multicall parents failed", { tokens, err });
  }
  return settled;
}

async function settleOne(token: string): Promise<boolean> {
  const sp = await db().securePayment.findUnique({ where: { token }, include: { requests: true } });
  if (sp?.status !== "pending") return false;
  const ids = sp.requests.map((r) => r.requestId);
  const requests = await db().paymentRequest.findMany({ where: { id: { in: ids } } });
  if (requests.length !== ids.length || requests.some((r) => r.status !== "paid")) return false;
  // Paid after its expiry (a late payment): recorded on the request, but the link stays expired (docs/guides/refunds.md).
  const labels = await wrongAmountsOf(requests);
  if ([...labels.values()].some((w) => w.amountLabel === "late")) {
    const { count } = await db().securePayment.updateMany({ where: { token, status: "pending" }, data: { status: "expired" } });
    return count === 1;
  }
  const payments = await db().payment.findMany({
    where: { requestId: { in: ids } },
    orderBy: { blockNumber: "asc" },
    select: { payer: true },
  });
  const payers = [...new Set(payments.map((p) => p.payer).filter((p): p is string => !!p))];
  const results: KytResult[] = [];
  if (sp.direction === "incoming") {
    const policy = (sp.accessPolicy as AccessPolicy | null) ?? null;
    // A payment whose payer is not known yet (a bridged payment whose source sender could not be
    // read) cannot be screened: fail closed, as for a screening outage; detection retries it.
    if (payments.some((p) => !p.payer) && screensPayers(policy)) {
      log.warn("a payer of a paid link is not known yet: left pending", { token });
      return false;
    }
    // The link's own choice (accessPolicy.screeningProvider), else its client ID's screening plan
    // (onboarding), else the deployment's default.
    const provider =
      payers.length === 0
        ? undefined
        : policy?.screeningProvider
          ? planProvider({ providers: [{ provider: policy.screeningProvider }] })
          : await kytProviderForClientId(sp.clientId);
    for (const payer of payers) {
      const r = await screenWallet(payer, sp.network, policy, "payer", provider);
      if (r) results.push(r);
    }
  }
  const rejected = results.some((r) => r.status === "rejected");
  const { count } = await db().securePayment.updateMany({
    where: { token, status: "pending" },
    data: {
      status: rejected ? "compliance_failed" : "completed",
      completedAt: rejected ? null : now(),
      payerAddress: payers[0] ?? null,
      payerKytResults: results as unknown as Prisma.InputJsonValue,
    },
  });
  return count === 1;
}

/**
 * Pending links past their expiry become `expired`; paid-but-unsettled ones are settled. A paid
 * link is never expired (linkStatus): when its settlement fails (screening down), it stays
 * pending and every later sweep tries to settle it again.
 */
export async function expireAndReconcileSecurePayments(): Promise<{ expired: number; settled: number }> {
  // Links still pending although one of their requests is paid: a crash between recording and settling.
  const unsettled = await db().$queryRaw<{ requestId: string }[]>`
    SELECT spr."requestId" FROM "SecurePaymentRequest" spr
    JOIN "SecurePayment" sp ON sp.token = spr."securePaymentToken"
    JOIN "PaymentRequest" pr ON pr.id = spr."requestId"
    WHERE sp.status = 'pending' AND pr.status = 'paid'
    LIMIT 500`;
  let settled = await settleSecurePayments(unsettled.map((u) => u.requestId));
  // Multicall parents still pending although every child is completed: a crash between the two.
  const finished = await db().$queryRaw<{ childToken: string }[]>`
    SELECT mc."childToken" FROM "MulticallChild" mc
    JOIN "SecurePayment" p ON p.token = mc."parentToken"
    WHERE p.status = 'pending' AND NOT EXISTS (
      SELECT 1 FROM "MulticallChild" m2 JOIN "SecurePayment" c ON c.token = m2."childToken"
      WHERE m2."parentToken" = p.token AND c.status <> 'completed')
    LIMIT 500`;
  settled += await settleMulticallParents(finished.map((f) => f.childToken));
  const count = await db().$executeRaw`
    UPDATE "SecurePayment" sp SET status = 'expired'
    WHERE sp.status = 'pending' AND sp."expiresAt" <= ${now()} AND NOT ${PAID_LINK_SQL}`;
  // Expired short: the payee is offered a refund of what it received, under the link's policy (lib/refunds/offer.ts).
  await offerUnderpaidOfExpiredLinks();
  return { expired: count, settled };
}
