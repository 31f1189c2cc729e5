/**
 * Cross-chain payment on the two-chain devnet: a request on the destination devnet ("sepolia")
 * is paid from the source chain (standing in for Arbitrum One) through GET /routes and GET /pay
 * with a viem wallet; the bridge relayer settles on the destination through ERC20FeeProxy and
 * ordinary detection marks the request paid there, with one payment.confirmed.
 */
import { type Address, createPublicClient, createTestClient, createWalletClient, erc20Abi, http, type PublicClient, parseAbi } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as payRequest } from "@/app/v2/request/[requestId]/pay/route";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { GET as getRoutes } from "@/app/v2/request/[requestId]/routes/route";
import { POST as createRequest } from "@/app/v2/request/route";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import { DevnetBridgeProvider } from "@/lib/routing/devnet-bridge";
import type { Devnet } from "@/scripts/devnet";
import type { BridgeDevnet } from "@/scripts/devnet/bridge";
import { type BridgeRelayer, relayerFor } from "@/scripts/devnet/bridge-relayer";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useBridgeDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

let devnet: Devnet;
let source: BridgeDevnet;
let relayer: BridgeRelayer;
let a: Awaited<ReturnType<typeof makeIntegrator>>;

beforeAll(async () => {
  await resetDb();
  a = await makeIntegrator();
  devnet = await useDevnet();
  source = await useBridgeDevnet(devnet);
  relayer = relayerFor(devnet, source, { log: () => {} }, false);
}, 120_000);
afterAll(async () => {
  relayer?.stop();
  await source?.stop();
  await stopDevnet(devnet);
});

const auth = () => ({ "x-api-key": a.apiKey });

