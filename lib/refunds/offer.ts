import { sameAddress } from "@/lib/chain/address";
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import type { Prisma, Refund, RefundReason } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { type LabelFacts, labelFactsOf, wrongAmountOf } from "@/lib/refunds/labels";
import { readLedger } from "@/lib/refunds/ledger";
import { policyOf } from "@/lib/refunds/policy";
import { insertRefund } from "@/lib/refunds/store";

const units = (d: { toFixed(): string }) => BigInt(d.toFixed());

/** The warning of an offer the deposit relayer could not return itself (several senders, or a contract). */
const SEVERAL_SENDERS = "Several wallets sent money to this payment's deposit address: check who is owed what before sending.";

/**
 * Offers the payee a one-click refund (a prepared Refund, sender payee) of what reached its wallet
 * that the request did not ask for, under the link's (else the account's) policy — `keep` offers
 * nothing; `return` offers too, since money in the payee's wallet moves only with the payee (a
 * deposit address returns what it still holds itself: lib/deposits/sweep.ts; that never reaches
 * the payee and is never offered):
 * - `excess`: what the payee received in time above the amount;
 * - `late`: everything the payee received after the link expired;
 * - `underpaid`: what the payee received in time, once the link has expired short of the amount.
 *
 * Once per cause: for each reason, the offer is what is due minus every payee refund already made
 * for it (any status: one the payee sent, or cancelled, is not offered again); when more arrives the
 * rest is a new offer (a prepared one never changes amount: a wallet may be signing it). Never more
 * than the payee can still refund (ledger's `refundable`: a refund the payee made by hand counts),
 * and never to the payee itself. Runs in the caller's transaction (detection's, under the request's row
 * lock; the expiry sweep's), so re-scans and concurrent sweeps write one offer. Refunds go to the
 * payer of the payment that caused them; none is offered while that payer is unknown. Conversion
 * requests (an invoice currency) and payouts are labelled, not offered.
 */
export async function offerWrongAmounts(
  tx: Prisma.TransactionClient,
  requestId: string,
  at: Date = now(),
  known?: LabelFacts,
): Promise<Refund[]> {
  // Detection passes the facts it read under the request's row lock: nothing wrong, nothing to offer (no reads).
  if (known && !anyDue(dueOf(known, known.expected, at))) return [];
  // The request's row lock orders this against detection recording a payment of it (which holds it already).
  await tx.$queryRaw`SELECT id FROM "PaymentRequest" WHERE id = ${requestId} FOR UPDATE`;
  const request = await tx.paymentRequest.findUnique({
    where: { id: requestId },
    include: {
      account: { select: { excessPolicy: true } },
      securePayment: { select: { securePayment: { select: { excessPolicy: true } } } },
      depositAddress: { select: { depositors: true, autoReturnBlocked: true } },
    },
  });
  if (request?.kind !== "request" || request.isConversion) return [];
  if (policyOf(request.securePayment?.securePayment.excessPolicy, request.account.excessPolicy) === "keep") return [];
  // `known`: the facts the caller read in this transaction (detection, for the webhook's label); offers do not change them.
  const facts = known ?? (await labelFactsOf([request], tx)).get(request.id)!;
  const w = wrongAmountOf(facts, at);
  const due = dueOf(facts, units(request.expectedAmount), at);
  if (!anyDue(due)) return [];
  const payments = await tx.payment.findMany({
    where: { requestId },
    orderBy: [{ blockNumber: "desc" }, { logIndex: "desc" }],
    select: { payer: true, blockTime: true, depositAddress: true },
  });
  const closeAt = facts.link && w.lateReceived > 0n ? facts.link.expiresAt : null;
  const latePayer = payments.find((p) => p.depositAddress || !closeAt || p.blockTime > closeAt)?.payer;
  const payerOf: Record<keyof typeof due, string | null | undefined> = {
    excess: payments[0]?.payer,
    late: latePayer,
    underpaid: request.payer ?? payments.at(-1)?.payer,
  };
  const deposit = request.depositAddress;
  const warning = deposit?.autoReturnBlocked ?? (deposit && deposit.depositors.length > 1 ? SEVERAL_SENDERS : null);
  const made = await tx.refund.findMany({ where: { requestId, sender: "payee", reason: { in: ["excess", "late", "underpaid"] } } });
  // The cap: whatever the payee already refunds (a `requested` refund too) is not offered again.
  let cap = (await readLedger(tx, requestId)).refundable;
  const out: Refund[] = [];
  for (const reason of ["excess", "underpaid", "late"] as const) {
    const mine = made.filter((r) => r.reason === reason);
    const owed = due[reason] - mine.reduce((s, r) => s + units(r.amount), 0n);
    const more = owed < cap ? owed : cap;
    if (more <= 0n) continue;
    const to = payerOf[reason];
    // A refund to the payee would carry the payment's own reference (read as a new payment): none is offered.
    if (!to || sameAddress(to, request.payee)) continue;
    // A new row, never a bigger prepared one: a wallet may be signing that one's calldata for its amount.
    out.push(await insertRefund(tx, request, { to, amount: more, reason, sender: "payee", warning }));
    cap -= more;
  }
  return out;
}

