/**
 * Orchestrators (issue 12): client-ID linking (one orchestrator per client ID, enforced by the
 * database under 20 concurrent attempts; unlinked → never again), link intents and their
 * validation, finishing onboarding exactly once, and secure payments for linked client IDs
 * (x-client-id alone → 403; both headers → the orchestrator's fee and branding).
 */
import { privateKeyToAccount } from "viem/accounts";
import { beforeEach, describe, expect, it } from "vitest";
import { POST as completeOnboarding } from "@/app/v2/onboarding/complete/route";
import { POST as createLinkIntent } from "@/app/v2/orchestrators/client-id-link-intents/route";
import { DELETE as unlink } from "@/app/v2/orchestrators/client-ids/[clientId]/route";
import { POST as linkClient, GET as listLinks } from "@/app/v2/orchestrators/client-ids/route";
import { POST as createDestination } from "@/app/v2/payee-destination/route";
import { GET as pageView } from "@/app/v2/secure-payments/[token]/route";
import { POST as createPayoutLink } from "@/app/v2/secure-payments/payouts/route";
import { POST as createLink } from "@/app/v2/secure-payments/route";
import { db } from "@/lib/db";
import { bindClientIdDestination } from "@/lib/destinations/destinations";
import { setFeeConfig } from "@/lib/fees/fee-config";
import { prefixedId } from "@/lib/ids";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { watching } from "@/tests/helpers/watched-env";

type Integrator = Awaited<ReturnType<typeof makeIntegrator>>;
let orch: Integrator;
let orch2: Integrator;
let platform: Integrator;
const FEE_WALLET = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const PAYEE = privateKeyToAccount("0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a").address;

beforeEach(async () => {
  await resetDb();
  [orch, orch2, platform] = await Promise.all([makeIntegrator(), makeIntegrator(), makeIntegrator()]);
});

const asOrch = (o: Integrator) => ({ "x-orchestrator-key": o.orchestratorKey });
const link = (o: Integrator, clientId: string) =>
  call(linkClient, "/v2/orchestrators/client-ids", { method: "POST", headers: asOrch(o), json: { clientId } });
const intent = (json: unknown, o: Integrator = orch) =>
  call(createLinkIntent, "/v2/orchestrators/client-id-link-intents", { method: "POST", headers: asOrch(o), json });

/** The platform's active destination (USDC on base), registered by a wallet session of the wallet itself. */
async function destinationOf(who: Integrator, wallet: string = PAYEE): Promise<{ destinationId: string; session: string }> {
  const session = await walletSessionToken(who.account.id, wallet);
  const res = await call(createDestination, "/v2/payee-destination", {
    method: "POST",
    headers: { authorization: `Bearer ${session}` },
    json: { currency: "USDC-base", walletAddress: wallet },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { destinationId: res.body.destinationId, session };
}

describe("client-ID linking", () => {
  it("links, says alreadyLinked for the same orchestrator, 409 for another, lists active links, unlinks for good", async () => {
    const first = await link(orch, platform.clientId);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ link: { clientId: platform.clientId, status: "active" }, alreadyLinked: false });
    const again = await link(orch, platform.clientId);
    expect(again.status).toBe(200);
    expect(again.body.alreadyLinked).toBe(true);
    const other = await link(orch2, platform.clientId);
    expect(other.status).toBe(409);
    expect(other.body.message).toMatch(/another orchestrator/);

    const list = await call(listLinks, "/v2/orchestrators/client-ids?page=1&limit=1", { headers: asOrch(orch) });
    expect(list.body).toMatchObject({ total: 1, page: 1, limit: 1, links: [{ clientId: platform.clientId, status: "active" }] });
    // Another orchestrator cannot end it, nor see it.
    expect((await call(unlink, "/x", { method: "DELETE", headers: asOrch(orch2), params: { clientId: platform.clientId } })).status).toBe(
      404,
    );
    expect((await call(listLinks, "/v2/orchestrators/client-ids", { headers: asOrch(orch2) })).body.total).toBe(0);

    const ended = await call(unlink, "/x", { method: "DELETE", headers: asOrch(orch), params: { clientId: platform.clientId } });
    expect(ended.status).toBe(200);
    expect(ended.body.link.status).toBe("unlinked");
    expect(await db().clientId.findUnique({ where: { id: platform.clientId } })).not.toBeNull();
    expect((await call(listLinks, "/v2/orchestrators/client-ids", { headers: asOrch(orch) })).body.total).toBe(0);
    for (const o of [orch, orch2]) {
      const relink = await link(o, platform.clientId);
      expect(relink.status).toBe(409);
      expect(relink.body.message).toMatch(/never be linked again/);
    }
  });

  it("two orchestrators × 10 concurrent attempts on one client ID: exactly one link", async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => link(i % 2 ? orch : orch2, platform.clientId)));
    const statuses = results.map((r) => r.status).sort();
    expect(await db().clientIdLink.count({ where: { clientId: platform.clientId } })).toBe(1);
    const row = await db().clientIdLink.findUniqueOrThrow({ where: { clientId: platform.clientId } });
    const winner = row.orchestratorAccountId === orch.account.id ? 1 : 0;
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 5 || s >= 500)).toHaveLength(0);
    results.forEach((r, i) => {
      if (i % 2 !== winner) expect(r.status).toBe(409);
      else expect([200, 201]).toContain(r.status);
    });
  });

  it("answers 400 for a malformed client ID, 404 for an unknown one, 401 without a key, 403 for other credentials", async () => {
    const bad = await link(orch, "not-a-client");
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("clientId");
    expect((await link(orch, "cli_doesnotexist")).status).toBe(404);
    expect((await call(linkClient, "/x", { method: "POST", json: { clientId: platform.clientId } })).status).toBe(401);
    const withApiKey = await call(linkClient, "/x", {
      method: "POST",
      headers: { "x-api-key": orch.apiKey },
      json: { clientId: platform.clientId },
    });
    expect(withApiKey.status).toBe(403);
    const withClientId = await call(linkClient, "/x", {
      method: "POST",
      headers: { "x-client-id": orch.clientId },
      json: { clientId: platform.clientId },
    });
    expect(withClientId.status).toBe(403);
  });
});

