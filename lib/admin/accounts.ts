import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";

/** Accounts with their users and how many credentials and requests each has. */
export async function listAccounts(take = 200) {
  const rows = await db().account.findMany({
    orderBy: { createdAt: "desc" },
    take,
    select: {
      id: true,
      name: true,
      createdAt: true,
      users: { select: { email: true, walletAddress: true } },
      _count: { select: { apiKeys: true, clientIds: true, orchestratorKeys: true, requests: true } },
    },
  });
  return rows;
}

/** One account as an operator sees it: users (with live sessions), keys, client IDs. */
export async function accountForAdmin(accountId: string) {
  const account = await db().account.findUnique({
    where: { id: accountId },
    select: {
      id: true,
      name: true,
      createdAt: true,
      users: {
        select: {
          id: true,
          email: true,
          walletAddress: true,
          isAdmin: true,
          lockedUntil: true,
          _count: { select: { sessions: { where: { revokedAt: null, expiresAt: { gt: new Date() } } } } },
        },
      },
      apiKeys: {
        select: { id: true, name: true, prefix: true, rateTier: true, createdAt: true, revokedAt: true },
        orderBy: { createdAt: "desc" },
      },
      orchestratorKeys: {
        select: { id: true, name: true, prefix: true, rateTier: true, createdAt: true, revokedAt: true },
        orderBy: { createdAt: "desc" },
      },
      clientIds: { orderBy: { createdAt: "desc" } },
    },
  });
  if (!account) throw notFound("Account not found");
  return account;
}
