import { revokeApiKey } from "@/lib/accounts/issue-credentials";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";

/**
 * The dashboard's view of an account's own API keys: every read and write names the account in
 * its WHERE, so another account's key is "not found", exactly like a missing one.
 */
export function listOwnApiKeys(accountId: string) {
  return db().apiKey.findMany({
    where: { accountId },
    orderBy: { createdAt: "desc" },
    select: { id: true, name: true, prefix: true, rateTier: true, createdAt: true, revokedAt: true },
  });
}

/** Revokes one of the account's active API keys. */
export async function revokeOwnApiKey(accountId: string, id: string): Promise<void> {
  const own = await db().apiKey.findFirst({ where: { id, accountId, revokedAt: null }, select: { id: true } });
  if (!own) throw notFound("API key not found");
  await revokeApiKey(own.id);
}
