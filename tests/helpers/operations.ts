import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { z } from "zod";
import type { ApiRoute } from "@/lib/http/handler";
import type { Operation } from "@/lib/http/operation";
import { OPERATIONS } from "@/lib/operations/index";

/**
 * Every API route file under app/v1 and app/v2, imported, and each registered operation mapped
 * to the handler that serves it; plus request builders that work from an operation's
 * declaration alone. Suites generated from OPERATIONS (tests/operations/matrix.test.ts,
 * tests/operations/fuzz.test.ts) use these, so a new operation joins them by being registered.
 */
const APP = path.resolve(import.meta.dirname, "../../app");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

/** API route files (app/v2/openapi.json serves the document, not an operation). */
export function apiRouteFiles(): string[] {
  return [...routeFiles(path.join(APP, "v1")), ...routeFiles(path.join(APP, "v2"))].filter(
    (f) => !f.split(path.sep).includes("openapi.json"),
  );
}

export const opKey = (op: Pick<Operation, "method" | "path">) => `${op.method} ${op.path}`;

let loaded: Promise<Map<Operation, ApiRoute>> | undefined;

/**
 * Operation → route handler, for every registered operation. Throws when a registered operation
 * has no route file (tests/operations/routes.test.ts says which) or a route exports an unwrapped method.
 */
export function operationHandlers(): Promise<Map<Operation, ApiRoute>> {
  loaded ??= (async () => {
    const byKey = new Map<string, ApiRoute>();
    for (const file of apiRouteFiles()) {
      const mod = (await import(file)) as Record<string, ApiRoute | undefined>;
      for (const m of METHODS) {
        const handler = mod[m];
        if (handler === undefined) continue;
        if (!handler.operation) throw new Error(`${m} in ${file} is not wrapped with withApi`);
        byKey.set(opKey(handler.operation), handler);
      }
    }
    const map = new Map<Operation, ApiRoute>();
    for (const op of OPERATIONS) {
      const handler = byKey.get(opKey(op));
      if (!handler) throw new Error(`No route file serves ${opKey(op)}`);
      map.set(op, handler);
    }
    return map;
  })();
  return loaded;
}

/** Names of an operation's path parameters, in path order: `/v1/webhook/{id}/deliveries/{deliveryId}` → [id, deliveryId]. */
export function pathParamNames(op: Pick<Operation, "path">): string[] {
  return [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

/**
 * The request URL of an operation: its path template with each `{name}` replaced by the
 * URL-encoded value, and the query string. A missing parameter is an error, not "undefined".
 */
export function operationUrl(op: Pick<Operation, "path">, params: Record<string, string> = {}, query: Record<string, string> = {}): string {
  const pathname = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`No value for path parameter ${name} of ${op.path}`);
    return encodeURIComponent(value);
  });
  const qs = new URLSearchParams(query).toString();
  return `http://localhost:3000${pathname}${qs ? `?${qs}` : ""}`;
}

/** Well-formed values for parameters and query fields, by name (objects that need not exist). */
export const PLAUSIBLE: Record<string, string> = {
  requestId: `01${"ab".repeat(32)}`,
  refundId: "rfd_01JZZZZZZZZZZZZZZZZZZZZZZZ",
  paymentReference: "0xb3581f0b0f74cc61",
  destinationId: "0xFe89cc7aBB2C4183683ab71653C4cdc9B02D44b7@eip155:1#80B12379:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
  id: "01JZZZZZZZZZZZZZZZZZZZZZZZ",
  deliveryId: "01JZZZZZZZZZZZZZZZZZZZZZZY",
  currencyId: "USDC-base",
  token: "spt_plausible_but_unknown_token_0000",
  wallet: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  walletAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  tokenAddress: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  action: "add",
  chainId: "8453",
  network: "base",
};

/** Path parameter values of an operation: PLAUSIBLE by name, then `overrides`. */
export function plausibleParams(op: Pick<Operation, "path">, overrides: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(pathParamNames(op).map((name) => [name, overrides[name] ?? PLAUSIBLE[name] ?? "plausible-value"]));
}

