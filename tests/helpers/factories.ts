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
