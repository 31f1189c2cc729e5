/**
 * A EUR invoice paid in USDT-tron (issue 29, item 8). Tron has no conversion proxy: the pay plan fixes
 * the token amount from the rate source — here the devnet's ChainlinkConversionPath on anvil
 * (TRON_CONVERSION_RATE_NETWORK=sepolia), EUR/USD set to 1.08 — for the quote's window, and detection,
 * reading the Tron proxy's events through the TronGrid stand-in over real HTTP (e2e/support/tron-node-stub.ts),
 * credits the invoice amount at the quoted rate. tronweb decodes the calldata (outside oracle).
 */
import { utils as tronUtils } from "tronweb";
import { createPublicClient, createWalletClient, encodeFunctionData, http, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as conversionRoutes } from "@/app/v2/currencies/[currencyId]/conversion-routes/route";
import { GET as payRequest } from "@/app/v2/request/[requestId]/pay/route";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { POST as createRequest } from "@/app/v2/request/route";
import { compiledContracts } from "@/contracts/generated/artifacts.generated";
import { startTronNodeStub, type TronNodeStub } from "@/e2e/support/tron-node-stub";
import { tronToHex } from "@/lib/chain/address";
import { networkRuntime, resetChainConfig } from "@/lib/chain/config";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import { TronGridEventSource } from "@/lib/detection/tron-source";
import { reloadEnv } from "@/lib/env";
import type { Devnet } from "@/scripts/devnet";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

const PAYEE = "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW";
const PAYER = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf";
const FEE_ADDRESS = "TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY";
const USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";

let devnet: Devnet;
let node: TronNodeStub;
let a: Awaited<ReturnType<typeof makeIntegrator>>;

beforeAll(async () => {
  devnet = await useDevnet();
  process.env.TRON_CONVERSION_RATE_NETWORK = "sepolia";
  reloadEnv();
}, 120_000);

afterAll(async () => {
  delete process.env.TRON_CONVERSION_RATE_NETWORK;
  await stopDevnet(devnet);
});

beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
  node = await startTronNodeStub({ blockMs: 20 });
  await setRate("EUR", "1.08");
});

afterEach(async () => {
  setClock(null);
  await node.stop();
});

/** Sets a devnet feed (→ USD) as `npm run devnet -- rate EUR 1.08` does; `updatedAt` (unix s) backdates it. */
async function setRate(feed: "EUR" | "GBP", value: string, updatedAt = 0n) {
  const transport = http(devnet.rpcUrl);
  const deployer = createWalletClient({
    account: privateKeyToAccount(devnet.accounts.deployer.privateKey),
    chain: devnet.chain,
    transport,
  });
  const hash = await deployer.sendTransaction({
    account: deployer.account,
    chain: devnet.chain,
    to: devnet.aggregators[feed],
    data: encodeFunctionData({
      abi: compiledContracts.DevnetAggregator.abi,
      functionName: "setAnswer",
      args: [parseUnits(value, 8), updatedAt],
    }),
  });
  await createPublicClient({ chain: devnet.chain, transport }).waitForTransactionReceipt({ hash });
}

const headers = () => ({ "x-api-key": a.apiKey });
const PROXY = () => networkRuntime("tron").contracts.erc20FeeProxy;

