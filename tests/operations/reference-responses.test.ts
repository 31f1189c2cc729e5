import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createSession } from "@/lib/auth/sessions";
import { db } from "@/lib/db";
import { reloadEnv } from "@/lib/env";
import type { ApiRoute } from "@/lib/http/handler";
import type { Operation } from "@/lib/http/operation";
import { prefixedId } from "@/lib/ids";
import { OPERATIONS } from "@/lib/operations/index";
import { sweepRecurringRequests } from "@/lib/recurring/request-periods";
import type { Devnet } from "@/scripts/devnet";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { operationHandlers, operationUrl, opKey, sampleBody } from "@/tests/helpers/operations";
import {
  REFERENCE_SHAPES,
  referenceResponseValidator,
  referenceSchemaStatuses,
  referenceShapeValidator,
} from "@/tests/helpers/reference-schema";
import { signedTronTx, TRON_TXID, USDT_TRON } from "@/tests/helpers/tron-tx";

/**
 * Drop-in compatibility, checked by the reference's own schemas: each reference operation
 * Duebill serves is called for real (real Postgres, a real devnet for the pay plans, a real
 * HTTP Tron node stand-in) and every answer whose status the reference documents with a JSON
 * schema is validated against that schema with ajv (tests/helpers/reference-schema.ts says how
 * OpenAPI 3.0 is read and lists the waived keywords). The last test fails when a served reference
 * operation has a documented success schema that no call here exercised.
 */

vi.mock("@/lib/webhooks/resolver", () => ({ webhookResolver: () => async () => [{ address: "93.184.216.34", family: 4 }] }));

const validated = new Set<string>();
let handlers: Map<Operation, ApiRoute>;
let devnet: Devnet;
let a: Awaited<ReturnType<typeof makeIntegrator>>;
let session: string;
let tronNode: Server;

beforeAll(async () => {
  handlers = await operationHandlers();
  devnet = await useDevnet();
  await resetDb();
  a = await makeIntegrator();
  const user = await db().user.create({
    data: { id: prefixedId("usr_"), accountId: a.account.id, email: `${prefixedId("u")}@example.com` },
  });
  session = (await createSession(user, "email")).token;
  // The account's payee destination on the devnet (wallet session: proof of control).
  const dest = await api("POST", "/v2/payee-destination", {
    headers: { authorization: `Bearer ${await walletSessionToken(a.account.id, devnet.accounts.payee.address)}` },
    json: { currency: "USDC-sepolia", walletAddress: devnet.accounts.payee.address },
  });
  expect(dest.status, JSON.stringify(dest.body)).toBe(201);
  // A Tron node API over real HTTP that accepts every broadcast.
  tronNode = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ result: true, code: "SUCCESS", txid: TRON_TXID }));
    });
  });
  await new Promise<void>((resolve) => tronNode.listen(0, "127.0.0.1", resolve));
}, 120_000);

afterAll(async () => {
  delete process.env.TRON_API_URL;
  reloadEnv();
  await new Promise((resolve) => tronNode?.close(resolve));
  await stopDevnet(devnet);
});

interface CallInit {
  params?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  json?: unknown;
}

/**
 * Calls the operation `METHOD path` (a registered Duebill operation) and validates the answer
 * against the reference's schema for its status, when the reference documents one.
 */
async function api(method: string, path: string, init: CallInit = {}) {
  const op = OPERATIONS.find((o) => o.method === method && o.path === path);
  if (!op) throw new Error(`${method} ${path} is not a Duebill operation`);
  const handler = handlers.get(op)!;
  const headers = new Headers(init.headers);
  if (init.json !== undefined) headers.set("content-type", "application/json");
  const url = new URL(operationUrl(op, init.params, init.query), "http://localhost:3000");
  const res = await handler(new Request(url, { method, headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) }), {
    params: Promise.resolve(init.params ?? {}),
  });
  const text = await res.text();
  const body = text ? JSON.parse(text) : null;
  const validate = referenceResponseValidator(method, path, res.status) ?? referenceShapeValidator(method, path, res.status);
  if (validate) {
    const ok = validate(body);
    expect(
      ok,
      `${method} ${path} ${res.status} does not match the reference schema: ${JSON.stringify(validate.errors, null, 1)}\n${text.slice(0, 2000)}`,
    ).toBe(true);
    validated.add(`${opKey(op)} ${res.status}`);
  }
  return { status: res.status, body };
}

const key = () => ({ "x-api-key": a.apiKey });
const bearer = () => ({ authorization: `Bearer ${session}` });
const bodyOf = (operationId: string) => sampleBody(OPERATIONS.find((o) => o.operationId === operationId)!);

