/**
 * Cross-chain approvals and source tokens (issue 24, item 8), on two devnet source chains beside
 * the destination: one standing in for Ethereum (whose USDT needs approve(0) before approve(n)
 * over a non-zero allowance; the devnet's TestUSDT enforces the same rule) and one for Arbitrum
 * One (where USDT0 is the USDT contract). The interface: "USDT0 is a payment and cross-chain
 * currency only".
 */
import { type Address, createPublicClient, createWalletClient, decodeFunctionData, erc20Abi, http, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as payRequest } from "@/app/v2/request/[requestId]/pay/route";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { POST as createRequest } from "@/app/v2/request/route";
import { resetChainConfig } from "@/lib/chain/config";
import { resetCurrencyRegistry } from "@/lib/currencies/registry";
import { db } from "@/lib/db";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import { reloadEnv } from "@/lib/env";
import { crossChainIneligibility, crossChainTermsOf } from "@/lib/requests/pay-crosschain";
import { type Devnet, devAccount } from "@/scripts/devnet";
import { BRIDGE_RELAYER_INDEX, type BridgeDevnet, startBridgeDevnet } from "@/scripts/devnet/bridge";
import { type BridgeRelayer, relayerFor } from "@/scripts/devnet/bridge-relayer";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

let devnet: Devnet;
let ethereum: BridgeDevnet;
let arbitrum: BridgeDevnet;
let a: Awaited<ReturnType<typeof makeIntegrator>>;
const relayers: BridgeRelayer[] = [];

beforeAll(async () => {
  await resetDb();
  a = await makeIntegrator();
  devnet = await useDevnet();
  const relayerPrivateKey = devAccount(BRIDGE_RELAYER_INDEX).privateKey;
  ethereum = await startBridgeDevnet(devnet, { port: 0, chainId: 1, network: "mainnet", relayerPrivateKey });
  arbitrum = await startBridgeDevnet(devnet, { port: 0, relayerPrivateKey });
  process.env.CHAIN_CONFIG = JSON.stringify({ ...devnet.chainConfig(), ...ethereum.chainConfig(), ...arbitrum.chainConfig() });
  reloadEnv();
  resetChainConfig();
  resetCurrencyRegistry();
}, 180_000);
afterAll(async () => {
  for (const r of relayers) r.stop();
  await ethereum?.stop();
  await arbitrum?.stop();
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

function clients(source: BridgeDevnet) {
  const account = privateKeyToAccount(devnet.accounts.payer.privateKey);
  return {
    wallet: createWalletClient({ account, chain: source.chain, transport: http(source.rpcUrl) }),
    pub: createPublicClient({ chain: source.chain, transport: http(source.rpcUrl) }) as PublicClient,
  };
}

/** The approve(spender, amount) a transaction encodes. */
function approveArgs(tx: { data: `0x${string}` }) {
  const d = decodeFunctionData({ abi: erc20Abi, data: tx.data });
  expect(d.functionName).toBe("approve");
  return d.args as readonly [Address, bigint];
}

async function sendAll(source: BridgeDevnet, transactions: { to: Address; data: `0x${string}`; value: string }[]) {
  const { wallet, pub } = clients(source);
  for (const tx of transactions) {
    const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value) });
    expect((await pub.waitForTransactionReceipt({ hash })).status).toBe("success");
  }
}

async function settleAndDetect(source: BridgeDevnet, requestId: string) {
  const relayer = relayerFor(devnet, source, { log: () => {} }, false);
  relayers.push(relayer);
  expect(await relayer.tick()).toBe(1);
  await sweepDetectionNetwork(evmEventSource("sepolia")!);
  const got = await call(getRequest, `/v2/request/${requestId}`, { headers: auth(), params: { requestId } });
  expect(got.body.hasBeenPaid).toBe(true);
}

