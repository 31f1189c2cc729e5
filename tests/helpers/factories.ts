import { createAccount, createApiKey, createClientId, createOrchestratorKey } from "@/lib/accounts/issue-credentials";

let n = 0;

export async function makeAccount(name?: string) {
  n += 1;
  return createAccount(name ?? `Test account ${n}`);
}

/** An account with an API key, a backend client ID and a browser client ID. */
export async function makeIntegrator(opts: { domains?: string[] } = {}) {
  const account = await makeAccount();
  const apiKey = await createApiKey(account.id);
  const backend = await createClientId(account.id, { name: "backend" });
  const browser = await createClientId(account.id, { name: "browser", allowedDomains: opts.domains ?? ["https://shop.example"] });
  const orchestrator = await createOrchestratorKey(account.id);
  return {
    account,
    apiKey: apiKey.secret,
    apiKeyId: apiKey.id,
    clientId: backend.clientId,
    browserClientId: browser.clientId,
    orchestratorKey: orchestrator.secret,
  };
}

/**
 * A session of a wallet user of `accountId` (as after wallet sign-in): the proof of control a
 * payee destination needs for that wallet. EVM addresses are stored lowercased, Tron as is.
 */
export async function walletSessionToken(accountId: string, walletAddress: string): Promise<string> {
  const { db } = await import("@/lib/db");
  const { prefixedId } = await import("@/lib/ids");
  const { createSession } = await import("@/lib/auth/sessions");
  const stored = walletAddress.startsWith("0x") ? walletAddress.toLowerCase() : walletAddress;
  const user =
    (await db().user.findUnique({ where: { walletAddress: stored } })) ??
    (await db().user.create({ data: { id: prefixedId("usr_"), accountId, walletAddress: stored } }));
  return (await createSession(user, "wallet")).token;
}
