/**
 * The platform's side of orchestrator links (issue #24): client IDs are public, so any
 * orchestrator key can link one it learns, after which the platform's own x-client-id no longer
 * creates payment links. The owning account sees every orchestrator link of its client IDs
 * (API and dashboard data) and can end it; another account can neither see nor end it; the
 * link and its end (by either side) are in the audit log. And client_id.linked keeps a Tron
 * destination's Base58 address as it is (case-sensitive), checked with @scure/base directly.
 */
import { createHash } from "node:crypto";
import { base58check } from "@scure/base";
import { beforeEach, describe, expect, it } from "vitest";
import { DELETE as endLink, GET as getLink } from "@/app/v2/client-ids/[id]/orchestrator-link/route";
import { GET as listPlatformLinks } from "@/app/v2/client-ids/orchestrator-links/route";
import { POST as completeOnboarding } from "@/app/v2/onboarding/complete/route";
import { POST as createLinkIntent } from "@/app/v2/orchestrators/client-id-link-intents/route";
import { DELETE as unlink } from "@/app/v2/orchestrators/client-ids/[clientId]/route";
import { POST as linkClient } from "@/app/v2/orchestrators/client-ids/route";
import { POST as createDestination } from "@/app/v2/payee-destination/route";
import { POST as createLink } from "@/app/v2/secure-payments/route";
import { db } from "@/lib/db";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { watching } from "@/tests/helpers/watched-env";

type Integrator = Awaited<ReturnType<typeof makeIntegrator>>;
let orch: Integrator;
let platform: Integrator;
let stranger: Integrator;

/** USDT's TRC-20 contract on Tron (docs/spec/chain-data.md): a known-valid Base58Check address. */
const TRON_ADDRESS = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const PAYEE_EVM = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";
const sha256 = (data: Uint8Array) => new Uint8Array(createHash("sha256").update(data).digest());

beforeEach(async () => {
  await resetDb();
  [orch, platform, stranger] = await Promise.all([makeIntegrator(), makeIntegrator(), makeIntegrator()]);
});

const link = (o: Integrator, clientId: string) =>
  call(linkClient, "/v2/orchestrators/client-ids", {
    method: "POST",
    headers: { "x-orchestrator-key": o.orchestratorKey },
    json: { clientId },
  });
const asKey = (who: Integrator) => ({ "x-api-key": who.apiKey });
const platformView = (clientId: string, who: Integrator = platform) =>
  call(getLink, `/v2/client-ids/${clientId}/orchestrator-link`, { headers: asKey(who), params: { id: clientId } });
const platformEnd = (clientId: string, who: Integrator = platform) =>
  call(endLink, `/v2/client-ids/${clientId}/orchestrator-link`, { method: "DELETE", headers: asKey(who), params: { id: clientId } });
const platformList = (who: Integrator = platform) => call(listPlatformLinks, "/v2/client-ids/orchestrator-links", { headers: asKey(who) });
const audit = (target: string) => db().adminAuditEntry.findMany({ where: { target }, orderBy: { createdAt: "asc" } });