async function newRequest(amount: string, currency = "USDC-sepolia"): Promise<string> {
  const res = await call(createRequest, "/v2/request", {
    method: "POST",
    headers: auth(),
    json: { payee: devnet.accounts.payee.address, amount, invoiceCurrency: currency, paymentCurrency: currency },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.requestId as string;
}

const pay = (requestId: string, query: Record<string, string>) =>
  call(payRequest, `/v2/request/${requestId}/pay?${new URLSearchParams(query)}`, { headers: auth(), params: { requestId } });

function sourceClients() {
  const account = privateKeyToAccount(devnet.accounts.payer.privateKey);
  return {
    wallet: createWalletClient({ account, chain: source.chain, transport: http(source.rpcUrl) }),
    pub: createPublicClient({ chain: source.chain, transport: http(source.rpcUrl) }) as PublicClient,
  };
}

describe("cross-chain payment on the two-chain devnet", () => {
  it("routes rank the same-chain route and the bridge's routes by fee, then speed", async () => {
    const requestId = await newRequest("25");
    const res = await call(getRoutes, `/v2/request/${requestId}/routes?wallet=${devnet.accounts.payer.address}`, {
      headers: auth(),
      params: { requestId },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const routes = res.body.routes as { id: string; fee: number; speed: string | number; chain: string; token: string }[];
    expect(routes[0]).toMatchObject({ id: "REQUEST_NETWORK_PAYMENT", speed: "FAST", fee: 0 });
    const cross = routes.filter((r) => r.chain === "ARBITRUM");
    expect(cross.map((r) => r.token).sort()).toEqual(["USDC", "USDT"]);
    for (const r of cross) {
      expect(typeof r.speed).toBe("number");
      // 0.05 USDC minimum bridge fee on 25 USDC = 0.2 %.
      expect(r.fee).toBeCloseTo(0.002, 6);
    }
    expect(routes.map((r) => r.fee)).toEqual([...routes.map((r) => r.fee)].sort((x, y) => x - y));
  });

  it("routes offer no cross-chain route where GET /pay refuses one: a request whose amount arrived but whose fee came short", async () => {
    const feeAddress = devnet.accounts.feeRecipient.address;
    const created = await call(createRequest, "/v2/request", {
      method: "POST",
      headers: auth(),
      json: {
        payee: devnet.accounts.payee.address,
        amount: "25",
        invoiceCurrency: "USDC-sepolia",
        paymentCurrency: "USDC-sepolia",
        feePercentage: "2",
        feeAddress,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { requestId, paymentReference } = created.body as { requestId: string; paymentReference: string };
    const routesOf = async () => {
      const res = await call(getRoutes, `/v2/request/${requestId}/routes?wallet=${devnet.accounts.payer.address}`, {
        headers: auth(),
        params: { requestId },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.routes as { id: string; chain: string }[]).map((r) => r.chain);
    };
    // Before any payment the bridge's routes are on offer.
    expect(await routesOf()).toContain("ARBITRUM");
    // The whole amount through the fee proxy on the destination, with fee 0 (25 USDC = 25_000_000 units).
    const wallet = createWalletClient({
      account: privateKeyToAccount(devnet.accounts.payer.privateKey),
      chain: devnet.chain,
      transport: http(devnet.rpcUrl),
    });
    const destPub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) });
    const approve = await wallet.writeContract({
      address: devnet.tokens.USDC,
      abi: erc20Abi,
      functionName: "approve",
      args: [devnet.contracts.erc20FeeProxy, 25_000_000n],
    });
    await destPub.waitForTransactionReceipt({ hash: approve });
    const hash = await wallet.writeContract({
      address: devnet.contracts.erc20FeeProxy,
      abi: parseAbi(["function transferFromWithReferenceAndFee(address,address,uint256,bytes,uint256,address)"]),
      functionName: "transferFromWithReferenceAndFee",
      args: [devnet.tokens.USDC, devnet.accounts.payee.address, 25_000_000n, paymentReference as `0x${string}`, 0n, feeAddress],
    });
    expect((await destPub.waitForTransactionReceipt({ hash })).status).toBe("success");
    await sweepDetectionNetwork(evmEventSource("sepolia")!);
    const view = await call(getRequest, `/v2/request/${requestId}`, { headers: auth(), params: { requestId } });
    expect(view.body).toMatchObject({ status: "partially_paid", subStatus: "fee_short" });
    // Only the fee is missing: GET /pay refuses a cross-chain plan, and /routes offers none.
    const refused = await pay(requestId, { wallet: devnet.accounts.payer.address, chain: "ARBITRUM", token: "USDC" });
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.errors?.[0]?.field).toBe("chain");
    expect(await routesOf()).toEqual(["SEPOLIA"]);
  });

  it("a request on the destination is paid from the source chain: relayer settles, detection marks it paid, one payment.confirmed", async () => {
    const requestId = await newRequest("25");
    const res = await pay(requestId, { wallet: devnet.accounts.payer.address, chain: "ARBITRUM", token: "USDC" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { transactions, metadata } = res.body;
    expect(transactions).toHaveLength(2);
    expect(transactions.every((t: { value: unknown }) => typeof t.value === "string")).toBe(true);
    expect(metadata).toMatchObject({
      stepsRequired: 2,
      needsApproval: true,
      approvalTransactionIndex: 0,
      paymentTransactionIndex: 1,
      routeType: "crosschain",
      hasEnoughBalance: true,
      sourceAmount: "25.05",
      sourceChain: "ARBITRUM",
    });
    expect(metadata.quoteExpiresAt).toBeGreaterThan(Math.floor(Date.now() / 1000));

    const { wallet, pub } = sourceClients();
    const before = await pub.readContract({
      address: source.tokens.USDC,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [devnet.accounts.payer.address],
    });
    let sourceTx: `0x${string}` | undefined;
    for (const tx of transactions) {
      sourceTx = await wallet.sendTransaction({ to: tx.to as Address, data: tx.data, value: BigInt(tx.value) });
      expect((await pub.waitForTransactionReceipt({ hash: sourceTx })).status).toBe("success");
    }
    const after = await pub.readContract({
      address: source.tokens.USDC,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [devnet.accounts.payer.address],
    });
    expect(before - after).toBe(25_050_000n);

    const provider = new DevnetBridgeProvider();
    expect((await provider.track({ sourceTxHash: sourceTx!, sourceNetwork: "arbitrum-one", destinationNetwork: "sepolia" })).status).toBe(
      "PENDING",
    );
    expect(await relayer.tick()).toBe(1);
    const tracked = await provider.track({ sourceTxHash: sourceTx!, sourceNetwork: "arbitrum-one", destinationNetwork: "sepolia" });
    expect(tracked.status).toBe("DONE");
    expect(tracked.destinationTxHash).toMatch(/^0x[0-9a-f]{64}$/);
    // A second pass settles nothing again (the deposit is settled on chain).
    expect(await relayer.tick()).toBe(0);

    await sweepDetectionNetwork(evmEventSource("sepolia")!);
    const got = await call(getRequest, `/v2/request/${requestId}`, { headers: auth(), params: { requestId } });
    // The payer is the wallet that paid on the source chain, not the bridge relayer that sent the destination transaction.
    expect(got.body).toMatchObject({ hasBeenPaid: true, txHash: tracked.destinationTxHash, payer: devnet.accounts.payer.address });
    const events = await db().outboxEvent.findMany({ where: { requestId, type: "payment.confirmed" } });
    expect(events).toHaveLength(1);
    // It names where the payer paid: the source chain and transaction.
    expect(JSON.parse(events[0]!.payload)).toMatchObject({
      txHash: tracked.destinationTxHash,
      network: "sepolia",
      crossChain: { sourceChain: "ARBITRUM", sourceNetwork: "arbitrum-one", sourceTxHash: sourceTx, provider: "devnet-bridge" },
    });
  });

  it("an expired quote reverts on the source chain: the payer keeps the tokens", async () => {
    const requestId = await newRequest("5");
    const res = await pay(requestId, { wallet: devnet.accounts.payer.address, chain: "ARBITRUM", token: "USDT" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const test = createTestClient({ mode: "anvil", chain: source.chain, transport: http(source.rpcUrl) });
    const { wallet, pub } = sourceClients();
    const [approve, deposit] = res.body.transactions;
    await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: approve.to, data: approve.data }) });
    await test.increaseTime({ seconds: 301 });
    await test.mine({ blocks: 1 });
    await expect(wallet.sendTransaction({ to: deposit.to, data: deposit.data })).rejects.toThrow(/QuoteExpired|reverted/);
    // The quote is served again by its id while it holds, then refused with a 400 asking for a new one.
    const q = { wallet: devnet.accounts.payer.address, chain: "ARBITRUM", token: "USDT", quoteId: res.body.metadata.quoteId };
    const same = await pay(requestId, q);
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body).toEqual(res.body);
    setClock(() => (res.body.metadata.quoteExpiresAt + 1) * 1000);
    try {
      const expired = await pay(requestId, q);
      expect(expired.status).toBe(400);
      expect(expired.body.errors[0]).toMatchObject({ field: "quoteId", message: expect.stringMatching(/expired .*request a new one/) });
    } finally {
      setClock(null);
    }
    const unknown = await pay(requestId, { ...q, quoteId: "01NOTAQUOTE" });
    expect(unknown.body.errors?.[0]?.field).toBe("quoteId");
    // A fresh quote is valid again (the source chain's clock moved on).
    const again = await pay(requestId, { wallet: devnet.accounts.payer.address, chain: "ARBITRUM", token: "USDT" });
    expect(again.body.metadata.quoteExpiresAt).toBeGreaterThan(res.body.metadata.quoteExpiresAt);
  });

  it("a quote counts from now when the source chain has been idle (its latest block is old)", async () => {
    const requestId = await newRequest("5");
    const later = Date.now() + 600_000;
    setClock(() => later);
    try {
      const res = await pay(requestId, { wallet: devnet.accounts.payer.address, chain: "ARBITRUM", token: "USDC" });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.metadata.quoteExpiresAt).toBeGreaterThanOrEqual(Math.floor(later / 1000) + 300);
    } finally {
      setClock(null);
    }
  });

  it("bad cross-chain input answers 400 naming the field", async () => {
    const requestId = await newRequest("25");
    const small = await newRequest("1");
    const fau = await newRequest("25", "FAU-sepolia");
    const w = devnet.accounts.payer.address;
    const cases: [string, Record<string, string>, string][] = [
      [requestId, { wallet: w, chain: "ARBITRUM" }, "token"],
      [requestId, { wallet: w, token: "USDC" }, "chain"],
      [requestId, { wallet: w, chain: "BSC", token: "USDC" }, "chain"],
      [requestId, { wallet: w, chain: "TRON", token: "USDT" }, "chain"],
      [requestId, { wallet: w, chain: "ARBITRUM", token: "USDC.e" }, "token"],
      [requestId, { wallet: w, chain: "ARBITRUM", token: "DAI" }, "token"],
      [requestId, { chain: "ARBITRUM", token: "USDC" }, "wallet"],
      [requestId, { wallet: "0x1234", chain: "ARBITRUM", token: "USDC" }, "wallet"],
      [requestId, { wallet: w, chain: "BASE", token: "USDC" }, "chain"],
      [small, { wallet: w, chain: "ARBITRUM", token: "USDC" }, "amount"],
      [fau, { wallet: w, chain: "ARBITRUM", token: "USDC" }, "token"],
    ];
    for (const [id, query, field] of cases) {
      const res = await pay(id, query);
      expect(res.status, `${JSON.stringify(query)} → ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.errors?.[0]?.field, JSON.stringify(res.body)).toBe(field);
    }
    // 1 USD or less has no cross-chain routes, only the same-chain one.
    const routes = await call(getRoutes, `/v2/request/${small}/routes?wallet=${w}`, { headers: auth(), params: { requestId: small } });
    expect(routes.body.routes.map((r: { id: string }) => r.id)).toEqual(["REQUEST_NETWORK_PAYMENT"]);
  });
});
