import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createPublicClient, createWalletClient, type Hex, type TypedDataDefinition, http as viemHttp } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { docOperations } from "@/app/docs/operations";
import type { DocOperation } from "@/components/docs/operation-card";
import { db } from "@/lib/db";
import { destinationIdOf } from "@/lib/destinations/erc7828";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import { reloadEnv } from "@/lib/env";
import type { ApiRoute } from "@/lib/http/handler";
import type { Operation } from "@/lib/http/operation";
import { type ExampleContext, exampleContext, recurrenceOf, requestRecurrenceOf } from "@/lib/openapi/operation-examples";
import { OPERATIONS } from "@/lib/operations/index";
import { typedDataToSign } from "@/lib/recurring/permit-signing";
import { type Devnet, devAccount } from "@/scripts/devnet";
import { parseCurl } from "@/tests/helpers/curl";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { operationHandlers } from "@/tests/helpers/operations";
import { TRON_TXID } from "@/tests/helpers/tron-tx";

/**
 * Every example request /docs shows runs as pasted (issue 27, item 7): the curl command of each
 * operation, exactly as docOperations() renders it for the page, is parsed and sent to the
 * operation's route handler, and must answer the status /docs documents beside it. The only
 * substitutions are the ones the page asks the reader to make: the credentials of
 * "Authentication", an `Idempotency-Key`, and the placeholders each example lists under
 * "Before you run it, replace" (an ID an earlier example returns, a wallet's signature), each
 * produced here the way the page says (by running that earlier example, by signing the
 * signing data with the example's wallet). The chain is the anvil devnet.
 */

vi.mock("@/lib/webhooks/resolver", () => ({ webhookResolver: () => async () => [{ address: "93.184.216.34", family: 4 }] }));

type Integrator = Awaited<ReturnType<typeof makeIntegrator>>;

let devnet: Devnet;
let handlers: Map<Operation, ApiRoute>;
let docs: Map<string, DocOperation>;
let ctx: ExampleContext;
let me: Integrator;
let destinationId: string;
/** A platform onboarded by the example orchestrator (another account, with its own wallet and destination). */
let platform: Integrator;
const PLATFORM_WALLET = devAccount(3);
const PLATFORM_OPS = new Set(["completeOnboarding", "endOrchestratorLinkOfClientId"]);

/** Anvil's development accounts: the examples' payee (index 2) and payer (index 1) wallets. */
const WALLETS = new Map([1, 2].map((i) => [devAccount(i).address.toLowerCase(), devAccount(i)]));

interface Sent {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: examples' answers are read field by field
  body: any;
  text: string;
}