async function withDestination(who: Integrator) {
  const res = await call(createDestination, "/v2/payee-destination", {
    method: "POST",
    headers: { authorization: `Bearer ${await walletSessionToken(who.account.id, PAYEE_EVM)}` },
    json: { currency: "USDC-base", walletAddress: PAYEE_EVM },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}
const ownLink = (who: Integrator) =>
  call(createLink, "/v2/secure-payments", {
    method: "POST",
    headers: { "x-client-id": who.clientId },
    json: { requests: [{ amount: "1" }] },
  });

describe("the platform sees and ends orchestrator links of its client IDs", () => {
  it("a direct link by an orchestrator that only learned the client ID: seen, audited, ended by the platform", async () => {
    await withDestination(platform);
    expect((await ownLink(platform)).status).toBe(201);
    expect((await platformView(platform.clientId)).body).toEqual({ clientId: platform.clientId, link: null });

    const linked = await link(orch, platform.clientId);
    expect(linked.status).toBe(201);
    // The platform's own x-client-id is locked out of creating links…
    expect((await ownLink(platform)).status).toBe(403);
    // …and it sees who did it, and how.
    const seen = await platformView(platform.clientId);
    expect(seen.status).toBe(200);
    expect(seen.body.link).toMatchObject({
      clientId: platform.clientId,
      linkId: linked.body.link.linkId,
      status: "active",
      orchestratorId: orch.account.id,
      orchestratorName: orch.account.name,
      via: "direct",
      unlinkedAt: null,
    });
    const list = await platformList();
    expect(list.status).toBe(200);
    expect(list.body.links).toHaveLength(1);
    expect(list.body.links[0]).toMatchObject({ clientId: platform.clientId, status: "active" });

    const ended = await platformEnd(platform.clientId);
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body).toMatchObject({ unlinked: true, link: { status: "unlinked", orchestratorId: orch.account.id } });
    expect(ended.body.link.unlinkedAt).toEqual(expect.any(String));
    // The platform creates links alone again; the orchestrator can neither link it back nor unlink it twice.
    expect((await ownLink(platform)).status).toBe(201);
    expect((await link(orch, platform.clientId)).status).toBe(409);
    expect(
      (
        await call(unlink, `/v2/orchestrators/client-ids/${platform.clientId}`, {
          method: "DELETE",
          headers: { "x-orchestrator-key": orch.orchestratorKey },
          params: { clientId: platform.clientId },
        })
      ).status,
    ).toBe(404);
    expect((await platformEnd(platform.clientId)).status).toBe(404);

    const rows = await audit(platform.clientId);
    expect(rows.map((r) => [r.action, r.accountId])).toEqual([
      ["client_id.orchestrator_link", platform.account.id],
      ["client_id.orchestrator_unlink", platform.account.id],
    ]);
    expect(rows[0]!.actor).toMatch(/^orchestratorKey:/);
    expect(rows[0]!.details).toMatchObject({ orchestratorId: orch.account.id, via: "direct", linkId: linked.body.link.linkId });
    expect(rows[1]!.actor).toMatch(/^apiKey:/);
    expect(rows[1]!.details).toMatchObject({ orchestratorId: orch.account.id, by: "platform" });
  });

  it("another account can neither see nor end the link (404, as a client ID that does not exist); nothing changes", async () => {
    await link(orch, platform.clientId);
    expect((await platformView(platform.clientId, stranger)).status).toBe(404);
    expect((await platformEnd(platform.clientId, stranger)).status).toBe(404);
    // The orchestrator itself is another account too: this is the platform's operation, not its.
    expect((await platformEnd(platform.clientId, orch)).status).toBe(404);
    expect((await platformList(stranger)).body.links).toEqual([]);
    expect((await db().clientIdLink.findUniqueOrThrow({ where: { clientId: platform.clientId } })).status).toBe("active");
    expect((await audit(platform.clientId)).map((r) => r.action)).toEqual(["client_id.orchestrator_link"]);
    // A client ID that does not exist reads the same.
    expect((await platformView("cli_doesnotexist")).status).toBe(404);
  });

  it("the orchestrator's own unlink is audited too, as the orchestrator", async () => {
    await link(orch, platform.clientId);
    const res = await call(unlink, `/v2/orchestrators/client-ids/${platform.clientId}`, {
      method: "DELETE",
      headers: { "x-orchestrator-key": orch.orchestratorKey },
      params: { clientId: platform.clientId },
    });
    expect(res.status).toBe(200);
    const rows = await audit(platform.clientId);
    expect(rows.map((r) => r.action)).toEqual(["client_id.orchestrator_link", "client_id.orchestrator_unlink"]);
    expect(rows[1]!.actor).toMatch(/^orchestratorKey:/);
    expect(rows[1]!.details).toMatchObject({ by: "orchestrator" });
    expect((await platformView(platform.clientId)).body.link).toMatchObject({ status: "unlinked" });
  });
});

describe("onboarding with a Tron destination", () => {
  // Onboarding onto Tron needs a deployment that watches Tron.
  watching({ TRON_API_URL: "https://tron.api.example" });
  it("client_id.linked carries the Tron address exactly (a valid Base58Check address), and the link is audited as onboarding", async () => {
    // The oracle: @scure/base's Base58Check (double SHA-256) accepts the fixed address, version byte 0x41.
    const decoded = base58check(sha256).decode(TRON_ADDRESS);
    expect(decoded.length).toBe(21);
    expect(decoded[0]).toBe(0x41);
    expect(() => base58check(sha256).decode(TRON_ADDRESS.toLowerCase())).toThrow();

    const session = await walletSessionToken(platform.account.id, TRON_ADDRESS);
    const dest = await call(createDestination, "/v2/payee-destination", {
      method: "POST",
      headers: { authorization: `Bearer ${session}` },
      json: { currency: "USDT-tron", walletAddress: TRON_ADDRESS },
    });
    expect(dest.status, JSON.stringify(dest.body)).toBe(201);
    const intent = await call(createLinkIntent, "/v2/orchestrators/client-id-link-intents", {
      method: "POST",
      headers: { "x-orchestrator-key": orch.orchestratorKey },
      json: { clientIdName: "Tron shop", externalId: "tron-1" },
    });
    expect(intent.status).toBe(201);
    const token = new URL(intent.body.url).searchParams.get("token")!;
    const done = await call(completeOnboarding, "/v2/onboarding/complete", {
      method: "POST",
      headers: { authorization: `Bearer ${session}` },
      json: { token },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    const event = await db().outboxEvent.findFirstOrThrow({ where: { type: "client_id.linked" } });
    const payload = JSON.parse(event.payload);
    expect(payload).toMatchObject({ network: "tron", currency: "USDT", destinationWalletAddress: TRON_ADDRESS });
    expect(base58check(sha256).decode(payload.destinationWalletAddress)[0]).toBe(0x41);

    const rows = await audit(done.body.clientId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: "client_id.orchestrator_link", accountId: platform.account.id });
    expect(rows[0]!.actor).toMatch(/^session:/);
    expect(rows[0]!.details).toMatchObject({ via: "onboarding", orchestratorId: orch.account.id });
    expect((await platformView(done.body.clientId)).body.link).toMatchObject({ via: "onboarding", status: "active" });
  });
});
