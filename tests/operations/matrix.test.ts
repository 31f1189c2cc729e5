import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { revokeApiKey, revokeOrchestratorKey, setClientIdStatus } from "@/lib/accounts/issue-credentials";
import type { AuthMode } from "@/lib/auth/principal";
import { hashSecret } from "@/lib/auth/secrets";
import { createSession, revokeSession } from "@/lib/auth/sessions";
import { db } from "@/lib/db";
import { recordTransfer } from "@/lib/detection/record-payment";
import { env } from "@/lib/env";
import type { ApiRoute } from "@/lib/http/handler";
import type { Operation } from "@/lib/http/operation";
import { prefixedId, ulid } from "@/lib/ids";
import { OPERATIONS } from "@/lib/operations/index";
import { prepareRefund, recordRefundTransfer } from "@/lib/refunds";
import { insertCommercePayment } from "@/tests/helpers/commerce";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator, recurringScheduleOf } from "@/tests/helpers/factories";
import {
  invoke,
  operationHandlers,
  operationUrl,
  opKey,
  pathParamNames,
  plausibleParams,
  plausibleQuery,
  type RawResponse,
  sampleBody,
  schemaKeys,
} from "@/tests/helpers/operations";

/**
 * Actor × operation matrix, generated from OPERATIONS: every registered operation is called by
 * every kind of caller, and the status must be the one its declaration (`auth`, `browser`)
 * documents (docs/spec/service-interface.md "Authentication", rules 1–2):
 * - no credential → 401 (public operations: never 401/403);
 * - a valid credential of a kind the operation does not accept → 403;
 * - a browser client ID (one with allowed domains) without its Origin → 403, always;
 * - a browser client ID with its Origin on a `browser: false` operation → 403;
 * - a revoked/unknown API key, orchestrator key or session, an expired session → 401;
 * - a revoked or restricted client ID → 403;
 * - an accepted credential → anything but 401/403/5xx (the generic request may well be a 400
 *   or a 404: the cell is about authentication and authorization).
 * Then the cross-account checks: account B, with every credential kind an operation accepts,
 * gets 404 for each of account A's objects an operation names (a request, refund, secure payment link,
 * payee destination, webhook or delivery in the path; a request ID or client ID in the query; a
 * destination, client ID or existing request IDs in the body), and A's rows are unchanged.
 */

// No real DNS in tests: every webhook host is public.
vi.mock("@/lib/webhooks/resolver", () => ({ webhookResolver: () => async () => [{ address: "93.184.216.34", family: 4 }] }));

type Integrator = Awaited<ReturnType<typeof makeIntegrator>>;
type Expected = 401 | 403 | "accepted";

interface Actor {
  name: string;
  /** Headers of one request (session actors mint a fresh session each time, since logout revokes it). */
  headers: () => Promise<Record<string, string>>;
  expected: (op: Operation) => Expected;
}

const SHOP_ORIGIN = "https://shop.example";
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);
const accepts = (op: Operation, mode: AuthMode) => op.auth.includes(mode);
/** A valid credential of `mode`: accepted when the operation lists it, else 403. */
const validOf = (mode: AuthMode) => (op: Operation) => (accepts(op, mode) ? "accepted" : 403);

let handlers: Map<Operation, ApiRoute>;
let a: Integrator;
let b: Integrator;

async function userOf(accountId: string, kind: "wallet" | "email") {
  const data =
    kind === "wallet"
      ? { id: prefixedId("usr_"), accountId, walletAddress: privateKeyToAccount(generatePrivateKey()).address.toLowerCase() }
      : { id: prefixedId("usr_"), accountId, email: `${prefixedId("u")}@example.com` };
  return db().user.create({ data });
}