describe("link intents", () => {
  it("returns the onboarding URL and the intent, single use, 2 days", async () => {
    const res = await intent({
      clientIdName: "Acme shop",
      domains: ["https://shop.acme.test", "http://localhost:5173"],
      externalId: "acme-42",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.url).toMatch(/^http:\/\/localhost:3000\/onboarding\?token=[A-Za-z0-9_-]{43}$/);
    expect(res.body.intent).toMatchObject({ clientIdName: "Acme shop", externalId: "acme-42", used: false });
    const ttl = Date.parse(res.body.intent.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(2 * 86_400_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(2 * 86_400_000);
  });

  it.each([
    [{ domains: Array.from({ length: 11 }, (_, i) => `https://s${i}.example`) }, "domains"],
    [{ domains: ["https://a.example", "https://a.example"] }, "domains"],
    [{ domains: ["http://example.com"] }, "domains"],
    [{ domains: ["https://example.com/path"] }, "domains"],
    [{ kyt: { providers: [] } }, "kyt.providers"],
    [{ kyt: { providers: [{ provider: "chainalysis" }, { provider: "chainalysis" }] } }, "kyt.providers"],
    [{ kyt: { providers: [{ provider: "nobody" }] } }, "kyt.providers.0.provider"],
    [{ clientIdName: "" }, "clientIdName"],
  ])("rejects %j naming %s", async (patch, field) => {
    const res = await intent({ clientIdName: "Acme", ...patch });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe(field);
  });
});

describe("hosted onboarding completion", () => {
  // The platform's destination is USDC on base: a network this deployment must watch to onboard onto it.
  watching({ RPC_URL_BASE: "https://base.rpc.example" });
  async function openIntent(extra: Record<string, unknown> = {}) {
    const res = await intent({ clientIdName: "Acme shop", domains: ["https://shop.acme.test"], externalId: "acme-42", ...extra });
    return new URL(res.body.url).searchParams.get("token")!;
  }
  const complete = (session: string, token: string, json: Record<string, unknown> = {}) =>
    call(completeOnboarding, "/v2/onboarding/complete", {
      method: "POST",
      headers: { authorization: `Bearer ${session}` },
      json: { token, ...json },
    });

  it("creates one client ID with the intent's domains, linked and bound, and writes client_id.linked — however often it is finished", async () => {
    const token = await openIntent();
    const { destinationId, session } = await destinationOf(platform);
    const results = await Promise.all(Array.from({ length: 5 }, () => complete(session, token)));
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(201);
    const ids = new Set(results.map((r) => r.body.clientId));
    expect(ids.size).toBe(1);
    const clientId = [...ids][0] as string;
    const client = await db().clientId.findUniqueOrThrow({ where: { id: clientId }, include: { link: true } });
    expect(client).toMatchObject({
      accountId: platform.account.id,
      name: "Acme shop",
      allowedDomains: ["https://shop.acme.test"],
      boundDestinationId: destinationId,
    });
    expect(client.link).toMatchObject({ orchestratorAccountId: orch.account.id, status: "active" });
    const events = await db().outboxEvent.findMany({ where: { type: "client_id.linked" } });
    expect(events).toHaveLength(1);
    expect(events[0]!.accountId).toBe(orch.account.id);
    expect(JSON.parse(events[0]!.payload)).toMatchObject({
      event: "client_id.linked",
      clientId,
      orchestratorId: orch.account.id,
      linkId: client.link!.id,
      externalId: "acme-42",
      destinationId,
      destinationWalletAddress: PAYEE.toLowerCase(),
      network: "base",
      currency: "USDC",
    });
    // Another platform cannot reuse the used link.
    const { session: otherSession } = await destinationOf(orch2, FEE_WALLET);
    expect((await complete(otherSession, token)).status).toBe(409);
  });

  it("needs a destination, refuses an expired or unknown link, and a platform finishing its own orchestrator's intent", async () => {
    const token = await openIntent();
    const session = await walletSessionToken(platform.account.id, privateKeyToAccount(`0x${"12".repeat(32)}`).address);
    const noDest = await complete(session, token);
    expect(noDest.status).toBe(400);
    expect(noDest.body.errors[0].field).toBe("destination");
    expect((await complete(session, "x".repeat(43))).status).toBe(404);
    const expired = await openIntent();
    await db().linkIntent.updateMany({ where: { usedAt: null }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const { session: s2 } = await destinationOf(platform);
    expect((await complete(s2, expired)).status).toBe(409);
    expect((await complete(s2, "x")).status).toBe(404);
  });
});

describe("secure payments for linked client IDs", () => {
  async function linkedPlatform() {
    const { destinationId } = await destinationOf(platform);
    await bindClientIdDestination(platform.account.id, platform.clientId, destinationId);
    expect((await link(orch, platform.clientId)).status).toBe(201);
    return destinationId;
  }
  const create = (headers: Record<string, string>, json: unknown = { requests: [{ amount: "100" }] }) =>
    call(createLink, "/v2/secure-payments", { method: "POST", headers, json });

  it("x-client-id alone is refused (incoming and outgoing); both headers create the link with the orchestrator's fee and branding", async () => {
    const destinationId = await linkedPlatform();
    expect((await create({ "x-client-id": platform.clientId })).status).toBe(403);
    const payout = await call(createPayoutLink, "/v2/secure-payments/payouts", {
      method: "POST",
      headers: { "x-client-id": platform.clientId },
      json: { recipient: PAYEE, creatorWalletAddress: FEE_WALLET, network: "base", currency: "USDC-base", amount: "5" },
    });
    expect(payout.status).toBe(403);

    await setFeeConfig({ accountId: orch.account.id, flow: "get_paid", percentageBps: 100, feeBearer: "payer", evmAddress: FEE_WALLET });
    await db().branding.create({
      data: {
        id: prefixedId("brd_"),
        accountId: orch.account.id,
        displayName: "Orchestra Pay",
        logoUrl: "https://cdn.orchestra.test/logo.png",
        accentColor: "#7c3aed",
      },
    });
    const both = { ...asOrch(orch), "x-client-id": platform.clientId };
    const res = await create(both);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.feePlan).toMatchObject({ fees: [{ percentageBps: 100 }] });
    const sp = await db().securePayment.findUniqueOrThrow({ where: { token: res.body.token } });
    expect(sp).toMatchObject({
      accountId: platform.account.id,
      clientId: platform.clientId,
      orchestratorId: orch.account.id,
      whitelabel: true,
    });
    const request = await db().paymentRequest.findUniqueOrThrow({ where: { id: res.body.requestIds[0] } });
    expect(request.feeAddress).toBe(FEE_WALLET);
    expect(BigInt(request.feeAmount.toFixed())).toBe(1_000_000n); // 1 % of 100 USDC, paid by the payer on top
    const view = await call(pageView, `/v2/secure-payments/${res.body.token}`, { params: { token: res.body.token } });
    expect(view.body.checkout.branding).toEqual({
      displayName: "Orchestra Pay",
      logoUrl: "https://cdn.orchestra.test/logo.png",
      accentColor: "#7c3aed",
      supportUrl: null,
    });
    // The reference's branding object: the branding row's id, the logo as logoPath, the accent as the action colour.
    const row = await db().branding.findFirstOrThrow({ where: { accountId: orch.account.id } });
    expect(view.body.branding).toEqual({
      id: row.id,
      clientIdId: platform.clientId,
      orchestratorId: orch.account.id,
      logoPath: "https://cdn.orchestra.test/logo.png",
      primaryActionColor: "#7c3aed",
      displayRequestBranding: false,
      displayName: "Orchestra Pay",
    });
    expect(view.body.orchestratorId).toBe(orch.account.id);

    // A per-client override beats the orchestrator's default.
    await setFeeConfig({
      accountId: orch.account.id,
      clientId: platform.clientId,
      flow: "get_paid",
      percentageBps: 250,
      feeBearer: "payer",
      evmAddress: FEE_WALLET,
    });
    expect((await create(both)).body.feePlan).toMatchObject({ fees: [{ percentageBps: 250 }] });
    // Another destination than the bound one → 403; the bound one is fine.
    expect((await create(both, { requests: [{ amount: "1" }], destinationId: `${destinationId}x` })).status).toBe(403);
    expect((await create(both, { requests: [{ amount: "1" }], destinationId })).status).toBe(201);
  });

  it("refuses a client ID not linked to the key's orchestrator, and one without an active bound destination", async () => {
    await linkedPlatform();
    expect((await create({ ...asOrch(orch2), "x-client-id": platform.clientId })).status).toBe(403);
    expect((await create({ ...asOrch(orch), "x-client-id": orch2.clientId })).status).toBe(403);
    await db().clientId.update({ where: { id: platform.clientId }, data: { boundDestinationId: null } });
    const unbound = await create({ ...asOrch(orch), "x-client-id": platform.clientId });
    expect(unbound.status).toBe(403);
    expect(unbound.body.message).toMatch(/bound destination/);
  });
});