/** The field names of a zod object schema (empty for anything else). */
export function schemaKeys(schema: z.ZodType | undefined): string[] {
  const shape = (schema as { shape?: Record<string, z.ZodType> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

/** The fields a zod object schema requires (those that do not accept `undefined`). */
export function requiredKeys(schema: z.ZodType | undefined): string[] {
  const shape = (schema as { shape?: Record<string, z.ZodType> } | undefined)?.shape ?? {};
  return Object.entries(shape)
    .filter(([, field]) => !field.safeParse(undefined).success)
    .map(([k]) => k);
}

/** A query with every required field of the operation filled with a plausible value, then `overrides`. */
export function plausibleQuery(op: Pick<Operation, "query">, overrides: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of requiredKeys(op.query)) out[k] = PLAUSIBLE[k] ?? "plausible-value";
  for (const [k, v] of Object.entries(overrides)) if (schemaKeys(op.query).includes(k)) out[k] = v;
  return out;
}

const EVM = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";

/** An x402 facilitator body (lib/x402/wire.ts): a well-formed `exact` payment, to no Duebill request. */
const X402_REQUIREMENTS = {
  scheme: "exact",
  network: "eip155:8453",
  asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  amount: "1000000",
  payTo: EVM,
  maxTimeoutSeconds: 300,
  extra: { name: "USD Coin", version: "2" },
};
const X402_BODY = {
  x402Version: 2,
  paymentPayload: {
    x402Version: 2,
    accepted: X402_REQUIREMENTS,
    payload: {
      signature: `0x${"ab".repeat(64)}1b`,
      authorization: { from: EVM, to: EVM, value: "1000000", validAfter: "0", validBefore: "1767225600", nonce: `0x${"5e".repeat(32)}` },
    },
  },
  paymentRequirements: X402_REQUIREMENTS,
};

/**
 * A valid-shaped body per operation (by operationId): what a well-behaved client sends. The
 * objects it names need not exist. Operations without an entry get `sampleBody`'s fallback.
 */
export const SAMPLE_BODIES: Record<string, Record<string, unknown>> = {
  setSecurePaymentPayerEmail: { email: "payer@example.com" },
  createRequest: {
    amount: "12.5",
    invoiceCurrency: "USDC-base",
    paymentCurrency: "USDC-base",
    payee: EVM,
    reference: "INV-1",
    customerInfo: { firstName: "Ada", email: "ada@example.com", address: { city: "Paris", country: "FR" } },
  },
  createPayout: {
    payee: EVM,
    amount: "25.50",
    invoiceCurrency: "USD",
    paymentCurrency: "USDC-base",
    payerWallet: PLAUSIBLE.wallet,
    reference: "PO-1",
  },
  createBatchPayout: {
    requests: [
      { payee: EVM, amount: "1", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base" },
      { payee: PLAUSIBLE.wallet, amount: "2", invoiceCurrency: "USD", paymentCurrency: "USDC-base" },
    ],
    payer: PLAUSIBLE.wallet,
  },
  createSecurePayment: {
    requests: [{ amount: "10" }],
    reference: "ORDER-1",
    redirectUrl: "https://shop.example/done",
    redirectLabel: "Back to shop",
    accessPolicy: { mode: "inherit", allowedPayerAddresses: [PLAUSIBLE.wallet], maskPayee: false },
  },
  createSecurePayout: { recipient: EVM, creatorWalletAddress: PLAUSIBLE.wallet, network: "base", currency: "USDC-base", amount: "5" },
  createPayeeDestination: { currency: "USDC-base", walletAddress: EVM },
  // A client ID's deactivation (the reference's body); a session needs none.
  deactivatePayeeDestination: { nonce: "0123456789abcdef0123456789abcdef", signature: `0x${"11".repeat(65)}` },
  deactivatePayeeDestinationByBodyV1: {
    destinationId: PLAUSIBLE.destinationId,
    nonce: "0123456789abcdef0123456789abcdef",
    signature: `0x${"11".repeat(65)}`,
  },
  createWalletChallenge: { address: EVM, chainId: 1 },
  verifyWalletChallenge: {
    challengeId: "01JZZZZZZZZZZZZZZZZZZZZZZZ",
    nonce: "abcdefgh12345678",
    message: "hello",
    signature: `0x${"11".repeat(65)}`,
  },
  register: { email: "fuzz@example.com", password: "correct horse battery" },
  login: { email: "fuzz@example.com", password: "correct horse battery" },
  createWebhook: { url: "https://hooks.example.test/fuzz" },
  updateWebhook: { active: true },
  testWebhook: { eventType: "payment.confirmed" },
  activateRecurringPayout: { permitSignature: `0x${"11".repeat(65)}` },
  linkClientId: { clientId: "cli_plausible_client" },
  createClientId: { label: "Shop frontend", allowedDomains: ["https://shop.example"] },
  updateClientId: { label: "Shop frontend", allowedDomains: ["https://shop.example"], status: "active" },
  createClientIdLinkIntent: { clientIdName: "Acme shop", domains: ["https://shop.acme.test"], externalId: "acme-1" },
  completeOnboarding: { token: "plausible-onboarding-token-0123456789" },
  manageRecurringPayout: { action: "cancel" },
  updateRequestRecurrence: { isRecurrenceStopped: true },
  createRefund: { amount: "1", to: PLAUSIBLE.wallet },
  markRefundSent: { txHash: `0x${"ab".repeat(32)}` },
  createOrchestratorWebhook: { url: "https://hooks.example.test/orchestrator" },
  testOrchestratorWebhooks: { eventType: "client_id.linked" },
  createOrchestratorFeeConfig: {
    flow: "get_paid",
    percentageBps: 100,
    capUsd: "5",
    feeBearer: "payer",
    evmAddress: EVM,
    label: "Platform fee",
  },
  updateOrchestratorFeeConfig: { percentageBps: 150, capUsd: "2.50", feeBearer: "payee", label: "Platform fee" },
  createOrchestratorBranding: {
    displayName: "Acme Pay",
    logoUrl: "https://cdn.example/logo.png",
    accentColor: "#1a73e8",
    supportUrl: "https://acme.example/support",
  },
  updateOrchestratorBranding: { displayName: "Acme Pay", accentColor: "#0b57d0" },
  securePaymentIntent: { txHash: `0x${"ab".repeat(32)}`, chain: "BASE", token: "USDC" },
  previewSecurePaymentFees: { amount: "100", currency: "USDC", flow: "get_paid" },
  securePaymentRefreshStep: {
    step: {
      id: "step-1",
      type: "lifi",
      tool: "across",
      action: { toChainId: 8453, toAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" },
    },
  },
  createSecureBatchPayout: { tokens: ["01JAAAAAAAAAAAAAAAAAAAAAAA", "01JBBBBBBBBBBBBBBBBBBBBBBB"] },
  createMulticallPayout: { childTokens: ["01JAAAAAAAAAAAAAAAAAAAAAAA", "01JBBBBBBBBBBBBBBBBBBBBBBB"] },
  securePaymentTronBroadcast: {
    signedTransaction: {
      raw_data_hex: "0a02abcd",
      signature: ["ab".repeat(65)],
      raw_data: {
        contract: [{ type: "TriggerSmartContract", parameter: { value: { contract_address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" } } }],
      },
    },
  },
  x402Verify: X402_BODY,
  x402Settle: X402_BODY,
};

/** The sample body of an operation; without one, its required fields as plausible strings. */
export function sampleBody(op: Pick<Operation, "operationId" | "body">): Record<string, unknown> {
  const sample = SAMPLE_BODIES[op.operationId];
  if (sample) return structuredClone(sample);
  return Object.fromEntries(requiredKeys(op.body).map((k) => [k, PLAUSIBLE[k] ?? "plausible-value"]));
}

export interface RawResponse {
  status: number;
  text: string;
  headers: Headers;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

/** Calls a route handler with a real Request and returns the raw text (the body may be anything). */
export async function invoke(
  handler: ApiRoute,
  url: string,
  init: { method?: string; headers?: Record<string, string>; params?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  const req = new Request(url, { method: init.method ?? "GET", headers: init.headers, body: init.body });
  const res = await handler(req, { params: Promise.resolve(init.params ?? {}) });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = undefined;
  }
  return { status: res.status, text, headers: res.headers, json };
}