const users = new Map<string, { id: string; accountId: string }>();
async function sessionToken(who: Integrator, kind: "wallet" | "email"): Promise<string> {
  const key = `${who.account.id}:${kind}`;
  let user = users.get(key);
  if (!user) {
    user = await userOf(who.account.id, kind);
    users.set(key, user);
  }
  return (await createSession(user, kind)).token;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function actors(): Actor[] {
  const list: Actor[] = [{ name: "no credential", headers: async () => ({}), expected: () => 401 }];
  for (const [who, label] of [
    [() => a, "own"],
    [() => b, "other account's"],
  ] as const) {
    list.push(
      { name: `${label} API key`, headers: async () => ({ "x-api-key": who().apiKey }), expected: validOf("apiKey") },
      {
        name: `${label} browser client ID with its Origin`,
        headers: async () => ({ "x-client-id": who().browserClientId, origin: SHOP_ORIGIN }),
        expected: (op) => (accepts(op, "clientId") && op.browser !== false ? "accepted" : 403),
      },
      {
        name: `${label} browser client ID without Origin`,
        headers: async () => ({ "x-client-id": who().browserClientId }),
        expected: () => 403,
      },
      {
        name: `${label} browser client ID with a foreign Origin`,
        headers: async () => ({ "x-client-id": who().browserClientId, origin: "https://evil.example" }),
        expected: () => 403,
      },
      { name: `${label} server client ID`, headers: async () => ({ "x-client-id": who().clientId }), expected: validOf("clientId") },
      {
        name: `${label} orchestrator key`,
        headers: async () => ({ "x-orchestrator-key": who().orchestratorKey }),
        expected: validOf("orchestratorKey"),
      },
      {
        name: `${label} wallet session (bearer)`,
        headers: async () => bearer(await sessionToken(who(), "wallet")),
        expected: validOf("session"),
      },
      {
        name: `${label} email session (bearer)`,
        headers: async () => bearer(await sessionToken(who(), "email")),
        expected: validOf("session"),
      },
    );
  }
  list.push(
    {
      name: "email session cookie with the app's Origin",
      headers: async () => ({ cookie: `session_token=${await sessionToken(a, "email")}`, origin: new URL(env().APP_URL).origin }),
      expected: validOf("session"),
    },
    {
      // CSRF: a cookie rides along cross-site, so cookie writes need our Origin; reads do not.
      name: "email session cookie without Origin",
      headers: async () => ({ cookie: `session_token=${await sessionToken(a, "email")}` }),
      expected: (op) => (SAFE.has(op.method) ? validOf("session")(op) : 403),
    },
    {
      name: "email session cookie with a foreign Origin",
      headers: async () => ({ cookie: `session_token=${await sessionToken(a, "email")}`, origin: "https://evil.example" }),
      expected: (op) => (SAFE.has(op.method) ? validOf("session")(op) : 403),
    },
    { name: "revoked API key", headers: async () => ({ "x-api-key": revoked.apiKey }), expected: () => 401 },
    { name: "unknown API key", headers: async () => ({ "x-api-key": `key_${"0".repeat(40)}` }), expected: () => 401 },
    { name: "revoked orchestrator key", headers: async () => ({ "x-orchestrator-key": revoked.orchestratorKey }), expected: () => 401 },
    { name: "orchestrator key without orc_ prefix", headers: async () => ({ "x-orchestrator-key": a.apiKey }), expected: () => 401 },
    { name: "revoked server client ID", headers: async () => ({ "x-client-id": revoked.clientId }), expected: () => 403 },
    {
      name: "revoked browser client ID with its Origin",
      headers: async () => ({ "x-client-id": revoked.browserClientId, origin: SHOP_ORIGIN }),
      expected: () => 403,
    },
    { name: "restricted server client ID", headers: async () => ({ "x-client-id": revoked.restrictedClientId }), expected: () => 403 },
    { name: "unknown client ID", headers: async () => ({ "x-client-id": `cli_${"0".repeat(24)}` }), expected: () => 401 },
    { name: "revoked session (bearer)", headers: async () => bearer(await revokedSession()), expected: () => 401 },
    {
      name: "revoked session (cookie, app Origin)",
      headers: async () => ({ cookie: `session_token=${await revokedSession()}`, origin: new URL(env().APP_URL).origin }),
      expected: () => 401,
    },
    { name: "expired email session", headers: async () => bearer(await expiredSession("email")), expected: () => 401 },
    { name: "idle wallet session (> 15 min)", headers: async () => bearer(await expiredSession("wallet")), expected: () => 401 },
    { name: "unknown bearer token", headers: async () => bearer("x".repeat(43)), expected: () => 401 },
    { name: "malformed session cookie", headers: async () => ({ cookie: "session_token=%E0%A4%A" }), expected: () => 401 },
  );
  return list;
}

const revoked = { apiKey: "", orchestratorKey: "", clientId: "", browserClientId: "", restrictedClientId: "" };

async function revokedSession(): Promise<string> {
  const token = await sessionToken(a, "email");
  const row = await db().session.findUniqueOrThrow({ where: { tokenHash: hashSecret(token) } });
  await revokeSession(row.id);
  return token;
}

async function expiredSession(kind: "wallet" | "email"): Promise<string> {
  const token = await sessionToken(a, kind);
  const longAgo = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000);
  const data =
    kind === "email"
      ? { expiresAt: new Date(Date.now() - 1000) }
      : { lastSeenAt: new Date(Date.now() - 16 * 60 * 1000), createdAt: longAgo };
  await db().session.update({ where: { tokenHash: hashSecret(token) }, data });
  return token;
}