/** Runs the example of `operationId` as /docs shows it, with the placeholders filled in. */
async function runExample(operationId: string, { requires = true } = {}): Promise<Sent> {
  const doc = docs.get(operationId);
  if (!doc) throw new Error(`No example for ${operationId}`);
  if (requires) for (const first of doc.requires) await expectCreated(first.operationId);
  let curl = doc.curl;
  for (const name of new Set(curl.match(/<[^<>'\n]+>/g) ?? [])) {
    const value = await resolve(name, operationId);
    // A value put in a URL is URL-encoded (a destination ID has `#`, `@` and `:`), as the placeholder's note says.
    curl = curl.replace(/'[^']*'/g, (quoted) => {
      if (/^'https?:\/\//.test(quoted)) return quoted.replaceAll(name, encodeURIComponent(value));
      // Inside the JSON body, a value is a JSON string's content (a sign-in message has newlines).
      if (/^'[{[]/.test(quoted)) return quoted.replaceAll(name, JSON.stringify(value).slice(1, -1));
      return quoted.replaceAll(name, value);
    });
  }
  const req = parseCurl(curl);
  const op = OPERATIONS.find((o) => o.operationId === operationId)!;
  const handler = handlers.get(op)!;
  const res = await handler(new Request(req.url, { method: req.method, headers: req.headers, body: req.body }), {
    params: Promise.resolve(paramsOf(op.path, new URL(req.url).pathname)),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: res.status, body, text };
}

/** Next hands a route its decoded path parameters. */
function paramsOf(template: string, pathname: string): Record<string, string> {
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const re = new RegExp(`^${template.replace(/\{[^}]+\}/g, "([^/]+)")}$`);
  const m = pathname.match(re);
  if (!m) throw new Error(`${pathname} does not match ${template}`);
  return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
}

async function expectCreated(operationId: string): Promise<Sent> {
  const res = await runExample(operationId);
  expect(res.status, `${operationId} (run as an earlier step): ${res.text.slice(0, 400)}`).toBe(docs.get(operationId)!.response.status);
  return res;
}

/** The wallet's EIP-712 signature of the signing data, as the page says. */
async function signed(action: "add" | "deactivate"): Promise<{ nonce: string; signature: string }> {
  const res = await expectCreated("getPayeeDestinationSigningData");
  const data = res.body as TypedDataDefinition & { nonce: string; message: Record<string, string> };
  const wallet = WALLETS.get(ctx.payee.toLowerCase())!;
  const typed = { ...data, message: { ...data.message, action } } as TypedDataDefinition;
  if (action === "deactivate") {
    const q = await runSigningData(action);
    const signature = await privateKeyToAccount(wallet.privateKey).signTypedData(q as TypedDataDefinition);
    return { nonce: q.nonce, signature };
  }
  const signature = await privateKeyToAccount(wallet.privateKey).signTypedData(typed);
  return { nonce: data.nonce, signature };
}

/** The signing data for `deactivate` (the example on the page is for `add`; the note says to ask for `deactivate`). */
async function runSigningData(action: string) {
  const doc = docs.get("getPayeeDestinationSigningData")!;
  const req = parseCurl(doc.curl.replace("action=add", `action=${action}`).replace("<your client ID>", me.clientId));
  const op = OPERATIONS.find((o) => o.operationId === "getPayeeDestinationSigningData")!;
  const res = await handlers.get(op)!(new Request(req.url, { method: req.method, headers: req.headers }), { params: Promise.resolve({}) });
  expect(res.status).toBe(200);
  return (await res.json()) as TypedDataDefinition & { nonce: string };
}

const cache = new Map<string, Promise<string>>();
let recurring: Promise<{ id: string; permitSignature: string; requestId: string }>;
let challengeOf: Promise<{ challengeId: string; nonce: string; message: string; signature: string }> | undefined;

/** A recurring payout made as the placeholder's note says; its permit signed by the payer (and activated, unless `activate` is false). */
function recurringPayout(activate: boolean): Promise<string> {
  recurring = (async () => {
    const doc = docs.get("createPayout")!;
    const req = parseCurl(doc.curl.replace("<your API key>", me.apiKey).replace("<unique key>", randomUUID()));
    const body = { ...JSON.parse(req.body!), recurrence: recurrenceOf(ctx) };
    const op = OPERATIONS.find((o) => o.operationId === "createPayout")!;
    const res = await handlers.get(op)!(new Request(req.url, { method: "POST", headers: req.headers, body: JSON.stringify(body) }), {
      params: Promise.resolve({}),
    });
    const created = await res.json();
    expect(res.status, JSON.stringify(created)).toBe(201);
    const payer = WALLETS.get(ctx.payer.toLowerCase())!;
    const wallet = createWalletClient({
      account: privateKeyToAccount(payer.privateKey),
      chain: devnet.chain,
      transport: viemHttp(devnet.rpcUrl),
    });
    const pub = createPublicClient({ chain: devnet.chain, transport: viemHttp(devnet.rpcUrl) });
    for (const tx of created.transactions as { to: Hex; data: Hex }[]) {
      await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: tx.to, data: tx.data }) });
    }
    const permit = created.recurringPaymentPermit;
    const permitSignature = await privateKeyToAccount(payer.privateKey).signTypedData({
      domain: permit.domain,
      types: permit.types,
      primaryType: permit.primaryType,
      message: permit.values,
    } as TypedDataDefinition);
    return { id: created.id as string, permitSignature, requestId: created.metadata.requests[0].requestId as string };
  })();
  return recurring.then(async ({ id, permitSignature }) => {
    if (activate) {
      const res = await runExampleWith("activateRecurringPayout", { "<id>": id, "<permitSignature>": permitSignature });
      expect(res.status, res.text).toBe(201);
    }
    return id;
  });
}