describe("the reference's response schemas", () => {
  it("client IDs: create, list, get, update", async () => {
    const created = await api("POST", "/v2/client-ids", { headers: bearer(), json: bodyOf("createClientId") });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await api("GET", "/v2/client-ids", { headers: bearer() })).status).toBe(200);
    expect((await api("GET", "/v2/client-ids/{id}", { headers: bearer(), params: { id } })).status).toBe(200);
    expect((await api("PUT", "/v2/client-ids/{id}", { headers: bearer(), params: { id }, json: bodyOf("updateClientId") })).status).toBe(
      200,
    );
  });

  it("requests: create, status, pay calldata, routes; payments search", async () => {
    const created = await api("POST", "/v2/request", { headers: key(), json: bodyOf("createRequest") });
    expect(created.status).toBe(201);
    const requestId = created.body.requestId as string;
    expect((await api("GET", "/v2/request/{requestId}", { headers: key(), params: { requestId } })).status).toBe(200);
    const pay = await api("GET", "/v2/request/{requestId}/pay", { headers: key(), params: { requestId } });
    expect(pay.status).toBe(200);
    const routes = await api("GET", "/v2/request/{requestId}/routes", {
      headers: key(),
      params: { requestId },
      query: { wallet: devnet.accounts.payer.address },
    });
    expect(routes.status).toBe(200);
    expect((await api("GET", "/v2/payments", { headers: key(), query: { limit: "5" } })).status).toBe(200);
    expect((await api("GET", "/v2/payments", { headers: key(), query: { limit: "0" } })).status).toBe(400);
    expect((await api("GET", "/v2/payments", {})).status).toBe(401);
  });

  it("a EUR invoice on Tron: created, its status and its quoted pay plan (issue 29)", async () => {
    process.env.TRON_CONVERSION_RATE_NETWORK = "sepolia";
    reloadEnv();
    try {
      const created = await api("POST", "/v2/request", {
        headers: key(),
        json: { amount: "100", invoiceCurrency: "EUR", paymentCurrency: "USDT-tron", payee: "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW" },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const requestId = created.body.requestId as string;
      const pay = await api("GET", "/v2/request/{requestId}/pay", { headers: key(), params: { requestId } });
      expect(pay.status, JSON.stringify(pay.body)).toBe(200);
      expect(pay.body.metadata.conversion.quote.id).toMatch(/^cq_/);
      expect((await api("GET", "/v2/request/{requestId}", { headers: key(), params: { requestId } })).status).toBe(200);
    } finally {
      delete process.env.TRON_CONVERSION_RATE_NETWORK;
      reloadEnv();
    }
  });

  it("recurring requests: the original's and a period's status carry recurrence, isRecurrenceStopped and the original's IDs", async () => {
    const created = await api("POST", "/v2/request", {
      headers: key(),
      json: { ...bodyOf("createRequest"), recurrence: { startDate: new Date().toISOString(), frequency: "DAILY" } },
    });
    expect(created.status).toBe(201);
    const requestId = created.body.requestId as string;
    // The next period, as the recurring job makes it once the network's clock has passed its date.
    await sweepRecurringRequests({ clock: async () => new Date(Date.now() + 86_400_000 + 60_000) });
    const period = await db().paymentRequest.findFirstOrThrow({
      where: { recurrenceIndex: 2, recurrence: { is: { originalRequestId: requestId } } },
    });
    const original = await api("GET", "/v2/request/{requestId}", { headers: key(), params: { requestId } });
    expect(original.body).toMatchObject({ recurrence: { frequency: "DAILY" }, isRecurrenceStopped: false });
    const stopped = await api("PATCH", "/v2/request/{requestId}", {
      headers: key(),
      params: { requestId },
      json: { isRecurrenceStopped: true },
    });
    expect(stopped.status).toBe(200);
    const later = await api("GET", "/v2/request/{requestId}", { headers: key(), params: { requestId: period.id } });
    expect(later.body).toMatchObject({
      isRecurrenceStopped: true,
      originalRequestId: requestId,
      originalRequestPaymentReference: created.body.paymentReference,
    });
  });

  it("issue 29: a partial pay plan, the request list, the POST pay plan of a link", async () => {
    const created = await api("POST", "/v2/request", { headers: key(), json: bodyOf("createRequest") });
    const requestId = created.body.requestId as string;
    const part = await api("GET", "/v2/request/{requestId}/pay", {
      headers: key(),
      params: { requestId },
      query: { wallet: devnet.accounts.payer.address, amount: "2.5" },
    });
    expect(part.status).toBe(200);
    expect(
      (await api("GET", "/v2/request/{requestId}/pay", { headers: key(), params: { requestId }, query: { amount: "0" } })).status,
    ).toBe(400);
    const list = await api("GET", "/v2/request", { headers: key(), query: { walletAddress: bodyOf("createRequest").payee as string } });
    expect(list.status).toBe(200);
    expect(list.body.requests.map((r: { requestId: string }) => r.requestId)).toContain(requestId);
    const link = await api("POST", "/v2/secure-payments", {
      headers: { "x-client-id": a.clientId },
      json: { requests: [{ amount: "3" }] },
    });
    const plan = await api("POST", "/v2/secure-payments/{token}/calldata", {
      params: { token: link.body.token },
      json: { wallet: devnet.accounts.payer.address },
    });
    expect(plan.status).toBe(200);
    expect(plan.body.paymentType).toBe("single");
  });

  it("payouts: one-off and batch (with its approval transactions)", async () => {
    expect((await api("POST", "/v2/payouts", { headers: key(), json: bodyOf("createPayout") })).status).toBe(201);
    const batch = await api("POST", "/v2/payouts/batch", { headers: key(), json: bodyOf("createBatchPayout") });
    expect(batch.status).toBe(201);
    expect(batch.body.ERC20ApprovalTransactions.length).toBeGreaterThan(0);
  });

  it("secure payments: create, lookup, public view, pay plan, intent, fee preview, payouts and their batch", async () => {
    const created = await api("POST", "/v2/secure-payments", {
      headers: { "x-client-id": a.clientId },
      json: { requests: [{ amount: "10" }], reference: "ORDER-1", redirectUrl: "https://shop.example/done", redirectLabel: "Back" },
    });
    expect(created.status).toBe(201);
    const token = created.body.token as string;
    const requestId = created.body.requestIds[0] as string;
    expect((await api("GET", "/v2/secure-payments", { headers: bearer(), query: { requestId } })).status).toBe(200);
    // The reference's frontend headers are accepted on the public routes.
    const frontend = { "x-client-id": a.browserClientId, origin: "https://shop.example" };
    const withOptions = await api("GET", "/v2/secure-payments/{token}", {
      headers: frontend,
      params: { token },
      query: { wallet: devnet.accounts.payer.address },
    });
    expect(withOptions.body.paymentOptions.sepolia.USDC.hasEnoughBalance).toBe(true);
    const plan = await api("GET", "/v2/secure-payments/{token}/pay", {
      headers: frontend,
      params: { token },
      query: { wallet: devnet.accounts.payer.address },
    });
    expect(plan.status).toBe(200);
    expect(plan.body.paymentType).toBe("single");
    const intent = await api("POST", "/v2/secure-payments/{token}/intent", {
      params: { token },
      json: { txHash: `0x${"ab".repeat(32)}`, payerAddress: devnet.accounts.payer.address },
    });
    expect(intent.status).toBe(200);

    // The Safe flow (tests/secure-payments/safe-payer.test.ts runs it on chain with a multisig): the Safe's plan, its intent, then 423.
    const safeLink = await api("POST", "/v2/secure-payments", {
      headers: { "x-client-id": a.clientId },
      json: { requests: [{ amount: "3" }] },
    });
    const safeToken = safeLink.body.token as string;
    const safePlan = await api("GET", "/v2/secure-payments/{token}/pay", {
      params: { token: safeToken },
      query: { wallet: devnet.accounts.payer.address, isSafe: "true" },
    });
    expect(safePlan.body.metadata.isSafe).toBe(true);
    const safeIntent = await api("POST", "/v2/secure-payments/{token}/intent", {
      params: { token: safeToken },
      json: { safeTxHash: `0x${"cd".repeat(32)}`, chain: "SEPOLIA", token: "USDC", payerAddress: devnet.accounts.payer.address },
    });
    expect(safeIntent.body.safePaymentDeadline).toBeGreaterThan(0);
    expect((await api("GET", "/v2/secure-payments/{token}", { params: { token: safeToken } })).status).toBe(423);

    const batchLink = await api("POST", "/v2/secure-payments", {
      headers: { "x-client-id": a.clientId },
      json: { requests: [{ amount: "1" }, { amount: "2" }] },
    });
    expect(batchLink.status).toBe(201);
    const batchToken = batchLink.body.token as string;
    expect((await api("GET", "/v2/secure-payments/{token}", { params: { token: batchToken } })).body.paymentType).toBe("batch");
    const batchPlan = await api("GET", "/v2/secure-payments/{token}/pay", {
      params: { token: batchToken },
      query: { wallet: devnet.accounts.payer.address },
    });
    expect(batchPlan.body.paymentType).toBe("batch");

    expect(
      (await api("POST", "/v2/secure-payments/fees/preview", { headers: key(), json: bodyOf("previewSecurePaymentFees") })).status,
    ).toBe(200);
    const payout = (amount: string) =>
      api("POST", "/v2/secure-payments/payouts", {
        headers: key(),
        json: {
          recipient: devnet.accounts.payee.address,
          creatorWalletAddress: devnet.accounts.payer.address,
          network: "sepolia",
          currency: "USDC-sepolia",
          amount,
        },
      });
    const [one, two] = [await payout("3"), await payout("4")];
    expect(one.status).toBe(201);
    const merged = await api("POST", "/v2/secure-payments/batch-payouts", {
      headers: key(),
      json: { tokens: [one.body.token, two.body.token] },
    });
    expect(merged.status).toBe(201);

    const [three, four] = [await payout("5"), await payout("6")];
    const parent = await api("POST", "/v2/secure-payments/multicall-payouts", {
      headers: key(),
      json: { childTokens: [three.body.token, four.body.token] },
    });
    expect(parent.status, JSON.stringify(parent.body)).toBe(201);
    const parentToken = parent.body.token as string;
    expect(
      (await api("GET", "/v2/secure-payments/multicall-payouts/{token}", { headers: key(), params: { token: parentToken } })).status,
    ).toBe(200);
    expect((await api("GET", "/v2/secure-payments/{token}", { params: { token: parentToken } })).body.paymentType).toBe("multicall");
    const multicallPlan = await api("GET", "/v2/secure-payments/{token}/pay", {
      params: { token: parentToken },
      query: { wallet: devnet.accounts.payer.address },
    });
    expect(multicallPlan.body.paymentType).toBe("multicall");
  });

  it("a Tron link's signed transaction is relayed through the configured node", async () => {
    process.env.TRON_API_URL = `http://127.0.0.1:${(tronNode.address() as AddressInfo).port}`;
    reloadEnv();
    const link = await api("POST", "/v2/secure-payments/payouts", {
      headers: key(),
      json: {
        recipient: "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW",
        creatorWalletAddress: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
        network: "tron",
        currency: "USDT-tron",
        amount: "5",
      },
    });
    expect(link.status).toBe(201);
    const res = await api("POST", "/v2/secure-payments/{token}/tron/broadcast", {
      params: { token: link.body.token },
      json: {
        signedTransaction: signedTronTx(USDT_TRON),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it("the retired payer routes answer 404 in the reference's error shape", async () => {
    const res = await api("GET", "/v2/payer/{clientUserId}", { headers: key(), params: { clientUserId: "user-1" } });
    expect(res.status).toBe(404);
    expect(validated.has("GET /v2/payer/{clientUserId} 404")).toBe(true);
  });

  it("the validators reject the shapes that broke a real client", () => {
    const batch = referenceResponseValidator("POST", "/v2/payouts/batch", 201)!;
    const approval = { data: "0x095ea7b3", to: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" };
    expect(batch({ ERC20ApprovalTransactions: [{ ...approval, value: 0 }] })).toBe(true);
    expect(batch({ ERC20ApprovalTransactions: [{ ...approval, value: { type: "BigNumber", hex: "0x0" } }] })).toBe(false);
    const view = referenceResponseValidator("GET", "/v2/secure-payments/{token}", 200)!;
    const single = {
      paymentType: "single",
      status: "pending",
      redirectUrl: null,
      redirectLabel: null,
      branding: null,
      requestIds: ["01ab"],
      payee: devnet.accounts.payee.address,
      network: "sepolia",
      amount: "10",
      paymentCurrency: "USDC-sepolia",
      isNativeCurrency: false,
      destination: null,
      reference: null,
      feePlan: null,
    };
    expect(view(single)).toBe(true);
    // Duebill's earlier view: network and payee as objects, no requestIds.
    expect(view({ ...single, network: { id: "sepolia", chainId: 11155111 } })).toBe(false);
    const { requestIds: _, ...withoutIds } = single;
    expect(view(withoutIds)).toBe(false);
  });

  it("every served reference operation's documented success answer was validated", () => {
    const served = new Set(OPERATIONS.filter((op) => !op.tags?.includes("Retired and out of scope")).map(opKey));
    const missing: string[] = [];
    for (const [op, statuses] of referenceSchemaStatuses()) {
      if (!served.has(op)) continue;
      for (const status of statuses.filter((s) => s >= 200 && s < 300))
        if (!validated.has(`${op} ${status}`)) missing.push(`${op} ${status}`);
    }
    // The operations documented in prose only, held to the shape of the operation they mirror.
    for (const [op, { as }] of Object.entries(REFERENCE_SHAPES)) {
      const statuses = referenceSchemaStatuses().get(as) ?? [];
      if (!served.has(op)) continue;
      for (const status of statuses.filter((s) => s >= 200 && s < 300))
        if (!validated.has(`${op} ${status}`)) missing.push(`${op} ${status} (as ${as})`);
    }
    expect(missing).toEqual([]);
  });
});