/** The generic request of an operation: plausible path params, `{}` as the body when it takes one, no query. */
async function callGeneric(op: Operation, headers: Record<string, string>): Promise<RawResponse> {
  const handler = handlers.get(op)!;
  const params = plausibleParams(op);
  const sendBody = op.body !== undefined && !op.bodyOptional;
  return invoke(handler, operationUrl(op, params), {
    method: op.method,
    headers: { ...headers, ...(sendBody ? { "content-type": "application/json" } : {}) },
    params,
    body: sendBody ? "{}" : undefined,
  });
}

function verdict(expected: Expected, res: RawResponse): string | null {
  if (res.status >= 500) return `got ${res.status} (${res.text.slice(0, 200)})`;
  if (expected === "accepted")
    return res.status === 401 || res.status === 403 ? `expected accepted, got ${res.status} ${res.text.slice(0, 200)}` : null;
  return res.status === expected ? null : `expected ${expected}, got ${res.status} ${res.text.slice(0, 200)}`;
}

let cells = 0;
let crossChecks = 0;

beforeAll(async () => {
  await resetDb();
  handlers = await operationHandlers();
  a = await makeIntegrator({ domains: [SHOP_ORIGIN] });
  b = await makeIntegrator({ domains: [SHOP_ORIGIN] });
  const r = await makeIntegrator({ domains: [SHOP_ORIGIN] });
  const apiKeyRow = await db().apiKey.findFirstOrThrow({ where: { accountId: r.account.id } });
  await revokeApiKey(apiKeyRow.id);
  const orc = await db().orchestratorKey.findFirstOrThrow({ where: { accountId: r.account.id } });
  await revokeOrchestratorKey(orc.id);
  await setClientIdStatus(r.clientId, "revoked");
  await setClientIdStatus(r.browserClientId, "revoked");
  const restricted = await makeIntegrator();
  await setClientIdStatus(restricted.clientId, "restricted");
  Object.assign(revoked, {
    apiKey: r.apiKey,
    orchestratorKey: r.orchestratorKey,
    clientId: r.clientId,
    browserClientId: r.browserClientId,
    restrictedClientId: restricted.clientId,
  });
});

afterAll(() => {
  console.log(`actor × operation matrix: ${cells} cells (${OPERATIONS.length} operations); cross-account checks: ${crossChecks}`);
});

