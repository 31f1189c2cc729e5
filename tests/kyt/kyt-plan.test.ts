/**
 * The link intent's screening plan (issue 24, item 2): a plan may name only the screening
 * providers this deployment has (the sanctions list always; Chainalysis when its key is set), else
 * 400 naming the field; the orchestrator's plan, or the platform's choice on the hosted page,
 * decides which screening runs for the links of the client ID onboarding created. On the devnet:
 * the same payer wallet pays links of differently onboarded platforms. The payer is put on the
 * sanctions list (a KYT_SANCTIONS_DIR list file), Chainalysis is replayed from its recorded
 * answers, so each result shows which provider screened.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPublicClient, http, type PublicClient } from "viem";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as completeOnboarding } from "@/app/v2/onboarding/complete/route";
import { POST as createLinkIntent } from "@/app/v2/orchestrators/client-id-link-intents/route";
import { POST as createDestination } from "@/app/v2/payee-destination/route";
import { POST as createPayoutLink } from "@/app/v2/secure-payments/payouts/route";
import { POST as createLink, GET as getSecurePayment } from "@/app/v2/secure-payments/route";
import { createSession } from "@/lib/auth/sessions";
import { db } from "@/lib/db";
import { reloadEnv } from "@/lib/env";
import { prefixedId } from "@/lib/ids";
import { getOnboardingPage } from "@/lib/orchestrators/onboarding-page";
import type { Devnet } from "@/scripts/devnet";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { payLinkOnDevnet } from "@/tests/helpers/pay-link";
import { fixture, replayFetch } from "@/tests/helpers/replay-fetch";

type Integrator = Awaited<ReturnType<typeof makeIntegrator>>;
let devnet: Devnet;
let pub: PublicClient;
let listDir: string;
let orch: Integrator;
/** What the replayed Chainalysis answers next, and the addresses it was asked about. */
let chainalysisAnswer = "address-clear";
const chainalysisCalls: string[] = [];

beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) }) as PublicClient;
  listDir = mkdtempSync(path.join(tmpdir(), "duebill-sdn-"));
  writeFileSync(path.join(listDir, "sanctioned_addresses_ETH.txt"), `# test list\n${devnet.accounts.payer.address}\n`);
}, 60_000);
afterAll(async () => {
  rmSync(listDir, { recursive: true, force: true });
  await stopDevnet(devnet);
});

function configure(withChainalysis: boolean) {
  process.env.KYT_SANCTIONS_DIR = listDir;
  if (withChainalysis) {
    process.env.CHAINALYSIS_API_KEY = "ch-key";
    process.env.CHAINALYSIS_API_URL = "https://chainalysis.test";
  } else delete process.env.CHAINALYSIS_API_KEY;
  reloadEnv();
}

beforeEach(async () => {
  await resetDb();
  orch = await makeIntegrator();
  chainalysisAnswer = "address-clear";
  chainalysisCalls.length = 0;
  const r = replayFetch((req) => {
    chainalysisCalls.push(req.url.pathname.split("/").pop()!);
    return fixture("chainalysis", chainalysisAnswer);
  });
  // Chainalysis is replayed; the devnet's JSON-RPC (viem's fetch) goes through.
  const real = globalThis.fetch;
  vi.stubGlobal("fetch", (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    return url.hostname === "chainalysis.test" ? r.fetch(input, init) : real(input, init);
  });
  configure(true);
});
afterEach(() => {
  vi.unstubAllGlobals();
  for (const k of ["KYT_SANCTIONS_DIR", "CHAINALYSIS_API_KEY", "CHAINALYSIS_API_URL"]) delete process.env[k];
  reloadEnv();
});

const intent = (json: unknown) =>
  call(createLinkIntent, "/v2/orchestrators/client-id-link-intents", {
    method: "POST",
    headers: { "x-orchestrator-key": orch.orchestratorKey },
    json: { clientIdName: "Shop", ...(json as object) },
  });