const REFUND_OPS = new Set(["createRefund", "listRefunds", "getRefund", "markRefundSent", "cancelRefund", "getRefundReceipt"]);
let lastPaidRequest = "";
let lastLinkToken = "";
let lastSubscriptionToken = "";

/** The gasless plan (GET …/gasless) of a link for the example payer, and that wallet's signature of its typed data. */
async function gaslessSigned(token: string): Promise<Record<string, string>> {
  const op = OPERATIONS.find((o) => o.operationId === "securePaymentGaslessPlan")!;
  const res = await handlers.get(op)!(new Request(`http://localhost:3000/v2/secure-payments/${token}/gasless?wallet=${ctx.payer}`), {
    params: Promise.resolve({ token }),
  });
  const plan = await res.json();
  expect(res.status, JSON.stringify(plan)).toBe(200);
  const m = plan.typedData.message;
  const signature = await privateKeyToAccount(WALLETS.get(ctx.payer.toLowerCase())!.privateKey).signTypedData({
    ...plan.typedData,
    message: { ...m, value: BigInt(m.value), validAfter: BigInt(m.validAfter), validBefore: BigInt(m.validBefore) },
  } as TypedDataDefinition);
  return { "<planSalt>": plan.payment.salt, "<planValidBefore>": plan.validBefore, "<planSignature>": signature };
}

/**
 * A request paid on chain as the placeholder's note says: created by its example, paid with GET /pay's
 * calldata from the example payer's wallet, recorded by detection.
 */
async function paidRequest(): Promise<string> {
  const requestId = (await expectCreated("createRequest")).body.requestId as string;
  const pay = OPERATIONS.find((o) => o.operationId === "payRequest")!;
  const res = await handlers.get(pay)!(
    new Request(`http://localhost:3000/v2/request/${requestId}/pay?wallet=${ctx.payer}`, { headers: { "x-api-key": me.apiKey } }),
    { params: Promise.resolve({ requestId }) },
  );
  const plan = await res.json();
  expect(res.status, JSON.stringify(plan)).toBe(200);
  const payer = WALLETS.get(ctx.payer.toLowerCase())!;
  const wallet = createWalletClient({
    account: privateKeyToAccount(payer.privateKey),
    chain: devnet.chain,
    transport: viemHttp(devnet.rpcUrl),
  });
  const pub = createPublicClient({ chain: devnet.chain, transport: viemHttp(devnet.rpcUrl) });
  for (const tx of plan.transactions as { to: Hex; data: Hex }[]) {
    await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: tx.to, data: tx.data }) });
  }
  await sweepDetectionNetwork(evmEventSource(ctx.network as "sepolia")!);
  expect((await db().paymentRequest.findUniqueOrThrow({ where: { id: requestId } })).status).toBe("paid");
  lastPaidRequest = requestId;
  return requestId;
}

/** Sends a plan's transactions from one of the example wallets, then lets detection record them. */
async function sendAndSweep(from: string, transactions: { to: Hex; data: Hex }[]): Promise<void> {
  const w = WALLETS.get(from.toLowerCase())!;
  const wallet = createWalletClient({
    account: privateKeyToAccount(w.privateKey),
    chain: devnet.chain,
    transport: viemHttp(devnet.rpcUrl),
  });
  const pub = createPublicClient({ chain: devnet.chain, transport: viemHttp(devnet.rpcUrl) });
  for (const tx of transactions) await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: tx.to, data: tx.data }) });
  await sweepDetectionNetwork(evmEventSource(ctx.network as "sepolia")!);
}

/** A recurring request made as the placeholders' notes say: the createRequest example with the example `recurrence`. */
async function recurringRequest(): Promise<{ requestId: string; paymentReference: string }> {
  const doc = docs.get("createRequest")!;
  const req = parseCurl(doc.curl.replace("<your API key>", me.apiKey).replace("<unique key>", randomUUID()));
  const body = { ...JSON.parse(req.body!), recurrence: requestRecurrenceOf(ctx) };
  const op = OPERATIONS.find((o) => o.operationId === "createRequest")!;
  const res = await handlers.get(op)!(new Request(req.url, { method: "POST", headers: req.headers, body: JSON.stringify(body) }), {
    params: Promise.resolve({}),
  });
  const created = await res.json();
  expect(res.status, JSON.stringify(created)).toBe(201);
  return created;
}