async function eurInvoice(amount = "100", extra: Record<string, unknown> = {}) {
  const res = await call(createRequest, "/v2/request", {
    method: "POST",
    headers: headers(),
    json: { amount, invoiceCurrency: "EUR", paymentCurrency: "USDT-tron", payee: PAYEE, ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { requestId: string; paymentReference: `0x${string}` };
}

const pay = (id: string, qs = `?wallet=${PAYER}`) =>
  call(payRequest, `/v2/request/${id}/pay${qs}`, { headers: headers(), params: { requestId: id } });
const status = (id: string) => call(getRequest, `/v2/request/${id}`, { headers: headers(), params: { requestId: id } });

/** The payer's transaction as the Tron proxy reports it: `TransferWithReferenceAndFee`, arguments as TronGrid lists them. */
function transfer(reference: string, amount: bigint, opts: { fee?: bigint; txId?: string; block?: number } = {}) {
  const hex = (t: string) => `0x${tronToHex(t).slice(2)}`;
  return node.emit({
    proxy: PROXY(),
    txId: opts.txId ?? `${(Math.random() * 1e16).toString(16).padStart(16, "0")}`.padEnd(64, "a"),
    from: PAYER,
    block: opts.block,
    result: {
      tokenAddress: hex(USDT),
      to: hex(PAYEE),
      amount: amount.toString(),
      // Indexed `bytes`: the event carries keccak256 of the 8-byte reference (computed by tronweb here).
      paymentReference: tronUtils.ethersUtils.keccak256(reference).slice(2),
      feeAmount: (opts.fee ?? 0n).toString(),
      feeAddress: opts.fee ? hex(FEE_ADDRESS) : "0x0000000000000000000000000000000000000000",
    },
  });
}

/** One detection sweep over the stand-in once the emitted block is 19 blocks deep (Tron's confirmations). */
async function sweepPast(block: number) {
  while (node.head() < block + 19) await new Promise((r) => setTimeout(r, 25));
  const source = new TronGridEventSource({
    baseUrl: node.url,
    proxyAddress: PROXY(),
    confirmations: 19,
    creationBlock: 79216121n,
    initialLookback: 2000n,
    headTtlMs: 0,
    maxRetries: 0,
  });
  return sweepDetectionNetwork(source);
}

describe("conversion on Tron: a quoted token amount for a EUR invoice", () => {
  it("EUR 100 in USDT-tron at 1.08: the plan's quote, a plain fee-proxy payment of 108 USDT, credited 100 EUR on detection", async () => {
    const { requestId, paymentReference } = await eurInvoice();
    const plan = await pay(requestId);
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    const conversion = plan.body.metadata.conversion;
    expect(conversion).toMatchObject({
      invoiceCurrency: "EUR",
      requestAmount: "100",
      paymentCurrency: "USDT-tron",
      rate: "1.08",
      rateSource: "chainlink",
      rateNetwork: "sepolia",
      convertedAmount: "108",
      convertedFeeAmount: "0",
      maxToSpend: "108",
      maxRateTimespan: 900,
      rateIsStale: false,
      warning: null,
      quote: { rate: "1.08", amountIn: "108000000", feeAmountIn: "0", graceSeconds: 60 },
    });
    expect(conversion.quote.id).toMatch(/^cq_/);
    const expiresAt = Date.parse(conversion.quote.expiresAt);
    expect(expiresAt - Date.now()).toBeGreaterThan(880_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(900_000);
    expect(conversion.rateExpiresAt).toBe(conversion.quote.expiresAt);
    expect(conversion.path.map((x: string) => x.toLowerCase())).toEqual([
      "0x17b4158805772ced11225e77339f90beb5aae968",
      "0x775eb53d00dd0acd3ec1696472105d579b9b386b",
      devnet.tokens.USDT.toLowerCase(),
    ]);

    // The quote is stored as answered.
    const stored = await db().conversionQuote.findUniqueOrThrow({ where: { id: conversion.quote.id } });
    expect({ amountIn: stored.amountIn.toFixed(), requestAmount: stored.requestAmount.toFixed(), rate: stored.rate.toFixed(2) }).toEqual({
      amountIn: "108000000",
      requestAmount: "10000000000",
      rate: "1.08",
    });
    expect(stored.expiresAt.toISOString()).toBe(conversion.quote.expiresAt);

    // The calldata, read by tronweb: approve(proxy, 108 USDT) on USDT, then the plain fee proxy's
    // transferFromWithReferenceAndFee(USDT, payee, 108000000, reference, 0, 0x0) — no conversion proxy on Tron.
    const [approve, payment] = plan.body.transactions;
    expect(approve.to).toBe(USDT);
    expect(approve.data.slice(0, 10)).toBe(tronUtils.ethersUtils.id("approve(address,uint256)").slice(0, 10));
    const [spender, allowance] = tronUtils.abi.decodeParams([], ["address", "uint256"], `0x${approve.data.slice(10)}`, false);
    expect(tronUtils.address.fromHex(spender)).toBe(PROXY());
    expect(allowance.toString()).toBe("108000000");
    expect(payment.to).toBe(PROXY());
    expect(payment.data.slice(0, 10)).toBe(
      tronUtils.ethersUtils.id("transferFromWithReferenceAndFee(address,address,uint256,bytes,uint256,address)").slice(0, 10),
    );
    const args = tronUtils.abi.decodeParams(
      [],
      ["address", "address", "uint256", "bytes", "uint256", "address"],
      `0x${payment.data.slice(10)}`,
      false,
    );
    expect([
      tronUtils.address.fromHex(args[0]),
      tronUtils.address.fromHex(args[1]),
      args[2].toString(),
      args[3],
      args[4].toString(),
    ]).toEqual([USDT, PAYEE, "108000000", paymentReference, "0"]);

    // The same plan again by its quoteId while it holds.
    const again = await pay(requestId, `?wallet=${PAYER}&quoteId=${conversion.quote.id}`);
    expect(again.status).toBe(200);
    expect(again.body.transactions).toEqual(plan.body.transactions);
    expect(again.body.metadata.conversion.quote).toEqual(conversion.quote);

    // The payer pays 108 USDT; detection through the TronGrid stand-in credits EUR 100 at the quoted rate.
    const { block } = transfer(paymentReference, 108_000_000n);
    const swept = await sweepPast(block);
    expect(swept).toMatchObject({ network: "tron", recorded: 1 });
    expect(node.unknown).toEqual([]);
    const s = await status(requestId);
    expect(s.body).toMatchObject({
      status: "paid",
      hasBeenPaid: true,
      invoiceCurrency: "EUR",
      expectedAmount: "100",
      totalAmountPaid: "100",
      amountInUsd: "108",
      conversionRate: "1.08",
      rateSource: "chainlink",
    });
    expect(s.body.conversionBreakdown).toMatchObject({
      paidAmount: "100",
      paidAmountInUsd: "108",
      remainingAmount: "0",
      currentMarketRate: "1.08",
      payments: [{ amount: "100", amountInUsd: "108", conversionRate: "1.08", rateSource: "chainlink" }],
    });
    expect(s.body.payments[0]).toMatchObject({ amount: "108" });
    const q = await db().conversionQuote.findUniqueOrThrow({ where: { id: conversion.quote.id } });
    const paymentRow = await db().payment.findFirstOrThrow({ where: { requestId } });
    expect(q.paymentId).toBe(paymentRow.id);
    expect(paymentRow.payer).toBe(PAYER);
    const events = await db().outboxEvent.findMany({ where: { type: "payment.confirmed" } });
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.payload)).toMatchObject({ requestId, amount: "108", expectedAmount: "100", totalAmountPaid: "100" });

    // A re-scan records nothing twice; a second transfer finds the quote used (one quote credits one payment).
    expect(await sweepPast(block)).toMatchObject({ recorded: 0 });
    const second = transfer(paymentReference, 108_000_000n);
    expect(await sweepPast(second.block)).toMatchObject({ recorded: 0, ignored: 1 });
    expect(await db().payment.count()).toBe(1);
    expect((await status(requestId)).body).toMatchObject({ totalAmountPaid: "100" });
  });

  it("an expired quote is refused with a 400 asking for a new plan; a new plan gets a new quote at the new rate", async () => {
    const { requestId } = await eurInvoice("50");
    const first = await pay(requestId);
    const quoteId = first.body.metadata.conversion.quote.id as string;
    setClock(() => Date.now() + 901_000);
    const expired = await pay(requestId, `?wallet=${PAYER}&quoteId=${quoteId}`);
    expect(expired.status).toBe(400);
    expect(expired.body.errors).toEqual([
      {
        field: "quoteId",
        message: `this quote expired at ${first.body.metadata.conversion.quote.expiresAt}: ask for a new plan (call again without quoteId)`,
      },
    ]);
    setClock(null);
    await setRate("EUR", "1.1");
    const fresh = await pay(requestId);
    expect(fresh.body.metadata.conversion.quote).toMatchObject({ rate: "1.1", amountIn: "55000000" });
    expect(fresh.body.metadata.conversion.quote.id).not.toBe(quoteId);
    // Someone else's quote, or one of another request: not a quote of this request.
    const other = await eurInvoice("10");
    const wrong = await pay(other.requestId, `?quoteId=${quoteId}`);
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0]).toEqual({ field: "quoteId", message: "is not a quote of this request" });
  });

  it("credits nothing for a transfer short of the quote, or in a block past expiry + grace; a late plan's quote does not pay an earlier transfer", async () => {
    const { requestId, paymentReference } = await eurInvoice("100");
    // A quote made an hour ago (its window long gone) does not cover a transfer now.
    setClock(() => Date.now() - 3_600_000);
    const old = await pay(requestId);
    expect(old.status).toBe(200);
    setClock(null);
    const late = transfer(paymentReference, 108_000_000n);
    await sweepPast(late.block);
    expect((await status(requestId)).body).toMatchObject({ status: "pending", totalAmountPaid: "0" });
    // Nor does a quote made after the transfer's block (beyond the grace) pay it, on a later sweep.
    setClock(() => Date.now() + 3_600_000);
    expect((await pay(requestId)).status).toBe(200);
    setClock(null);
    await db().chainCursor.deleteMany();
    await sweepPast(late.block);
    expect((await status(requestId)).body).toMatchObject({ status: "pending", totalAmountPaid: "0" });

    // A live quote, and a transfer 1 base unit short of it.
    const live = await pay(requestId);
    const short = transfer(paymentReference, BigInt(live.body.metadata.conversion.quote.amountIn) - 1n);
    await sweepPast(short.block);
    expect((await status(requestId)).body).toMatchObject({ status: "pending", totalAmountPaid: "0" });
    expect(await db().payment.count()).toBe(0);

    // The full amount then pays it; the quote is used once.
    const full = transfer(paymentReference, 108_000_000n);
    expect(await sweepPast(full.block)).toMatchObject({ recorded: 1 });
    expect((await status(requestId)).body).toMatchObject({ status: "paid", totalAmountPaid: "100" });
  });

  it("with a fee: EUR 200 + 1 % at 1.08 is 216 + 2.16 USDT; the fee is credited at the quoted rate", async () => {
    const { requestId, paymentReference } = await eurInvoice("200", { feePercentage: "1", feeAddress: FEE_ADDRESS });
    const plan = await pay(requestId);
    expect(plan.body.metadata.conversion).toMatchObject({
      feeAmount: "2",
      convertedAmount: "216",
      convertedFeeAmount: "2.16",
      quote: { amountIn: "216000000", feeAmountIn: "2160000" },
    });
    const args = tronUtils.abi.decodeParams(
      [],
      ["address", "address", "uint256", "bytes", "uint256", "address"],
      `0x${plan.body.transactions[1].data.slice(10)}`,
      false,
    );
    expect([args[2].toString(), args[4].toString(), tronUtils.address.fromHex(args[5])]).toEqual(["216000000", "2160000", FEE_ADDRESS]);
    const t = transfer(paymentReference, 216_000_000n, { fee: 2_160_000n });
    expect(await sweepPast(t.block)).toMatchObject({ recorded: 1 });
    const s = await status(requestId);
    expect(s.body).toMatchObject({ status: "paid", totalAmountPaid: "200" });
    const row = await db().payment.findFirstOrThrow({ where: { requestId } });
    expect([row.invoiceAmount?.toFixed(), row.invoiceFeeAmount?.toFixed()]).toEqual(["20000000000", "200000000"]);
  });

  it("a feed not updated for more than 25 h gives no quote: 503, nothing stored", async () => {
    const { requestId } = await eurInvoice("100");
    const chainNow = (await createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) }).getBlock()).timestamp;
    await setRate("EUR", "1.08", chainNow - 26n * 3600n);
    const res = await pay(requestId);
    expect(res.status).toBe(503);
    expect(res.body.message).toMatch(/^The EUR→USDT rate on sepolia was last updated \d+ s ago: its price feed is not updating/);
    expect(await db().conversionQuote.count()).toBe(0);
  });

  it("cross-chain on Tron stays refused by name; conversion routes list Tron's tokens read on the rate network", async () => {
    const { requestId } = await eurInvoice("100");
    const cross = await pay(requestId, `?wallet=0x1111111111111111111111111111111111111111&chain=BASE&token=USDC`);
    expect(cross.status).toBe(400);
    expect(cross.body.errors[0]).toEqual({
      field: "chain",
      message: "cross-chain payment does not reach Tron: pay this EUR invoice in USDT-tron on Tron (omit chain and token)",
    });
    const routes = await call(conversionRoutes, "/v2/currencies/EUR/conversion-routes?network=tron", {
      headers: headers(),
      params: { currencyId: "EUR" },
    });
    expect(routes.status).toBe(200);
    expect(routes.body.conversionRoutes.map((c: { id: string }) => c.id)).toEqual(["USDC-tron", "USDT-tron"]);
    expect(routes.body.verifiedOnChain).toEqual(["tron"]);
  });

  it("without a rate source, a EUR invoice in USDT-tron is refused naming paymentCurrency", async () => {
    // Base as the rate network, configured without conversion contracts.
    const devnetConfig = process.env.CHAIN_CONFIG!;
    process.env.CHAIN_CONFIG = JSON.stringify({
      ...devnet.chainConfig(),
      base: { contracts: { erc20ConversionProxy: null, chainlinkConversionPath: null } },
    });
    process.env.TRON_CONVERSION_RATE_NETWORK = "base";
    reloadEnv();
    resetChainConfig();
    try {
      const res = await call(createRequest, "/v2/request", {
        method: "POST",
        headers: headers(),
        json: { amount: "100", invoiceCurrency: "EUR", paymentCurrency: "USDT-tron", payee: PAYEE },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toEqual({
        field: "paymentCurrency",
        message:
          "USDT-tron cannot pay EUR invoices: tron has no conversion rate source: TRON_CONVERSION_RATE_NETWORK (base) has no ChainlinkConversionPath configured",
      });
    } finally {
      process.env.CHAIN_CONFIG = devnetConfig;
      process.env.TRON_CONVERSION_RATE_NETWORK = "sepolia";
      reloadEnv();
      resetChainConfig();
    }
  });
});
