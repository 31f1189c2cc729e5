import { loginThrottleKey } from "@/lib/auth/sign-in/email";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";

/** One account as an operator sees it: branding, fees, users (with live sessions), keys, client IDs. */
export async function accountForAdmin(accountId: string) {
  const account = await db().account.findUnique({
    where: { id: accountId },
    select: {
      id: true,
      name: true,
      logoUrl: true,
      createdAt: true,
      // The account's own fees (not an orchestrator's per-client overrides): what `fee:set` sets.
      feeConfigs: { where: { active: true, clientId: null }, orderBy: { flow: "asc" } },
      users: {
        select: {
          id: true,
          email: true,
          walletAddress: true,
          isAdmin: true,
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
  // Sign-in lockouts are kept per email (LoginThrottle), not on the user.
  const keys = new Map(account.users.flatMap((u) => (u.email ? [[loginThrottleKey(u.email), u.id] as const] : [])));
  const throttles = keys.size
    ? await db().loginThrottle.findMany({ where: { emailKey: { in: [...keys.keys()] } }, select: { emailKey: true, lockedUntil: true } })
    : [];
  const lockedUntil = new Map(throttles.map((t) => [keys.get(t.emailKey), t.lockedUntil]));
  return { ...account, users: account.users.map((u) => ({ ...u, lockedUntil: lockedUntil.get(u.id) ?? null })) };
}
