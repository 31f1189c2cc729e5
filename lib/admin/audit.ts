import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { prefixedId } from "@/lib/ids";

export interface AuditInput {
  actor: string;
  action: string;
  target: string;
  accountId?: string | null;
  details?: Prisma.InputJsonValue;
}

/** Records one operator action (who, what, on what, when). */
export async function recordAdminAction(input: AuditInput): Promise<void> {
  await db().adminAuditEntry.create({
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

/**
 * Runs an operator action and records it; a refused action (an error) is recorded too, with the
 * reason, so the log shows attempts as well as changes.
 */
export async function audited<T>(input: AuditInput, run: () => Promise<T>): Promise<T> {
  try {
    const result = await run();
    await recordAdminAction(input);
    return result;
  } catch (err) {
    await recordAdminAction({
      ...input,
      action: `${input.action}.refused`,
      details: { ...((input.details as object | undefined) ?? {}), error: err instanceof Error ? err.message.slice(0, 300) : String(err) },
    }).catch(() => undefined);
    throw err;
  }
}

export async function listAdminActions(take = 100) {
  const rows = await db().adminAuditEntry.findMany({ orderBy: { createdAt: "desc" }, take });
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}
