import { type AuditInput, recordAudit } from "@/lib/audit";
import { db } from "@/lib/db";

export type { AuditInput };

/** Records one operator action (who, what, on what, when). */
export async function recordAdminAction(input: AuditInput): Promise<void> {
  await recordAudit(input);
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