/** The createRequest example with an invoice whose lines add up to its amount (12.50 = 2 × 5.00 + 25 % tax). */
async function invoicedRequest(): Promise<string> {
  const doc = docs.get("createRequest")!;
  const req = parseCurl(doc.curl.replace("<your API key>", me.apiKey).replace("<unique key>", randomUUID()));
  const invoice = { lines: [{ description: "Widget", quantity: "2", unitPrice: "5.00", taxRate: "25" }] };
  const body = { ...JSON.parse(req.body!), amount: "12.50", invoice };
  const op = OPERATIONS.find((o) => o.operationId === "createRequest")!;
  const res = await handlers.get(op)!(new Request(req.url, { method: "POST", headers: req.headers, body: JSON.stringify(body) }), {
    params: Promise.resolve({}),
  });
  const created = await res.json();
  expect(res.status, JSON.stringify(created)).toBe(201);
  return created.requestId;
}

/** A sign-in challenge for the example wallet, signed with personal_sign as the page says. */
function challenge() {
  challengeOf ??= (async () => {
    const res = await expectCreated("createWalletChallenge");
    const wallet = [...WALLETS.values()].find((w) => res.body.message.includes(w.address))!;
    const signature = await privateKeyToAccount(wallet.privateKey).signMessage({ message: res.body.message });
    return { challengeId: res.body.challengeId, nonce: res.body.nonce, message: res.body.message, signature };
  })();
  return challengeOf;
}

let payerSignature = "";
let refundSigned: Record<string, string> = {};

/**
 * A request at the step a commerce payment example needs, made as its placeholder's note says: created;
 * prepared (and its typed data signed by the example payer); authorized through the API; captured.
 */
async function commerceRequest(operationId: string): Promise<string> {
  const requestId = (await expectCreated("createRequest")).body.requestId as string;
  if (operationId === "authorizeCommercePaymentCalldata") return requestId;
  const prepared = await runExampleWith("authorizeCommercePaymentCalldata", { "<requestId>": requestId });
  expect(prepared.status, prepared.text).toBe(201);
  const td = prepared.body.typedData;
  const payer = WALLETS.get(ctx.payer.toLowerCase())!;
  payerSignature = await privateKeyToAccount(payer.privateKey).signTypedData({ ...td, message: td.message } as TypedDataDefinition);
  if (operationId === "authorizeCommercePayment") return requestId;
  const authorized = await runExampleWith("authorizeCommercePayment", { "<requestId>": requestId, "<payerSignature>": payerSignature });
  expect(authorized.status, authorized.text).toBe(200);
  if (!operationId.startsWith("refundCommercePayment")) return requestId;
  const captured = await runExampleWith("captureCommercePayment", { "<requestId>": requestId });
  expect(captured.status, captured.text).toBe(200);
  if (operationId === "refundCommercePayment") {
    // The refund's typed data from the calldata example (amount 1), signed by the example payee.
    const prepared = await runExampleWith("refundCommercePaymentCalldata", { "<requestId>": requestId });
    expect(prepared.status, prepared.text).toBe(200);
    const payee = WALLETS.get(ctx.payee.toLowerCase())!;
    const typed = prepared.body.typedData;
    refundSigned = {
      "<validBefore>": typed.message.validBefore,
      "<refundSalt>": prepared.body.refundSalt,
      "<payeeSignature>": await privateKeyToAccount(payee.privateKey).signTypedData(typed as TypedDataDefinition),
    };
  }
  return requestId;
}

/** Links `clientId` to the example orchestrator by running the link example. */
async function linkAsOrchestrator(clientId: string) {
  const res = await runExampleWith("linkClientId", { "<clientId>": clientId });
  expect(res.status, res.text).toBe(201);
}

/** Runs an example with some placeholders given (the rest resolved as usual). */
const given = new Map<string, string>();
async function runExampleWith(operationId: string, values: Record<string, string>): Promise<Sent> {
  for (const [k, v] of Object.entries(values)) given.set(k, v);
  try {
    return await runExample(operationId);
  } finally {
    for (const k of Object.keys(values)) given.delete(k);
  }
}