/** A platform onboarded through an intent with `plan` (or its own `choice`): its new client ID. */
async function onboard(payee: `0x${string}`, plan?: unknown, choice?: string): Promise<string> {
  const platform = await makeIntegrator();
  const session = await walletSessionToken(platform.account.id, payee);
  const dest = await call(createDestination, "/v2/payee-destination", {
    method: "POST",
    headers: { authorization: `Bearer ${session}` },
    json: { currency: "USDC-sepolia", walletAddress: payee },
  });
  expect(dest.status, JSON.stringify(dest.body)).toBe(201);
  const created = await intent(plan ? { kyt: plan } : {});
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const token = new URL(created.body.url).searchParams.get("token")!;
  const done = await call(completeOnboarding, "/v2/onboarding/complete", {
    method: "POST",
    headers: { authorization: `Bearer ${session}` },
    json: { token, ...(choice ? { kyt: choice } : {}) },
  });
  expect(done.status, JSON.stringify(done.body)).toBe(201);
  return done.body.clientId;
}

/** The orchestrator makes a link for the platform, the devnet payer pays it; the link as its owner reads it. */
async function payLinkOf(clientId: string) {
  const created = await call(createLink, "/v2/secure-payments", {
    method: "POST",
    headers: { "x-orchestrator-key": orch.orchestratorKey, "x-client-id": clientId },
    json: { requests: [{ amount: "2" }] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await payLinkOnDevnet(devnet, pub, created.body.token);
  const owner = await db().clientId.findUniqueOrThrow({ where: { id: clientId } });
  const user = await db().user.create({
    data: { id: prefixedId("usr_"), accountId: owner.accountId, email: `${prefixedId("u")}@example.com` },
  });
  const session = (await createSession(user, "email")).token;
  const sp = await call(getSecurePayment, `/v2/secure-payments?requestId=${created.body.requestIds[0]}`, {
    headers: { authorization: `Bearer ${session}` },
  });
  expect(sp.status, JSON.stringify(sp.body)).toBe(200);
  return sp.body;
}

const payer = () => devnet.accounts.payer.address;

describe("link-intent screening plans name only this deployment's providers", () => {
  it.each([
    [{ providers: [{ provider: "hypernative" }] }, "kyt.providers.0.provider"],
    [{ providers: [{ provider: "duebill-sanctions" }, { provider: "merklescience" }] }, "kyt.providers.1.provider"],
    [{ providers: [] }, "kyt.providers"],
  ])("%j is refused with 400 naming %s", async (kyt, field) => {
    const res = await intent({ kyt });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.errors[0]).toMatchObject({
      field,
      message: expect.stringMatching(/not a screening provider of this deployment|one or two/),
    });
  });

  it("chainalysis is a provider only where its key is configured; the reference's shape (policyId) is kept", async () => {
    const ok = await intent({ kyt: { providers: [{ provider: "chainalysis", policyId: "3f1c2b9e-7a4d-4c1e-9b2a-5d6e7f8a9b0c" }] } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    configure(false);
    const refused = await intent({ kyt: { providers: [{ provider: "chainalysis" }] } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({
      field: "kyt.providers.0.provider",
      message: expect.stringContaining("use duebill-sanctions"),
    });
  });

  it("the platform's own choice must be a provider of this deployment (400 naming kyt)", async () => {
    const platform = await makeIntegrator();
    const session = await walletSessionToken(platform.account.id, devnet.accounts.payee.address);
    await call(createDestination, "/v2/payee-destination", {
      method: "POST",
      headers: { authorization: `Bearer ${session}` },
      json: { currency: "USDC-sepolia", walletAddress: devnet.accounts.payee.address },
    });
    const token = new URL((await intent({})).body.url).searchParams.get("token")!;
    const res = await call(completeOnboarding, "/v2/onboarding/complete", {
      method: "POST",
      headers: { authorization: `Bearer ${session}` },
      json: { token, kyt: "merklescience" },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("kyt");
  });

  it("the onboarding page offers and names only configured providers", async () => {
    const token = new URL((await intent({})).body.url).searchParams.get("token")!;
    const page = await getOnboardingPage(token);
    expect(page?.kytChoices.map((p) => p.id)).toEqual(["duebill-sanctions", "chainalysis"]);
    configure(false);
    expect((await getOnboardingPage(token))?.kytChoices.map((p) => p.id)).toEqual(["duebill-sanctions"]);
    expect(JSON.stringify(await getOnboardingPage(token))).not.toMatch(/hypernative|merkle/i);
  });
});

describe("screening follows the plan of the link's client ID", () => {
  it("the platform chose the sanctions list: the listed payer is rejected by it, Chainalysis is never asked", async () => {
    const clientId = await onboard(devnet.accounts.payee.address, undefined, "duebill-sanctions");
    const sp = await payLinkOf(clientId);
    expect(sp.status).toBe("compliance_failed");
    expect(sp.payerKytResults).toEqual([
      expect.objectContaining({
        walletAddress: payer(),
        status: "rejected",
        provider: "duebill-sanctions-list",
        reasonCode: "sanctioned_address",
      }),
    ]);
    expect(chainalysisCalls).toEqual([]);
  });

  it("the platform chose Chainalysis: Chainalysis screens the same payer (answering clear here), the list does not", async () => {
    const clientId = await onboard(devnet.accounts.payee.address, undefined, "chainalysis");
    const sp = await payLinkOf(clientId);
    expect(chainalysisCalls).toEqual([payer()]);
    expect(sp.status).toBe("completed");
    expect(sp.payerKytResults).toEqual([expect.objectContaining({ walletAddress: payer(), status: "approved", provider: "chainalysis" })]);
  });

  it("the orchestrator's plan [chainalysis, duebill-sanctions]: Chainalysis rejects on its own answer; on its outage the backup screens", async () => {
    const clientId = await onboard(devnet.accounts.payee.address, {
      providers: [{ provider: "chainalysis" }, { provider: "duebill-sanctions" }],
    });
    chainalysisAnswer = "address-sanctioned";
    const flagged = await payLinkOf(clientId);
    expect(flagged.payerKytResults[0]).toMatchObject({ status: "rejected", provider: "chainalysis", rawStatus: "sanctions" });

    chainalysisAnswer = "server-error-503";
    const backup = await payLinkOf(clientId);
    expect(backup.status).toBe("compliance_failed");
    expect(backup.payerKytResults[0]).toMatchObject({ provider: "duebill-sanctions-list", reasonCode: "sanctioned_address" });
  });

  it("a plan of Chainalysis alone, Chainalysis down: the link stays pending (fail closed), and an outgoing link is refused with 503", async () => {
    const clientId = await onboard(devnet.accounts.payee.address, { providers: [{ provider: "chainalysis" }] });
    chainalysisAnswer = "server-error-503";
    const sp = await payLinkOf(clientId);
    expect(sp).toMatchObject({ status: "pending", payerKytResults: [] });
    const payout = await call(createPayoutLink, "/v2/secure-payments/payouts", {
      method: "POST",
      headers: { "x-orchestrator-key": orch.orchestratorKey, "x-client-id": clientId },
      json: {
        recipient: devnet.accounts.feeRecipient.address,
        creatorWalletAddress: payer(),
        network: "sepolia",
        currency: "USDC-sepolia",
        amount: "5",
      },
    });
    expect(payout.status, JSON.stringify(payout.body)).toBe(503);
  });

  it("links of a client ID without a plan keep the deployment's default screening (KYT_PROVIDER: the sanctions list here)", async () => {
    const a = await makeIntegrator();
    const session = await walletSessionToken(a.account.id, devnet.accounts.payee.address);
    await call(createDestination, "/v2/payee-destination", {
      method: "POST",
      headers: { authorization: `Bearer ${session}` },
      json: { currency: "USDC-sepolia", walletAddress: devnet.accounts.payee.address },
    });
    const created = await call(createLink, "/v2/secure-payments", {
      method: "POST",
      headers: { "x-client-id": a.clientId },
      json: { requests: [{ amount: "2" }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await payLinkOnDevnet(devnet, pub, created.body.token);
    const row = await db().securePayment.findUniqueOrThrow({ where: { token: created.body.token } });
    expect(row.status).toBe("compliance_failed");
    expect(row.payerKytResults).toEqual([
      expect.objectContaining({ provider: "duebill-sanctions-list", reasonCode: "sanctioned_address" }),
    ]);
  });
});

describe("a link's accessPolicy.screeningProvider chooses among this deployment's providers", () => {
  async function platformWithDestination(): Promise<Integrator> {
    const a = await makeIntegrator();
    const session = await walletSessionToken(a.account.id, devnet.accounts.payee.address);
    const dest = await call(createDestination, "/v2/payee-destination", {
      method: "POST",
      headers: { authorization: `Bearer ${session}` },
      json: { currency: "USDC-sepolia", walletAddress: devnet.accounts.payee.address },
    });
    expect(dest.status, JSON.stringify(dest.body)).toBe(201);
    return a;
  }
  const linkWith = (a: Integrator, accessPolicy: unknown) =>
    call(createLink, "/v2/secure-payments", {
      method: "POST",
      headers: { "x-api-key": a.apiKey },
      json: { requests: [{ amount: "2" }], accessPolicy },
    });

  it.each(["hypernative", "merklescience"])(
    "the reference's vendor %s is refused by name (400 naming accessPolicy.screeningProvider)",
    async (vendor) => {
      const a = await platformWithDestination();
      const res = await linkWith(a, { mode: "kyt_all_wallets", screeningProvider: vendor });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.errors[0]).toMatchObject({
        field: "accessPolicy.screeningProvider",
        message: expect.stringContaining("not a screening provider of this deployment"),
      });
    },
  );

  it("chainalysis is refused where its key is not configured", async () => {
    configure(false);
    const a = await platformWithDestination();
    const res = await linkWith(a, { mode: "kyt_all_wallets", screeningProvider: "chainalysis" });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("accessPolicy.screeningProvider");
  });

  it("screeningProvider: chainalysis screens the listed payer with Chainalysis instead of the default list", async () => {
    const a = await platformWithDestination();
    const created = await linkWith(a, { mode: "kyt_all_wallets", screeningProvider: "chainalysis" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await payLinkOnDevnet(devnet, pub, created.body.token);
    const sp = await call(getSecurePayment, `/v2/secure-payments?requestId=${created.body.requestIds[0]}`, {
      headers: { authorization: `Bearer ${await walletSessionToken(a.account.id, devnet.accounts.payee.address)}` },
    });
    expect(chainalysisCalls).toEqual([payer()]);
    expect(sp.body.status).toBe("completed");
    expect(sp.body.payerKytResults).toEqual([
      expect.objectContaining({ walletAddress: payer(), status: "approved", provider: "chainalysis" }),
    ]);
  });

  it("screeningProvider: duebill-sanctions screens with the list (the listed payer is rejected)", async () => {
    const a = await platformWithDestination();
    const created = await linkWith(a, { mode: "kyt_all_wallets", screeningProvider: "duebill-sanctions" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await payLinkOnDevnet(devnet, pub, created.body.token);
    const sp = await call(getSecurePayment, `/v2/secure-payments?requestId=${created.body.requestIds[0]}`, {
      headers: { authorization: `Bearer ${await walletSessionToken(a.account.id, devnet.accounts.payee.address)}` },
    });
    expect(sp.body.status).toBe("compliance_failed");
    expect(sp.body.payerKytResults[0]).toMatchObject({ provider: "duebill-sanctions-list", reasonCode: "sanctioned_address" });
    expect(chainalysisCalls).toEqual([]);
  });
});
