/**
 * x402 on anvil, paid by the official client (@x402/fetch, @x402/evm's exact-EVM scheme, a viem
 * account) against the app's routes served by a real HTTP server, and its facilitator checked by
 * @x402/core's HTTPFacilitatorClient (which validates our answers against the spec's zod schemas).
 * The chain is the oracle for "one transfer": Transfer logs and balances, read with viem.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, HTTPFacilitatorClient } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm";
import { wrapFetchWithPaymentFromConfig } from "@x402/fetch";
import { createPublicClient, erc20Abi, type Hex, http, type PublicClient, parseAbiItem, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as createDestination } from "@/app/v2/payee-destination/route";
import { POST as createRequest } from "@/app/v2/request/route";
import { POST as createLink } from "@/app/v2/secure-payments/route";
import { POST as settleRoute } from "@/app/v2/x402/facilitator/settle/route";
import { GET as supportedRoute } from "@/app/v2/x402/facilitator/supported/route";
import { POST as verifyRoute } from "@/app/v2/x402/facilitator/verify/route";
import { GET as requestResource } from "@/app/v2/x402/requests/[requestId]/route";
import { GET as linkResource } from "@/app/v2/x402/secure-payments/[token]/route";
import { db } from "@/lib/db";
import { sweepDeposits } from "@/lib/deposits/sweep";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import { reloadEnv } from "@/lib/env";
import type { RouteHandler } from "@/lib/http/handler";
import { x402UnavailableReason } from "@/lib/x402/requirements";
import type { Devnet } from "@/scripts/devnet";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

let devnet: Devnet;
let pub: PublicClient;
let server: Server;
let base: string;
let a: Awaited<ReturnType<typeof makeIntegrator>>;

/** The app's x402 routes behind a real HTTP server (what an x402 client talks to). */
const ROUTES: [RegExp, RouteHandler, string | null][] = [
  [/^\/v2\/x402\/requests\/([^/]+)$/, requestResource, "requestId"],
  [/^\/v2\/x402\/secure-payments\/([^/]+)$/, linkResource, "token"],
  [/^\/v2\/x402\/facilitator\/verify$/, verifyRoute, null],
  [/^\/v2\/x402\/facilitator\/settle$/, settleRoute, null],
  [/^\/v2\/x402\/facilitator\/supported$/, supportedRoute, null],
];

function startServer(): Promise<Server> {
  const s = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", base);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const route = ROUTES.find(([re]) => re.test(url.pathname));
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    const [re, handler, param] = route;
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const answer = await handler(new Request(url, { method: req.method, headers, body }), {
      params: Promise.resolve(param ? { [param]: decodeURIComponent(re.exec(url.pathname)![1]!) } : {}),
    });
    res.writeHead(answer.status, Object.fromEntries(answer.headers.entries()));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  return new Promise((resolve) => s.listen(0, "127.0.0.1", () => resolve(s)));
}

beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) }) as PublicClient;
  server = await startServer();
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  server?.close();
  await stopDevnet(devnet);
});
beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
});

const payer = () => privateKeyToAccount(devnet.accounts.payer.privateKey);
const network = () => `eip155:${devnet.chainId}` as const;
const usdc = (owner: string) =>
  pub.readContract({ address: devnet.tokens.USDC, abi: erc20Abi, functionName: "balanceOf", args: [owner as Hex] });
const sweepAll = async () => {
  await sweepDeposits();
  await sweepDetectionNetwork(evmEventSource("sepolia")!);
};

/** The official client: exact-EVM for the devnet, the devnet USDC allowed up to 100 USDC a payment. */
function officialClient() {
  return x402Client.fromConfig({
    schemes: [{ network: network(), client: new ExactEvmScheme(payer()) }],
    spendControls: { allowedAssets: [{ network: network(), asset: devnet.tokens.USDC, maxAmountPerPayment: "100000000" }] },
  });
}