async function resolve(name: string, operationId: string): Promise<string> {
  const preset = given.get(name);
  if (preset !== undefined) return preset;
  switch (name) {
    case "<your API key>":
      return me.apiKey;
    case "<your client ID>":
      return me.clientId;
    case "<your orchestrator key>":
      return me.orchestratorKey;
    case "<session token>":
      // The platform's pages call these two with the platform's session (an orchestrator cannot onboard itself).
      if (PLATFORM_OPS.has(operationId)) return walletSessionToken(platform.account.id, PLATFORM_WALLET.address);
      return walletSessionToken(me.account.id, ctx.payee);
    case "<unique key>":
      return randomUUID();
    case "<requestId>":
      if (operationId.endsWith("CommercePayment") || operationId.includes("CommercePayment")) return commerceRequest(operationId);
      if (REFUND_OPS.has(operationId)) return paidRequest();
      if (operationId === "updateRequestRecurrence") return (await recurringRequest()).requestId;
      if (operationId === "getSecurePayment") return (await expectCreated("createSecurePayment")).body.requestIds[0];
      if (operationId === "getRequestInvoicePdf") return invoicedRequest();
      return (await expectCreated("createRequest")).body.requestId;
    case "<paymentReference>":
      return (await recurringRequest()).paymentReference;
    case "<token>":
      if (operationId === "securePaymentTronBroadcast") {
        return tronPayoutLink();
      }
      if (operationId === "getMulticallPayout") return (await expectCreated("createMulticallPayout")).body.token;
      lastLinkToken = (await expectCreated("createSecurePayment")).body.token;
      return lastLinkToken;
    case "<token1>":
    case "<token2>":
      return (await expectCreated("createSecurePayout")).body.token;
    case "<destinationId>":
      return destinationId;
    case "<nonce>":
    case "<signature>": {
      if (operationId === "securePaymentTronBroadcast") return "ab".repeat(65);
      if (operationId === "verifyWalletChallenge") return (await challenge())[name === "<nonce>" ? "nonce" : "signature"];
      const action = operationId.startsWith("deactivate") ? "deactivate" : "add";
      const key = `${operationId}:${action}`;
      if (!cache.has(key))
        cache.set(
          key,
          signed(action).then((s) => JSON.stringify(s)),
        );
      const s = JSON.parse(await cache.get(key)!) as { nonce: string; signature: string };
      return name === "<nonce>" ? s.nonce : s.signature;
    }
    case "<id>":
      if (/OrchestratorWebhook/.test(operationId)) return (await expectCreated("createOrchestratorWebhook")).body.webhook.id;
      if (/OrchestratorFeeConfig/.test(operationId)) return (await expectCreated("createOrchestratorFeeConfig")).body.id;
      if (/Webhook/.test(operationId)) return (await expectCreated("createWebhook")).body.id;
      if (/RecurringPayout/.test(operationId)) return recurringPayout(operationId !== "activateRecurringPayout");
      if (operationId === "endOrchestratorLinkOfClientId") {
        // The platform's own client ID, which the example orchestrator linked.
        await linkAsOrchestrator(platform.clientId);
        return platform.clientId;
      }
      return (await expectCreated("createClientId")).body.id;
    case "<deliveryId>": {
      // The webhook of `<id>` exists already: its test delivery is the one sent again.
      const sent = await runExample("testWebhook", { requires: false });
      expect(sent.status, sent.text).toBe(201);
      const hook = (await db().webhookEndpoint.findFirstOrThrow({ where: { accountId: me.account.id } })).id;
      const list = await runExampleWith("listWebhookDeliveries", { "<id>": hook });
      return list.body.deliveries?.[0]?.id ?? list.body[0]?.id;
    }
    case "<clientId>": {
      // A platform's client ID (another account's); `unlinkClientId` needs it linked first.
      const platform = await makeIntegrator();
      if (operationId === "unlinkClientId") await linkAsOrchestrator(platform.clientId);
      return platform.clientId;
    }
    case "<refundId>": {
      // A refund of the request this example's `<requestId>` named, prepared as the page says.
      const res = await runExampleWith("createRefund", { "<requestId>": lastPaidRequest });
      expect(res.status, res.text).toBe(201);
      // A refund's receipt: its transactions sent from the payee's wallet and confirmed by detection first.
      if (operationId === "getRefundReceipt") await sendAndSweep(ctx.payee, res.body.transactions);
      return res.body.refund.id;
    }
    case "<paymentId>":
    case "<receiptId>": {
      const payment = await db().payment.findFirstOrThrow({ where: { requestId: await paidRequest() } });
      if (name === "<paymentId>") return payment.id;
      const receipt = await runExampleWith("getPaymentReceipt", { "<paymentId>": payment.id });
      expect(receipt.status, receipt.text).toBe(200);
      return receipt.body.receipt.id;
    }
    case "<planSalt>":
    case "<planValidBefore>":
    case "<planSignature>": {
      // The gasless plan of the link this example's `<token>` named, signed by the example payer as the page says.
      const key = `gasless:${lastLinkToken}`;
      if (!cache.has(key))
        cache.set(
          key,
          gaslessSigned(lastLinkToken).then((s) => JSON.stringify(s)),
        );
      const s = JSON.parse(await cache.get(key)!) as Record<string, string>;
      return s[name]!;
    }
    case "<subscriptionToken>": {
      // An active recurring payout's payer page token (its `payerUrl`), as the placeholder's note says.
      const id = await recurringPayout(true);
      lastSubscriptionToken = (await db().recurringSchedule.findUniqueOrThrow({ where: { id } })).payerToken!;
      return lastSubscriptionToken;
    }
    case "<renewalDeadline>":
    case "<renewalSignature>": {
      // The renewal of the subscription this example's `<subscriptionToken>` named, signed by the example payer.
      const token = lastSubscriptionToken;
      const op = OPERATIONS.find((o) => o.operationId === "getSubscriptionPermitRenewal")!;
      const res = await handlers.get(op)!(new Request(`http://localhost:3000/v2/subscriptions/${token}/permit`), {
        params: Promise.resolve({ token }),
      });
      const plan = await res.json();
      expect(res.status, JSON.stringify(plan)).toBe(200);
      if (name === "<renewalDeadline>") return plan.deadline;
      return privateKeyToAccount(WALLETS.get(ctx.payer.toLowerCase())!.privateKey).signTypedData(typedDataToSign(plan.typedData));
    }
    case "<payerSignature>":
      return payerSignature;
    case "<validBefore>":
    case "<refundSalt>":
    case "<payeeSignature>":
      return refundSigned[name]!;
    case "<txID>":
      return TRON_TXID;
    case "<raw_data_hex>":
      return "0a02abcd";
    case "<stepId>":
      return "0x7e1c9f3a";
    case "<txHash>":
      return `0x${"ab".repeat(32)}`;
    case "<permitSignature>":
      return (await recurring).permitSignature;
    case "<challengeId>":
    case "<message>":
      return (await challenge())[name.slice(1, -1) as "challengeId" | "message"];
    case "<onboardingToken>": {
      const intent = await expectCreated("createClientIdLinkIntent");
      return new URL(intent.body.url).searchParams.get("token")!;
    }
    default:
      throw new Error(`${operationId}: the test does not know the placeholder ${name}`);
  }
}

