import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { prefixedId } from "@/lib/ids";

/**
 * The audit log (AdminAuditEntry): who did what to which object, when. Operators' actions are
 * recorded through lib/admin/audit.ts; changes of trust between accounts (an orchestrator
 * linking a platform's client ID, either side ending it) are recorded here too, in the same
 * transaction as the change when one is given.
 */
export interface AuditInput {
  /** Who: "user:<id> <email or wallet>", "cli", or a credential (`principalKey`: "orchestratorKey:<id>", "session:<userId>", …). */
  actor: string;
  /** e.g. orchestrator_key.issue, client_id.restrict, client_id.orchestrator_link, client_id.orchestrator_unlink */
  action: string;
  /** The object acted on (an ID). */
  target: string;
  /** The account the object belongs to, when there is one. */
  accountId?: string | null;
  details?: Prisma.InputJsonValue;
}

export async function recordAudit(input: AuditInput, tx: Prisma.TransactionClient = db()): Promise<void> {
  await tx.adminAuditEntry.create({
    data: {
      id: prefixedId("adm_"),
      actor: input.actor,
      action: input.action,
      target: input.target,
      accountId: input.accountId ?? null,
      details: input.details,
    },
  });
}
