import { recordAudit } from "@/lib/audit";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import type { ExcessPolicy } from "@/lib/generated/prisma/client";

/**
 * Sets the account's wrong-amount policy (lib/refunds/policy.ts): its links without their own follow it
 * from then on, links already paid included (an offer is made when money arrives). Audited.
 */
export async function setAccountExcessPolicy(accountId: string, policy: ExcessPolicy, actor: string): Promise<ExcessPolicy> {
  return db().$transaction(async (tx) => {
    const before = await tx.account.findUnique({ where: { id: accountId }, select: { excessPolicy: true } });
    if (!before) throw notFound("Account not found");
    if (before.excessPolicy === policy) return policy;
    await tx.account.update({ where: { id: accountId }, data: { excessPolicy: policy } });
    await recordAudit(
      { actor, action: "account.excess_policy", target: accountId, accountId, details: { from: before.excessPolicy, to: policy } },
      tx,
    );
    return policy;
  });
}

/** The account's wrong-amount policy (Settings shows it). */
export async function accountExcessPolicy(accountId: string): Promise<ExcessPolicy> {
  const row = await db().account.findUnique({ where: { id: accountId }, select: { excessPolicy: true } });
  if (!row) throw notFound("Account not found");
  return row.excessPolicy;
}