beforeAll(async () => {
  // Files share one database: start from an empty one (an earlier file may hold the example wallets' destinations).
  await resetDb();
  await startUpstream();
  // The deployment the docs describe sends email: createSecurePayment's example collects the payer's (nothing is swept here).
  process.env.SMTP_URL = "smtp://127.0.0.1:2525";
  devnet = await useDevnet();
  handlers = await operationHandlers();
  ctx = exampleContext();
  docs = new Map(docOperations().operations.map((d) => [d.operationId, d]));
  me = await makeIntegrator();
  const token = devnet.tokens.USDC ?? ctx.tokenAddress;
  destinationId = destinationIdOf(ctx.payee, ctx.chainId, token);
  platform = await makeIntegrator();
  await db().payeeDestination.create({
    data: {
      id: destinationIdOf(PLATFORM_WALLET.address, ctx.chainId, ctx.tokenAddress),
      accountId: platform.account.id,
      walletAddress: PLATFORM_WALLET.address.toLowerCase(),
      network: ctx.network,
      chainId: ctx.chainId,
      tokenAddress: ctx.tokenAddress,
      tokenSymbol: "USDC",
    },
  });
});
afterAll(async () => {
  upstream.close();
  delete process.env.SMTP_URL;
  await stopDevnet(devnet);
});

