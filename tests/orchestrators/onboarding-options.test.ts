/**
 * The hosted onboarding offers only the networks and tokens this deployment watches (issue 27:
 * 14 options on an instance that watches Sepolia), and completing an onboarding onto a destination
 * on an unwatched network is refused (400 naming `destination`).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as completeOnboarding } from "@/app/v2/onboarding/complete/route";
import { POST as createDestination } from "@/app/v2/payee-destination/route";
import { resetChainConfig } from "@/lib/chain/config";
import { watchedNetworks } from "@/lib/chain/watched";
import { resetCurrencyRegistry } from "@/lib/currencies/registry";
import { reloadEnv } from "@/lib/env";
import { createLinkIntent } from "@/lib/orchestrators/link-intents";
import { getOnboardingPage } from "@/lib/orchestrators/onboarding-page";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

const PAYEE = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const VARS = [
  "CHAIN_CONFIG",
  "TRON_API_URL",
  ...["MAINNET", "ARBITRUM_ONE", "OPTIMISM", "BASE", "MATIC", "BSC", "SEPOLIA"].map((n) => `RPC_URL_${n}`),
];
const saved = Object.fromEntries(VARS.map((k) => [k, process.env[k]]));

/** A deployment configured with exactly these variables (no RPC anywhere else). */
function deployment(vars: Record<string, string>) {
  for (const k of VARS) delete process.env[k];
  Object.assign(process.env, vars);
  reloadEnv();
  resetChainConfig();
  resetCurrencyRegistry();
}

async function invitation() {
  const orch = await makeIntegrator();
  const { url } = await createLinkIntent(orch.account.id, { clientIdName: "Studio" });
  const token = new URL(url).searchParams.get("token")!;
  return { orch, token, page: (await getOnboardingPage(token))! };
}

beforeEach(resetDb);
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  reloadEnv();
  resetChainConfig();
  resetCurrencyRegistry();
});

describe("onboarding options", () => {
  it("a Sepolia-only deployment offers only Sepolia's USDC and USDT, and signs in on Sepolia", async () => {
    deployment({ CHAIN_CONFIG: JSON.stringify({ sepolia: { rpcUrl: "https://sepolia.rpc.example" } }) });
    expect(watchedNetworks().map((rt) => rt.network.id)).toEqual(["sepolia"]);
    const { page } = await invitation();
    expect(page.currencies).toEqual([
      { id: "USDC-sepolia", label: "USDC on Sepolia", network: "sepolia", kind: "evm" },
      { id: "USDT-sepolia", label: "USDT on Sepolia", network: "sepolia", kind: "evm" },
    ]);
    expect(page.wallet).toMatchObject({ chainId: 11155111, testnet: true, rpcUrl: null });
  });

  it("offers each watched network's tokens (RPC_URL_* and Tron's API), none of an unwatched one", async () => {
    deployment({ RPC_URL_BASE: "https://base.rpc.example", TRON_API_URL: "https://tron.api.example" });
    const { page } = await invitation();
    expect(page.currencies.map((c) => c.id)).toEqual(["USDC-base", "USDT-base", "USDC-tron", "USDT-tron"]);
    expect(page.wallet.chainId).toBe(8453);
    deployment({});
    expect((await invitation()).page.currencies).toEqual([]);
  });

  it("refuses to complete onto a destination on a network the deployment does not watch (400 naming destination)", async () => {
    deployment({ CHAIN_CONFIG: JSON.stringify({ sepolia: { rpcUrl: "https://sepolia.rpc.example" } }) });
    const { token } = await invitation();
    const platform = await makeIntegrator();
    const session = await walletSessionToken(platform.account.id, PAYEE);
    const auth = { authorization: `Bearer ${session}` };
    const dest = await call(createDestination, "/v2/payee-destination", {
      method: "POST",
      headers: auth,
      json: { currency: "USDC-base", walletAddress: PAYEE },
    });
    expect(dest.status, JSON.stringify(dest.body)).toBe(201);
    const refused = await call(completeOnboarding, "/v2/onboarding/complete", { method: "POST", headers: auth, json: { token } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: "validation_failed",
      errors: [{ field: "destination", message: expect.stringContaining("USDC on base is not a network this service watches (Sepolia)") }],
    });
    // On a watched network it completes.
    await call(createDestination, "/v2/payee-destination", {
      method: "POST",
      headers: auth,
      json: { currency: "USDC-sepolia", walletAddress: PAYEE },
    });
    const done = await call(completeOnboarding, "/v2/onboarding/complete", { method: "POST", headers: auth, json: { token } });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
  });
});