describe("cross-chain approvals", () => {
  it("Ethereum USDT over a non-zero allowance: approve(0), then approve(n), then the deposit — and approve(n) alone would revert", async () => {
    const requestId = await newRequest("12");
    const { wallet, pub } = clients(ethereum);
    // A leftover allowance to the bridge (an earlier, abandoned payment).
    const first = await pay(requestId, { wallet: devnet.accounts.payer.address, chain: "ETHEREUM", token: "USDT" });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const spender = approveArgs(first.body.transactions[0])[0];
    await pub.waitForTransactionReceipt({
      hash: await wallet.writeContract({ address: ethereum.tokens.USDT, abi: erc20Abi, functionName: "approve", args: [spender, 1_000n] }),
    });

    const res = await pay(requestId, { wallet: devnet.accounts.payer.address, chain: "ETHEREUM", token: "USDT" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const txs = res.body.transactions;
    expect(txs).toHaveLength(3);
    expect(txs[0].to.toLowerCase()).toBe(ethereum.tokens.USDT.toLowerCase());
    expect(approveArgs(txs[0])).toEqual([spender, 0n]);
    expect(approveArgs(txs[1])).toEqual([spender, 12_050_000n]);
    expect(res.body.metadata).toMatchObject({
      stepsRequired: 3,
      needsApproval: true,
      approvalTransactionIndex: 1,
      paymentTransactionIndex: 2,
      sourceChain: "ETHEREUM",
    });
    // The token's rule, on chain: approve(n) straight over the leftover allowance reverts.
    await expect(wallet.sendTransaction({ to: txs[1].to, data: txs[1].data })).rejects.toThrow(/reset allowance to 0 first|revert/i);
    await sendAll(ethereum, txs);
    await settleAndDetect(ethereum, requestId);
  });

  it("Ethereum USDT with no allowance yet, and Arbitrum USDC (no reset rule) over a non-zero allowance: the one approval", async () => {
    const requestId = await newRequest("6");
    const zero = await pay(requestId, { wallet: devAccount(9).address, chain: "ETHEREUM", token: "USDT" });
    expect(zero.status, JSON.stringify(zero.body)).toBe(200);
    expect(zero.body.transactions).toHaveLength(2);
    expect(zero.body.metadata).toMatchObject({ stepsRequired: 2, approvalTransactionIndex: 0, paymentTransactionIndex: 1 });

    const { wallet, pub } = clients(arbitrum);
    const q = await pay(requestId, { wallet: devnet.accounts.payer.address, chain: "ARBITRUM", token: "USDC" });
    const spender = approveArgs(q.body.transactions[0])[0];
    await pub.waitForTransactionReceipt({
      hash: await wallet.writeContract({ address: arbitrum.tokens.USDC, abi: erc20Abi, functionName: "approve", args: [spender, 5n] }),
    });
    const again = await pay(requestId, { wallet: devnet.accounts.payer.address, chain: "ARBITRUM", token: "USDC" });
    expect(again.body.transactions).toHaveLength(2);
    expect(approveArgs(again.body.transactions[0])[1]).toBeGreaterThan(0n);
  });
});

describe("USDT0 as a cross-chain currency", () => {
  it("a payer pays from Arbitrum in USDT0 (the USDT contract there): calldata, deposit, relayer, paid", async () => {
    const requestId = await newRequest("9");
    const res = await pay(requestId, { wallet: devnet.accounts.payer.address, chain: "ARBITRUM", token: "USDT0" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.metadata).toMatchObject({ sourceChain: "ARBITRUM", sourceToken: "USDT0", routeType: "crosschain" });
    expect(res.body.metadata.sourceTokenAddress.toLowerCase()).toBe(arbitrum.tokens.USDT.toLowerCase());
    expect(res.body.transactions[0].to.toLowerCase()).toBe(arbitrum.tokens.USDT.toLowerCase());
    await sendAll(arbitrum, res.body.transactions);
    await settleAndDetect(arbitrum, requestId);
  });

  it("USDT0 from a chain that has none is a 400 naming token; an unknown token still is", async () => {
    const requestId = await newRequest("9");
    const none = await pay(requestId, { wallet: devnet.accounts.payer.address, chain: "ETHEREUM", token: "USDT0" });
    expect(none.status).toBe(400);
    expect(none.body.errors[0]).toMatchObject({ field: "token", message: expect.stringMatching(/USDT0 is not on Ethereum/) });
    const dai = await pay(requestId, { wallet: devnet.accounts.payer.address, chain: "ARBITRUM", token: "DAI" });
    expect(dai.body.errors[0].field).toBe("token");
  });

  it("a request in USDT0 can be paid from another chain (it is not refused as a currency)", async () => {
    // Eligibility reads the request (network, token, expected amount), not what is still owed.
    const terms = (row: Parameters<typeof crossChainTermsOf>[0]) =>
      crossChainTermsOf(row, { amount: 20_000_000n, feeAmount: 0n, feeAddress: null });
    const requestId = await newRequest("20", "USDT0-arbitrum-one");
    const row = await db().paymentRequest.findUniqueOrThrow({ where: { id: requestId } });
    expect(crossChainIneligibility(terms(row))).toBeNull();
    const usdc = await newRequest("20", "USDC-arbitrum-one");
    const fau = await newRequest("20", "FAU-sepolia");
    expect(crossChainIneligibility(terms(await db().paymentRequest.findUniqueOrThrow({ where: { id: usdc } })))).toBeNull();
    expect(crossChainIneligibility(terms(await db().paymentRequest.findUniqueOrThrow({ where: { id: fau } })))?.field).toBe("token");
  });
});