async function newRequest(amount = "10", paymentCurrency = "USDC-sepolia"): Promise<string> {
  const created = await call(createRequest, "/v2/request", {
    method: "POST",
    headers: { "x-api-key": a.apiKey },
    json: {
      amount,
      invoiceCurrency: paymentCurrency,
      paymentCurrency,
      payee: devnet.accounts.payee.address,
      feePercentage: "1",
      feeAddress: devnet.accounts.feeRecipient.address,
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.requestId as string;
}

async function paymentRequiredOf(requestId: string): Promise<PaymentRequired> {
  const res = await fetch(`${base}/v2/x402/requests/${requestId}`);
  expect(res.status).toBe(402);
  return decodePaymentRequiredHeader(res.headers.get("PAYMENT-REQUIRED")!);
}

const transfersTo = async (to: string) =>
  pub.getLogs({
    address: devnet.tokens.USDC,
    event: parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)"),
    args: { to: to as Hex },
    fromBlock: 0n,
  });

describe("x402", () => {
  it("the official @x402/fetch client pays a request URL and gets its status; detection records it once, with payment.confirmed", async () => {
    const requestId = await newRequest("10");
    const required = await paymentRequiredOf(requestId);
    const deposit = await db().depositAddress.findUniqueOrThrow({ where: { requestId } });
    expect(required).toMatchObject({ x402Version: 2, resource: { url: `http://localhost:3000/v2/x402/requests/${requestId}` } });
    expect(required.accepts).toEqual([
      {
        scheme: "exact",
        network: network(),
        asset: devnet.tokens.USDC,
        amount: "10100000", // 10 USDC and the 1 % fee the payer pays
        payTo: deposit.address,
        maxTimeoutSeconds: 300,
        extra: { name: "Test USD Coin", version: "2" },
      },
    ]);

    const payerBefore = await usdc(payer().address);
    const payeeBefore = await usdc(devnet.accounts.payee.address);
    const feeBefore = await usdc(devnet.accounts.feeRecipient.address);
    const ethBefore = await pub.getBalance({ address: payer().address });
    const pay = wrapFetchWithPaymentFromConfig(fetch, {
      schemes: [{ network: network(), client: new ExactEvmScheme(payer()) }],
      spendControls: { allowedAssets: [{ network: network(), asset: devnet.tokens.USDC, maxAmountPerPayment: "100000000" }] },
    });
    const res = await pay(`${base}/v2/x402/requests/${requestId}`);
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ requestId, status: "pending", amount: "10" });
    const settlement = decodePaymentResponseHeader(res.headers.get("PAYMENT-RESPONSE")!);
    expect(settlement).toMatchObject({ success: true, payer: payer().address, network: network(), amount: "10100000" });
    const receipt = await pub.getTransactionReceipt({ hash: settlement.transaction as Hex });
    expect(receipt.status).toBe("success");
    expect(await transfersTo(deposit.address!)).toHaveLength(1);
    expect(payerBefore - (await usdc(payer().address))).toBe(10_100_000n);
    // The payer spent no gas: the relayer sent the transaction.
    expect(await pub.getBalance({ address: payer().address })).toBe(ethBefore);
    expect(receipt.from.toLowerCase()).toBe(devnet.accounts.signatureRelayer.address.toLowerCase());

    // No second payment while the first is being recorded.
    expect((await call(requestResource, `/v2/x402/requests/${requestId}`, { params: { requestId } })).status).toBe(409);

    await sweepAll();
    const request = await db().paymentRequest.findUniqueOrThrow({ where: { id: requestId } });
    expect(request.status).toBe("paid");
    expect(await db().payment.count({ where: { requestId } })).toBe(1);
    expect((await db().payment.findFirstOrThrow({ where: { requestId } })).payer).toBe(payer().address);
    expect((await usdc(devnet.accounts.payee.address)) - payeeBefore).toBe(10_000_000n);
    expect((await usdc(devnet.accounts.feeRecipient.address)) - feeBefore).toBe(100_000n);
    expect(await db().outboxEvent.count({ where: { type: "payment.confirmed", requestId } })).toBe(1);
    await sweepAll();
    expect(await db().payment.count({ where: { requestId } })).toBe(1);

    const again = await call(requestResource, `/v2/x402/requests/${requestId}`, { params: { requestId } });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already paid/);
  }, 90_000);

  it("five concurrent settles of one authorization: one transfer, five identical answers; a later settle gets the same", async () => {
    const requestId = await newRequest("3");
    const required = await paymentRequiredOf(requestId);
    const payload = await officialClient().createPaymentPayload(required);
    const requirements = required.accepts[0]!;
    const facilitator = new HTTPFacilitatorClient({ url: `${base}/v2/x402/facilitator` });
    expect(await facilitator.verify(payload, requirements)).toEqual({ isValid: true, payer: payer().address });

    const before = await usdc(payer().address);
    const answers = await Promise.all(Array.from({ length: 5 }, () => facilitator.settle(payload, requirements)));
    expect(answers[0]).toMatchObject({ success: true, payer: payer().address, network: network() });
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(await transfersTo(requirements.payTo)).toHaveLength(1);
    expect(before - (await usdc(payer().address))).toBe(3_030_000n);
    expect(await db().relayedTransaction.count({ where: { purpose: "x402" } })).toBe(1);

    expect(await facilitator.settle(payload, requirements)).toEqual(answers[0]);
    const replayed = await facilitator.verify(payload, requirements);
    expect(replayed).toMatchObject({ isValid: false, invalidReason: "invalid_exact_evm_nonce_already_used" });
    // The same header on the resource URL: the same settlement, and the resource.
    const header = Buffer.from(JSON.stringify(payload)).toString("base64");
    const res = await fetch(`${base}/v2/x402/requests/${requestId}`, { headers: { "PAYMENT-SIGNATURE": header } });
    expect(res.status).toBe(200);
    expect(decodePaymentResponseHeader(res.headers.get("PAYMENT-RESPONSE")!)).toEqual(answers[0]);
    await sweepAll();
    expect(await db().payment.count({ where: { requestId } })).toBe(1);
  }, 90_000);

  it("refuses a replayed, expired, foreign-signed, underpaid or misdirected payment; nothing moves", async () => {
    const requestId = await newRequest("2");
    const required = await paymentRequiredOf(requestId);
    const req = required.accepts[0]!;
    const facilitator = new HTTPFacilitatorClient({ url: `${base}/v2/x402/facilitator` });
    const domain = { name: "Test USD Coin", version: "2", chainId: devnet.chainId, verifyingContract: devnet.tokens.USDC };
    const now = BigInt(Math.floor(Date.now() / 1000));
    /** A payload signed with viem directly (not the official client), to set what it would not. */
    async function signed(opts: { validBefore?: bigint; value?: string; signer?: Hex; to?: string }): Promise<PaymentPayload> {
      const account = privateKeyToAccount(opts.signer ?? devnet.accounts.payer.privateKey);
      const authorization = {
        from: payer().address,
        to: (opts.to ?? req.payTo) as Hex,
        value: opts.value ?? req.amount,
        validAfter: "0",
        validBefore: String(opts.validBefore ?? now + 300n),
        nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
      };
      const signature = await account.signTypedData({
        domain,
        types: {
          TransferWithAuthorization: [
            { name: "from", type: "address" },
            { name: "to", type: "address" },
            { name: "value", type: "uint256" },
            { name: "validAfter", type: "uint256" },
            { name: "validBefore", type: "uint256" },
            { name: "nonce", type: "bytes32" },
          ],
        },
        primaryType: "TransferWithAuthorization",
        message: { ...authorization, value: BigInt(authorization.value), validAfter: 0n, validBefore: BigInt(authorization.validBefore) },
      });
      const accepted = { ...req, amount: authorization.value, payTo: opts.to ?? req.payTo };
      return { x402Version: 2, accepted, payload: { authorization, signature } };
    }
    const before = await usdc(payer().address);
    const refuse = async (p: PaymentPayload, reason: string) => {
      const v = await facilitator.verify(p, p.accepted).catch((e) => e);
      expect(v).toMatchObject({ isValid: false, invalidReason: reason });
      const s = await facilitator.settle(p, p.accepted).catch((e) => e);
      expect(s).toMatchObject({ success: false, errorReason: reason, transaction: "" });
    };
    await refuse(await signed({ validBefore: now - 10n }), "invalid_exact_evm_payload_authorization_valid_before");
    await refuse(await signed({ signer: devnet.accounts.feeRecipient.privateKey }), "invalid_exact_evm_signature");
    await refuse(await signed({ value: "2000000" }), "invalid_exact_evm_payload_authorization_value_mismatch"); // the fee left out
    await refuse(await signed({ to: devnet.accounts.payee.address }), "invalid_exact_evm_recipient_mismatch");
    // Through the resource URL too: 402 with the reason, the requirements again, and the failed settlement.
    const underpaid = await signed({ value: "1000000" });
    const res = await fetch(`${base}/v2/x402/requests/${requestId}`, {
      headers: { "PAYMENT-SIGNATURE": Buffer.from(JSON.stringify(underpaid)).toString("base64") },
    });
    expect(res.status).toBe(402);
    expect(decodePaymentRequiredHeader(res.headers.get("PAYMENT-REQUIRED")!)).toMatchObject({
      error: "invalid_exact_evm_payload_authorization_value_mismatch",
      accepts: [{ amount: req.amount }],
    });
    expect(decodePaymentResponseHeader(res.headers.get("PAYMENT-RESPONSE")!)).toMatchObject({ success: false });
    expect(await usdc(payer().address)).toBe(before);
    expect(await db().relayedTransaction.count()).toBe(0);

    // Replayed: a settled authorization sent for another request is refused there, and moves nothing more.
    const good = await signed({});
    expect(await facilitator.settle(good, good.accepted)).toMatchObject({ success: true });
    const other = await newRequest("2");
    await paymentRequiredOf(other);
    const res2 = await fetch(`${base}/v2/x402/requests/${other}`, {
      headers: { "PAYMENT-SIGNATURE": Buffer.from(JSON.stringify(good)).toString("base64") },
    });
    expect(res2.status).toBe(402);
    expect((await res2.json()).error).toBe("invalid_exact_evm_recipient_mismatch");
    expect(before - (await usdc(payer().address))).toBe(2_020_000n);
    // A v1 X-PAYMENT header and garbage are 400s naming the header.
    const v1 = await call(requestResource, `/v2/x402/requests/${other}`, {
      params: { requestId: other },
      headers: { "X-PAYMENT": Buffer.from(JSON.stringify({ x402Version: 1, scheme: "exact" })).toString("base64") },
    });
    expect(v1.status).toBe(400);
    expect(v1.body.errors[0]).toMatchObject({ field: "X-PAYMENT" });
    const junk = await call(requestResource, `/v2/x402/requests/${other}`, {
      params: { requestId: other },
      headers: { "PAYMENT-SIGNATURE": "%%%" },
    });
    expect(junk.status).toBe(400);
  }, 90_000);

  it("pays a secure link; says by name where x402 cannot work (USDT, no relayer); /supported lists the devnet", async () => {
    const dest = await call(createDestination, "/v2/payee-destination", {
      method: "POST",
      headers: { authorization: `Bearer ${await walletSessionToken(a.account.id, devnet.accounts.payee.address)}` },
      json: { currency: "USDC-sepolia", walletAddress: devnet.accounts.payee.address },
    });
    expect(dest.status).toBe(201);
    const link = await call(createLink, "/v2/secure-payments", {
      method: "POST",
      headers: { "x-client-id": a.clientId },
      json: { requests: [{ amount: "4" }] },
    });
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    const token = link.body.token as string;
    const res = await wrapFetchWithPaymentFromConfig(fetch, {
      schemes: [{ network: network(), client: new ExactEvmScheme(payer()) }],
      spendControls: { allowedAssets: [{ network: network(), asset: devnet.tokens.USDC }] },
    })(`${base}/v2/x402/secure-payments/${token}`);
    expect(res.status).toBe(200);
    const [requestId] = link.body.requestIds as string[];
    expect(await res.json()).toMatchObject({ requestIds: [requestId], network: "sepolia" });
    expect(decodePaymentResponseHeader(res.headers.get("PAYMENT-RESPONSE")!)).toMatchObject({ success: true, amount: "4000000" }); // the link has no fee;
    await sweepAll();
    expect((await db().paymentRequest.findUniqueOrThrow({ where: { id: requestId } })).status).toBe("paid");
    expect(await db().outboxEvent.count({ where: { type: "payment.confirmed", requestId } })).toBe(1);

    const usdt = await newRequest("1", "USDT-sepolia");
    const refused = await call(requestResource, `/v2/x402/requests/${usdt}`, { params: { requestId: usdt } });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/USDT.*EIP-3009/);

    const supported = await new HTTPFacilitatorClient({ url: `${base}/v2/x402/facilitator` }).getSupported();
    expect(supported.kinds).toContainEqual({ x402Version: 2, scheme: "exact", network: network() });
    expect(supported.signers["eip155:*"]).toEqual([devnet.accounts.signatureRelayer.address]);

    const plain = await newRequest("1");
    const key = process.env.SIGNATURE_RELAYER_PRIVATE_KEY;
    delete process.env.SIGNATURE_RELAYER_PRIVATE_KEY;
    reloadEnv();
    try {
      const r = await call(requestResource, `/v2/x402/requests/${plain}`, { params: { requestId: plain } });
      expect(r.status).toBe(409);
      expect(r.body.message).toMatch(/SIGNATURE_RELAYER_PRIVATE_KEY/);
      expect((await call(supportedRoute, "/v2/x402/facilitator/supported")).body.kinds).toEqual([]);
    } finally {
      process.env.SIGNATURE_RELAYER_PRIVATE_KEY = key;
      reloadEnv();
    }
    expect((await call(requestResource, "/v2/x402/requests/01ab", { params: { requestId: "01ab" } })).status).toBe(404);
    // Tron and payouts, by name (no Tron chain in this devnet: the rule reads the request's network and kind).
    const row = await db().paymentRequest.findUniqueOrThrow({ where: { id: plain } });
    expect(x402UnavailableReason({ ...row, network: "tron" })).toMatch(/not available on Tron/);
    expect(x402UnavailableReason({ ...row, kind: "payout" })).toMatch(/payout/);
    expect(x402UnavailableReason({ ...row, isConversion: true })).toMatch(/conversion/);
  }, 90_000);
});