describe("actor × operation matrix", () => {
  const ACTORS = actors();

  it("covers every registered operation", async () => {
    expect(OPERATIONS.length).toBeGreaterThanOrEqual(27);
    expect([...(await operationHandlers()).keys()]).toEqual([...OPERATIONS]);
  });

  it.each(OPERATIONS.map((op) => [opKey(op), op] as const))("%s answers each actor as declared", async (_key, op) => {
    const wrong: string[] = [];
    for (const actor of ACTORS) {
      const expected: Expected = op.auth.length === 0 ? "accepted" : actor.expected(op);
      const res = await callGeneric(op, await actor.headers());
      cells += 1;
      const bad = verdict(expected, res);
      if (bad) wrong.push(`${actor.name}: ${bad}`);
      // Every refusal is the documented error body with its code.
      if (res.status === 401 || res.status === 403) {
        const body = res.json as { statusCode?: number; code?: string } | undefined;
        if (body?.statusCode !== res.status || typeof body.code !== "string")
          wrong.push(`${actor.name}: ${res.status} without the error body: ${res.text}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

/**
 * Names that designate an account's objects: in a path (`id` is a webhook there), a query or a
 * body. `clientId` (webhook ownership) and `requestIds` (batch payouts of existing requests)
 * are checked too.
 */
const IN_PATH = ["requestId", "destinationId", "id", "deliveryId", "refundId", "paymentReference", "paymentId"];
const IN_QUERY = ["requestId", "destinationId", "deliveryId", "clientId"];
const IN_BODY = ["requestId", "destinationId", "deliveryId", "clientId", "requestIds"];
type Slot = { where: "path" | "query" | "body"; name: string };

/**
 * Linking names another platform's client ID on purpose: the platform hands its client ID to its
 * orchestrator (interface "Orchestrator client ID linking"); tests/orchestrators/orchestrators.test.ts covers
 * who may link, and that another orchestrator's link answers 404.
 */
const BY_DESIGN = new Set(["linkClientId body.clientId"]);
/** Searches filter by the names of objects: another account's finds nothing (200 and an empty list). */
const SEARCHES = new Set(["searchPayments"]);

function slotsOf(o: Operation): Slot[] {
  return [
    ...pathParamNames(o)
      .filter((n) => IN_PATH.includes(n))
      .map((name) => ({ where: "path" as const, name })),
    ...schemaKeys(o.query)
      .filter((n) => IN_QUERY.includes(n))
      .map((name) => ({ where: "query" as const, name })),
    ...schemaKeys(o.body)
      .filter((n) => IN_BODY.includes(n) && !BY_DESIGN.has(`${o.operationId} body.${n}`))
      .map((name) => ({ where: "body" as const, name })),
  ];
}

describe("cross-account access", () => {
  const PAYEE = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";
  /** A's objects: the values each name takes (all must be 404 to B). */
  const objects: Record<string, unknown[]> = {
    requestId: [],
    paymentReference: [],
    destinationId: [],
    id: [],
    deliveryId: [],
    clientId: [],
    requestIds: [],
    recurringId: [],
    orchestratorWebhookId: [],
    feeConfigId: [],
    linkedClientId: [],
    refundId: [],
    paymentId: [],
  };
  /**
   * `id` in a path is a webhook, except under /v2/payouts/recurring (a recurring schedule), /v1 and /v2 client-ids (a client ID),
   * /v2/orchestrators/webhooks (A's orchestrator webhook) and /v2/orchestrators/fee-configs (A's
   * fee config). A `clientId` in orchestrator setup is a client ID linked to A's orchestrator.
   */
  const ORCHESTRATOR_SETUP_CLIENT = ["/v2/orchestrators/fee-configs", "/v2/orchestrators/branding"];
  const valuesOf = (o: Operation, slot: Slot) => {
    // A refund is read through its own request (the first one, paid, with A's refund).
    if (slot.name === "requestId" && o.path.includes("{refundId}")) return objects.requestId!.slice(0, 1);
    // A commerce payment exists for the first request (lib/commerce): its escrow operations name that one.
    if (slot.name === "requestId" && o.path.startsWith("/v2/commerce-payments/")) return objects.requestId!.slice(0, 1);
    if (slot.name === "id" && o.path.startsWith("/v2/payouts/recurring/")) return objects.recurringId ?? [];
    if (slot.name === "id" && (o.path.startsWith("/v2/client-ids/") || o.path.startsWith("/v1/client-ids/"))) return objects.clientId ?? [];
    if (slot.name === "id" && o.path.startsWith("/v2/orchestrators/webhooks/")) return objects.orchestratorWebhookId ?? [];
    if (slot.name === "id" && o.path.startsWith("/v2/orchestrators/fee-configs/")) return objects.feeConfigId ?? [];
    if (slot.name === "clientId" && ORCHESTRATOR_SETUP_CLIENT.some((p) => o.path.startsWith(p))) return objects.linkedClientId ?? [];
    return objects[slot.name] ?? [];
  };
  let bWebhookId = "";

  async function snapshot() {
    const accountId = a.account.id;
    const [
      requests,
      links,
      destinations,
      webhooks,
      deliveries,
      clientIds,
      schedules,
      feeConfigs,
      brandings,
      clientIdLinks,
      refunds,
      recurrences,
    ] = await Promise.all([
      db().paymentRequest.findMany({ where: { accountId }, orderBy: { id: "asc" } }),
      db().securePayment.findMany({ where: { accountId }, orderBy: { token: "asc" }, include: { requests: true } }),
      db().payeeDestination.findMany({ where: { accountId }, orderBy: { id: "asc" } }),
      db().webhookEndpoint.findMany({ where: { accountId }, orderBy: { id: "asc" } }),
      db().webhookDelivery.findMany({ where: { endpoint: { accountId } }, orderBy: { id: "asc" }, include: { attemptLog: true } }),
      db().clientId.findMany({ where: { accountId }, orderBy: { id: "asc" } }),
      db().recurringSchedule.findMany({ where: { accountId }, orderBy: { id: "asc" } }),
      db().feeConfig.findMany({ where: { accountId }, orderBy: { id: "asc" } }),
      db().branding.findMany({ where: { accountId }, orderBy: { id: "asc" } }),
      db().clientIdLink.findMany({ where: { orchestratorAccountId: accountId }, orderBy: { id: "asc" } }),
      db().refund.findMany({ where: { accountId }, orderBy: { id: "asc" } }),
      db().requestRecurrence.findMany({ where: { accountId }, orderBy: { id: "asc" } }),
    ]);
    return {
      requests,
      links,
      destinations,
      webhooks,
      deliveries,
      clientIds,
      schedules,
      feeConfigs,
      brandings,
      clientIdLinks,
      refunds,
      recurrences,
    };
  }

  const op = (method: string, path: string) => OPERATIONS.find((o) => o.method === method && o.path === path)!;
  async function as(
    o: Operation,
    headers: Record<string, string>,
    json?: unknown,
    params: Record<string, string> = {},
    query: Record<string, string> = {},
  ) {
    const body = json === undefined ? undefined : JSON.stringify(json);
    return invoke(handlers.get(o)!, operationUrl(o, params, query), {
      method: o.method,
      headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) },
      params,
      body,
    });
  }

  beforeAll(async () => {
    // A payment request (API key).
    const created = await as(
      op("POST", "/v2/request"),
      { "x-api-key": a.apiKey },
      { amount: "12.5", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base", payee: PAYEE },
    );
    expect(created.status, created.text).toBe(201);
    objects.requestId!.push((created.json as { requestId: string }).requestId);
    // The request partly paid (as detection records it: /pay and /routes still answer A), and a refund of it prepared.
    const paid = await db().paymentRequest.findUniqueOrThrow({ where: { id: objects.requestId![0] as string } });
    await recordTransfer(paid, {
      txHash: `0x${"12".repeat(32)}`,
      logIndex: 0,
      blockNumber: 1n,
      blockHash: `0x${"34".repeat(32)}`,
      blockTime: new Date(),
      proxyAddress: PAYEE,
      tokenAddress: paid.tokenAddress,
      to: paid.payee,
      amount: 5_000_000n,
      referenceHash: paid.referenceHash,
      feeAmount: 0n,
      feeAddress: null,
      from: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    });
    const refund = (await prepareRefund(a.account.id, paid.id, { amount: "1" })).refund;
    objects.refundId!.push(refund.id);
    // The refund sent and confirmed by detection (its receipt is then A's to read), and the payment's id (its receipt).
    const prepared = await db().refund.findUniqueOrThrow({ where: { id: refund.id } });
    await recordRefundTransfer(paid, {
      txHash: `0x${"56".repeat(32)}`,
      logIndex: 0,
      blockNumber: 2n,
      blockHash: `0x${"78".repeat(32)}`,
      blockTime: new Date(),
      tokenAddress: paid.tokenAddress,
      to: prepared.toAddress,
      amount: 1_000_000n,
      referenceHash: prepared.referenceHash,
      from: PAYEE,
    });
    objects.paymentId!.push((await db().payment.findFirstOrThrow({ where: { requestId: paid.id } })).id);
    objects.paymentReference!.push((created.json as { paymentReference: string }).paymentReference);
    // A recurring request (a stop would change its series), named by its payment reference.
    const recurring = await as(
      op("POST", "/v2/request"),
      { "x-api-key": a.apiKey },
      {
        amount: "5",
        invoiceCurrency: "USDC-base",
        paymentCurrency: "USDC-base",
        payee: PAYEE,
        recurrence: { startDate: "2031-01-01", frequency: "MONTHLY" },
      },
    );
    expect(recurring.status, recurring.text).toBe(201);
    objects.paymentReference!.push((recurring.json as { paymentReference: string }).paymentReference);
    // A payee destination, registered by a wallet session of the wallet itself.
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const walletUser = await db().user.create({
      data: { id: prefixedId("usr_"), accountId: a.account.id, walletAddress: wallet.toLowerCase() },
    });
    const dest = await as(op("POST", "/v2/payee-destination"), bearer((await createSession(walletUser, "wallet")).token), {
      currency: "USDC-base",
      walletAddress: wallet,
    });
    expect(dest.status, dest.text).toBe(201);
    objects.destinationId!.push((dest.json as { destinationId: string }).destinationId);
    // A secure payment link to it (creation reads no chain).
    const link = await as(op("POST", "/v2/secure-payments"), { "x-api-key": a.apiKey }, { requests: [{ amount: "10" }] });
    expect(link.status, link.text).toBe(201);
    objects.requestId!.push(...(link.json as { requestIds: string[] }).requestIds);
    objects.requestIds!.push(objects.requestId!.slice(0, 1));
    // An invoice on each of A's requests (GET /v2/request/{id}/invoice/pdf prints it), stored as lib/invoices stores one.
    for (const [i, requestId] of objects.requestId!.entries()) {
      await db().invoice.create({
        data: {
          id: `inv_${ulid()}`,
          accountId: a.account.id,
          sequence: i + 1,
          number: `INV-${i + 1}`,
          requestId: String(requestId),
          currency: "USDC-base",
          issueDate: new Date(),
          lines: [{ description: "Item", quantity: "1", unitPrice: "10", taxRate: null, net: "10", tax: "0", total: "10" }],
          subtotal: "10",
          taxTotal: "0",
          total: "10",
        },
      });
    }
    // A webhook, and a delivery of it.
    const hook = await as(op("POST", "/v1/webhook"), { "x-client-id": a.clientId }, { url: "https://hooks.example.test/a" });
    expect(hook.status, hook.text).toBe(201);
    const hookId = (hook.json as { id: string }).id;
    objects.id!.push(hookId);
    const test = await as(op("POST", "/v1/webhook/test"), { "x-client-id": a.clientId }, { eventType: "payment.confirmed" });
    expect(test.status, test.text).toBe(201);
    const deliveries = await as(op("GET", "/v1/webhook/{id}/deliveries"), { "x-client-id": a.clientId }, undefined, { id: hookId });
    expect(deliveries.status, deliveries.text).toBe(200);
    objects.deliveryId!.push(...(deliveries.json as { deliveries: { id: string }[] }).deliveries.map((d) => d.id));
    expect(objects.deliveryId).toHaveLength(1);
    objects.clientId!.push(a.clientId, a.browserClientId);
    // A recurring schedule (active, so cancel and stop would change it), with the request of its payment 1.
    objects.recurringId!.push(await recurringScheduleOf(a.account.id, objects.requestId![0] as string));
    await insertCommercePayment(objects.requestId![0] as string);
    // B's own webhook: B naming its own webhook with A's delivery must still be 404.
    const bHook = await as(op("POST", "/v1/webhook"), { "x-client-id": b.clientId }, { url: "https://hooks.example.test/b" });
    expect(bHook.status, bHook.text).toBe(201);
    bWebhookId = (bHook.json as { id: string }).id;
    // Orchestrator setup of A: a client ID of another platform linked to A's orchestrator, an
    // orchestrator webhook, fee configs (default and the linked client's override) and branding.
    const platform = await makeIntegrator();
    await db().clientIdLink.create({ data: { id: ulid(), clientId: platform.clientId, orchestratorAccountId: a.account.id } });
    objects.linkedClientId!.push(platform.clientId);
    const orc = { "x-orchestrator-key": a.orchestratorKey };
    const orcHook = await as(op("POST", "/v2/orchestrators/webhooks"), orc, { url: "https://hooks.example.test/orchestrator-a" });
    expect(orcHook.status, orcHook.text).toBe(201);
    objects.orchestratorWebhookId!.push((orcHook.json as { webhook: { id: string } }).webhook.id);
    for (const clientId of [undefined, platform.clientId]) {
      const fee = await as(op("POST", "/v2/orchestrators/fee-configs"), orc, {
        flow: "get_paid",
        percentageBps: 100,
        evmAddress: PAYEE,
        ...(clientId ? { clientId } : {}),
      });
      expect(fee.status, fee.text).toBe(201);
      objects.feeConfigId!.push((fee.json as { id: string }).id);
      const brand = await as(op("POST", "/v2/orchestrators/branding"), orc, {
        displayName: "A's brand",
        ...(clientId ? { clientId } : {}),
      });
      expect(brand.status, brand.text).toBe(201);
    }
  });

  /** B's credentials of every kind an operation accepts (a browser client ID only where browsers may call). */
  async function credentialsOfB(o: Operation): Promise<{ kind: string; isClientId: boolean; headers: Record<string, string> }[]> {
    const out: { kind: string; isClientId: boolean; headers: Record<string, string> }[] = [];
    if (accepts(o, "apiKey")) out.push({ kind: "API key", isClientId: false, headers: { "x-api-key": b.apiKey } });
    if (accepts(o, "clientId")) {
      out.push({ kind: "server client ID", isClientId: true, headers: { "x-client-id": b.clientId } });
      if (o.browser !== false)
        out.push({
          kind: "browser client ID + Origin",
          isClientId: true,
          headers: { "x-client-id": b.browserClientId, origin: SHOP_ORIGIN },
        });
    }
    if (accepts(o, "orchestratorKey"))
      out.push({ kind: "orchestrator key", isClientId: false, headers: { "x-orchestrator-key": b.orchestratorKey } });
    if (accepts(o, "session")) {
      out.push({ kind: "wallet session", isClientId: false, headers: bearer(await sessionToken(b, "wallet")) });
      out.push({ kind: "email session", isClientId: false, headers: bearer(await sessionToken(b, "email")) });
    }
    return out;
  }

  interface Case {
    params: Record<string, string>;
    query: Record<string, string>;
    body: Record<string, unknown> | undefined;
    note: string;
    namesClientId: boolean;
  }

  /** One request per combination of A's objects over the operation's slots. */
  function casesOf(o: Operation): Case[] {
    const slots = slotsOf(o);
    const combos = slots.reduce<Map<Slot, unknown>[]>(
      (acc, slot) => acc.flatMap((c) => valuesOf(o, slot).map((v) => new Map(c).set(slot, v))),
      [new Map()],
    );
    const cases = combos.map((combo): Case => {
      const pick = (where: Slot["where"]) => Object.fromEntries([...combo].filter(([s]) => s.where === where).map(([s, v]) => [s.name, v]));
      const bodyPart = pick("body");
      const sample = sampleBody(o);
      // Existing requests instead of new ones (a batch names one or the other).
      if ("requestIds" in bodyPart) delete sample.requests;
      return {
        params: plausibleParams(o, pick("path") as Record<string, string>),
        query: plausibleQuery(o, pick("query") as Record<string, string>),
        body: o.body && (!o.bodyOptional || Object.keys(bodyPart).length > 0) ? { ...sample, ...bodyPart } : undefined,
        note: JSON.stringify(Object.fromEntries([...combo].map(([s, v]) => [`${s.where}.${s.name}`, v]))),
        namesClientId: [...combo.keys()].some((s) => s.name === "clientId"),
      };
    });
    if (slots.some((s) => s.name === "deliveryId") && slots.some((s) => s.name === "id")) {
      for (const deliveryId of objects.deliveryId as string[]) {
        cases.push({
          params: plausibleParams(o, { id: bWebhookId, deliveryId }),
          query: plausibleQuery(o),
          body: o.body && !o.bodyOptional ? sampleBody(o) : undefined,
          note: "B's own webhook with A's delivery",
          namesClientId: false,
        });
      }
    }
    return cases;
  }

  const targets = OPERATIONS.filter((o) => o.auth.length > 0 && slotsOf(o).length > 0);

  it("finds the operations that name an account's objects", () => {
    expect(targets.map(opKey)).toEqual(
      expect.arrayContaining([
        "GET /v2/request/{requestId}",
        "GET /v2/request/{requestId}/routes",
        "GET /v2/request/{requestId}/pay",
        "GET /v2/secure-payments",
        "GET /v2/payee-destination/{destinationId}",
        "DELETE /v2/payee-destination/{destinationId}",
        "PUT /v1/webhook/{id}",
        "DELETE /v1/webhook/{id}",
        "GET /v1/webhook/{id}/deliveries",
        "POST /v1/webhook/{id}/deliveries/{deliveryId}/redeliver",
        "DELETE /v2/orchestrators/webhooks/{id}",
        "PATCH /v2/orchestrators/webhooks/{id}",
        "POST /v2/orchestrators/fee-configs",
        "GET /v2/orchestrators/fee-configs",
        "PATCH /v2/orchestrators/fee-configs/{id}",
        "DELETE /v2/orchestrators/fee-configs/{id}",
        "POST /v2/orchestrators/branding",
        "GET /v2/orchestrators/branding",
        "PATCH /v2/orchestrators/branding",
        "DELETE /v2/orchestrators/branding",
        "GET /v2/client-ids/{id}",
        "PUT /v2/client-ids/{id}",
        "DELETE /v2/client-ids/{id}",
        "GET /v1/client-ids/{id}",
        "PUT /v1/client-ids/{id}",
        "DELETE /v1/client-ids/{id}",
        "GET /v1/payee-destination/{destinationId}",
        "DELETE /v1/payee-destination/{destinationId}",
        "POST /v2/request/{requestId}/refunds",
        "GET /v2/request/{requestId}/refunds",
        "GET /v2/request/{requestId}/refunds/{refundId}",
        "GET /v2/request/{requestId}/refunds/{refundId}/receipt",
        "GET /v2/payments/{paymentId}/receipt",
        "POST /v2/request/{requestId}/refunds/{refundId}/sent",
        "POST /v2/request/{requestId}/refunds/{refundId}/cancel",
        "PATCH /v2/request/{requestId}",
        "PATCH /v1/request/{paymentReference}/stop-recurrence",
      ]),
    );
  });

  it.each(targets.map((o) => [opKey(o), o] as const))(
    "%s: account B gets 404 for account A's objects, and A's rows stay as they were",
    async (_key, o) => {
      const before = await snapshot();
      const wrong: string[] = [];
      for (const c of casesOf(o)) {
        for (const cred of await credentialsOfB(o)) {
          const res = await as(o, cred.headers, c.body, c.params, c.query);
          crossChecks += 1;
          // A client-ID caller naming another client ID is told the field is wrong (it may only name itself).
          const field = (res.json as { errors?: { field?: string }[] } | undefined)?.errors?.[0]?.field;
          // A search naming A's object finds nothing for B (200, empty) rather than 404.
          const emptySearch =
            SEARCHES.has(o.operationId) && res.status === 200 && (res.json as { payments?: unknown[] }).payments?.length === 0;
          const ok =
            res.status === 404 || emptySearch || (cred.isClientId && c.namesClientId && res.status === 400 && field === "clientId");
          if (!ok) wrong.push(`B's ${cred.kind} with ${c.note}: expected 404, got ${res.status} ${res.text.slice(0, 240)}`);
        }
      }
      expect(wrong).toEqual([]);
      expect(await snapshot()).toEqual(before);
    },
  );

  it("account A itself reads its objects through the same GET operations (so B's 404s are about ownership)", async () => {
    const ownHeaders = async (o: Operation, namesClientId: boolean): Promise<Record<string, string>> => {
      if (namesClientId && accepts(o, "session")) return bearer(await sessionToken(a, "email"));
      if (accepts(o, "apiKey")) return { "x-api-key": a.apiKey };
      if (accepts(o, "clientId")) return { "x-client-id": a.clientId };
      if (accepts(o, "orchestratorKey")) return { "x-orchestrator-key": a.orchestratorKey };
      return bearer(await sessionToken(a, "email"));
    };
    const wrong: string[] = [];
    for (const o of targets.filter((t) => t.method === "GET")) {
      for (const c of casesOf(o).filter((x) => !x.note.startsWith("B's"))) {
        const res = await as(o, await ownHeaders(o, c.namesClientId), undefined, c.params, c.query);
        // A secure payment exists only for the link's request; A's plain request has none (404 for A too).
        const linkless = o.path === "/v2/secure-payments" && c.query.requestId === objects.requestId![0];
        if (linkless ? res.status !== 404 : res.status !== 200)
          wrong.push(`${opKey(o)} ${c.note}: ${res.status} ${res.text.slice(0, 240)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