/** What is due back per cause, from a request's facts and its expected amount. */
function dueOf(facts: LabelFacts, expected: bigint, at: Date): Record<Exclude<RefundReason, "requested">, bigint> {
  const w = wrongAmountOf(facts, at);
  return {
    excess: w.onTimeReceived > expected ? w.onTimeReceived - expected : 0n,
    late: w.lateReceived,
    underpaid: w.closed && w.onTimeReceived > 0n && w.onTimeReceived < expected ? w.onTimeReceived : 0n,
  };
}

const anyDue = (due: Record<string, bigint>) => Object.values(due).some((v) => v > 0n);

/**
 * Links that expired short: offers each of their partly paid requests' underpaid amount (offerWrongAmounts),
 * for links expired within 30 days that have no underpaid offer yet, something left to refund (a refund the
 * payee made by hand is not offered again) and whose policy is not `keep`. Run by
 * the expiry sweep after it expires links; safe to repeat (an offer is made once) and after a crash.
 */
export async function offerUnderpaidOfExpiredLinks(limit = 100): Promise<number> {
  const rows = await db().$queryRaw<{ id: string }[]>`
    SELECT pr.id FROM "PaymentRequest" pr
    JOIN "SecurePaymentRequest" spr ON spr."requestId" = pr.id
    JOIN "SecurePayment" sp ON sp.token = spr."securePaymentToken"
    JOIN "Account" a ON a.id = pr."accountId"
    WHERE sp.status = 'expired' AND sp."expiresAt" > now() - interval '30 days'
      AND pr.kind = 'request' AND NOT pr."isConversion"
      AND pr."amountPaid" > 0 AND pr."amountPaid" < pr."expectedAmount"
      AND COALESCE(sp."excessPolicy", a."excessPolicy") <> 'keep'
      AND NOT EXISTS (SELECT 1 FROM "Refund" r WHERE r."requestId" = pr.id AND r.sender = 'payee' AND r.reason = 'underpaid')
      AND (SELECT COALESCE(SUM(r.amount), 0) FROM "Refund" r WHERE r."requestId" = pr.id AND r.sender = 'payee' AND r.status <> 'cancelled')
        < (SELECT COALESCE(SUM(p.amount), 0) FROM "Payment" p WHERE p."requestId" = pr.id)
    ORDER BY sp."expiresAt" DESC
    LIMIT ${limit}`;
  let offered = 0;
  for (const { id } of rows) {
    try {
      offered += (await db().$transaction((tx) => offerWrongAmounts(tx, id))).length;
    } catch (err) {
      log.warn("offering an underpaid refund failed", { requestId: id, err });
    }
  }
  return offered;
}
