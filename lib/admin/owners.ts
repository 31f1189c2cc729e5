import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";

export type CredentialKind = "orchestratorKey" | "apiKey" | "clientId";

/** The account a credential belongs to (the audit log records it with every operator change). */
export async function credentialOwner(kind: CredentialKind, id: string): Promise<string> {
  const row =
    kind === "orchestratorKey"
      ? await db().orchestratorKey.findUnique({ where: { id }, select: { accountId: true } })
      : kind === "apiKey"
        ? await db().apiKey.findUnique({ where: { id }, select: { accountId: true } })
        : await db().clientId.findUnique({ where: { id }, select: { accountId: true } });
  if (!row) throw notFound("Not found");
  return row.accountId;
}

/** The account a user belongs to. */
export async function userOwner(userId: string): Promise<string> {
  const user = await db().user.findUnique({ where: { id: userId }, select: { accountId: true } });
  if (!user) throw notFound("User not found");
  return user.accountId;
}