beforeEach(async () => {
  cache.clear();
  challengeOf = undefined;
  // Each example starts from the account's documented state: no webhooks, branding or fee configurations left by another.
  await db().webhookEndpoint.deleteMany({ where: { accountId: me.account.id } });
  await db().branding.deleteMany({ where: { accountId: me.account.id } });
  await db().feeConfig.deleteMany({ where: { accountId: me.account.id } });
  // The account receives on the example network with the example's payee wallet (an earlier step of the guides).
  await db().payeeDestination.updateMany({ where: { accountId: me.account.id, id: { not: destinationId } }, data: { active: false } });
  await db().payeeDestination.upsert({
    where: { id: destinationId },
    create: {
      id: destinationId,
      accountId: me.account.id,
      walletAddress: ctx.payee.toLowerCase(),
      network: ctx.network,
      chainId: ctx.chainId,
      tokenAddress: ctx.tokenAddress,
      tokenSymbol: "USDC",
      active: true,
    },
    update: { active: true, deactivatedAt: null },
  });
});

/**
 * Two examples call a service outside Duebill: the Tron broadcast relays to a Tron node API
 * (TRON_API_URL) and the step refresh asks LI.FI (ROUTING_PROVIDER=lifi). Here both point at a
 * loopback stand-in that answers those two endpoints as the real services do, so the examples
 * run through the operations' own checks and relaying code.
 */
const UPSTREAM_ENV: Record<string, (url: string) => Record<string, string>> = {
  securePaymentTronBroadcast: (url) => ({ TRON_API_URL: url }),
  securePaymentRefreshStep: (url) => ({ ROUTING_PROVIDER: "lifi", LIFI_API_URL: url }),
};
let upstream: Server;
let upstreamUrl: string;
const upstreamCalls: string[] = [];

function startUpstream(): Promise<void> {
  upstream = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      upstreamCalls.push(`${req.method} ${req.url}`);
      const body = raw ? JSON.parse(raw) : {};
      res.setHeader("content-type", "application/json");
      if (req.url === "/wallet/broadcasttransaction")
        return void res.end(JSON.stringify({ result: true, code: "SUCCESS", txid: body.txID }));
      if (req.url === "/v1/advanced/stepTransaction")
        return void res.end(
          JSON.stringify({
            ...body,
            transactionRequest: { to: body.action.toAddress, data: "0xa9059cbb", value: "0x0", chainId: body.action.toChainId },
          }),
        );
      res.statusCode = 404;
      res.end("{}");
    });
  });
  return new Promise((ok) =>
    upstream.listen(0, "127.0.0.1", () => {
      upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
      ok();
    }),
  );
}

/** A pending Tron payout link of the example account (the Tron broadcast's `<token>`). */
async function tronPayoutLink(): Promise<string> {
  const op = OPERATIONS.find((o) => o.operationId === "createSecurePayout")!;
  const res = await handlers.get(op)!(
    new Request("http://localhost:3000/v2/secure-payments/payouts", {
      method: "POST",
      headers: { "x-client-id": me.clientId, "content-type": "application/json" },
      body: JSON.stringify({
        recipient: "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW",
        creatorWalletAddress: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
        network: "tron",
        currency: "USDT-tron",
        amount: "5",
      }),
    }),
    { params: Promise.resolve({}) },
  );
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.token;
}

describe("every example on /docs runs as pasted", () => {
  it("uses the devnet's network and a start date ahead", () => {
    expect(ctx.network).toBe("sepolia");
    expect(Date.parse(ctx.startDate)).toBeGreaterThan(Date.now());
  });

  it.each(OPERATIONS.map((op) => [op.operationId] as const))("%s", async (id) => {
    const vars = UPSTREAM_ENV[id]?.(upstreamUrl) ?? {};
    Object.assign(process.env, vars);
    reloadEnv();
    try {
      upstreamCalls.length = 0;
      const res = await runExample(id);
      expect(res.status, `${id}: ${res.text.slice(0, 600)}\n${docs.get(id)!.curl}`).toBe(docs.get(id)!.response.status);
      if (UPSTREAM_ENV[id]) expect(upstreamCalls).toHaveLength(1);
    } finally {
      for (const k of Object.keys(vars)) delete process.env[k];
      reloadEnv();
    }
  });
});
