import { recordAudit } from "@/lib/audit";
import { now, nowMs } from "@/lib/clock";
import { db } from "@/lib/db";
import { AppError, notFound } from "@/lib/errors";
import { linkStatus } from "@/lib/payments/link-status";

/**
 * A merchant cancels one of its payment links (the dashboard's links page). The interface names no
 * cancel operation and no `cancelled` state (docs/spec/service-interface.md: pending, completed,
 * expired, invalidated, compliance_failed), so a cancelled link takes the interface's own
 * transition pending → expired, at once: `status = expired`, `expiresAt` = now, and `cancelledAt`
 * says it was the merchant. Every read path then refuses payment as for any expired link (the
 * hosted page shows it closed, `/pay` plans and deposit addresses answer 409), and the API reads
 * a plain `expired` link.
 *
 * Only a link nobody has paid anything into can be cancelled: a payment that arrived (in full or
 * in part) or a transaction the payer's wallet already submitted would leave the payer with money
 * sent to a link that no longer takes the rest. A payout inside a pending multicall batch is
 * cancelled by cancelling the batch (the batch could not be paid without it). Another account's
 * link reads as not found.
 */
interface CancelCheck {
  /** The link's status by the expiry rule (linkStatus). */
  status: string;
  intentTxHash: string | null;
  /** The link's requests (a multicall parent: its children's). */
  requests: readonly { status: string; amountPaid: { gt(n: number): boolean } }[];
  /** The multicall parents the link was selected into. */
  parents: readonly { token: string; status: string; expiresAt: Date }[];
  /** A Safe payer's recorded transaction (lib/secure-payments/safe.ts): it holds the link until its deadline. */
  safeIntent?: { deadline: Date } | null;
}

/** Why the link cannot be cancelled now, in words for the merchant; null when it can. */
export function cancelRefusal(link: CancelCheck, at: number = nowMs()): string | null {
  if (link.status !== "pending") return `This payment link is ${link.status.replace("_", " ")}: only a pending link can be cancelled`;
  if (link.requests.some((r) => r.status !== "pending" || r.amountPaid.gt(0)))
    return "A payment has already been received on this link: it can no longer be cancelled";
  if (link.intentTxHash)
    return "The payer has already sent a payment transaction for this link: wait until it is confirmed or the link expires";
  if (link.safeIntent && link.safeIntent.deadline.getTime() > at)
    return `The payer's Safe transaction for this link awaits its owners: wait until it is confirmed or ${link.safeIntent.deadline.toISOString()}`;
  const parent = link.parents.find((p) => linkStatus(p, [{ status: "pending" }], at) === "pending");
  if (parent) return `This payout is part of the pending multicall batch ${parent.token}: cancel the batch instead`;
  return null;
}

export async function cancelSecurePayment(accountId: string, token: string, actor: string): Promise<{ token: string; cancelledAt: Date }> {
  return db().$transaction(async (tx) => {
    // The row lock orders this against a concurrent cancel or settlement of the same link.
    const locked = await tx.$queryRaw<{ token: string }[]>`
      SELECT token FROM "SecurePayment" WHERE token = ${token} AND "accountId" = ${accountId} FOR UPDATE`;
    if (locked.length === 0) throw notFound("Payment link not found");
    const sp = await tx.securePayment.findUniqueOrThrow({
      where: { token },
      include: {
        requests: { select: { request: { select: { status: true, amountPaid: true } } } },
        multicallChildren: {
          select: { child: { select: { requests: { select: { request: { select: { status: true, amountPaid: true } } } } } } },
        },
        multicallParents: { select: { parent: { select: { token: true, status: true, expiresAt: true } } } },
        safeIntent: { select: { deadline: true } },
      },
    });
    const requests = (sp.paymentType === "multicall" ? sp.multicallChildren.flatMap((c) => c.child.requests) : sp.requests).map(
      (r) => r.request,
    );
    const at = now();
    const refusal = cancelRefusal(
      { ...sp, status: linkStatus(sp, requests, at.getTime()), requests, parents: sp.multicallParents.map((m) => m.parent) },
      at.getTime(),
    );
    if (refusal) throw new AppError("conflict", refusal);
    await tx.securePayment.update({ where: { token }, data: { status: "expired", expiresAt: at, cancelledAt: at } });
    await recordAudit({ actor, action: "secure_payment.cancel", target: token, accountId }, tx);
    return { token, cancelledAt: at };
  });
}
