import {
  createPublicClient,
  createWalletClient,
  decodeFunctionData,
  encodeFunctionData,
  erc20Abi,
  http,
  type PublicClient,
  parseUnits,
  type WalletClient,
  zeroAddress,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as conversionRoutes } from "@/app/v2/currencies/[currencyId]/conversion-routes/route";
import { GET as payRequest } from "@/app/v2/request/[requestId]/pay/route";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { POST as createRequest } from "@/app/v2/request/route";
import { compiledContracts } from "@/contracts/generated/artifacts.generated";
import { erc20ConversionProxyAbi } from "@/lib/chain/abis";
import { conversionPayTx, feeProxyPayTx } from "@/lib/chain/calldata";
import { fiatHash } from "@/lib/chain/conversion";
import { chainlinkConversionPathAbi } from "@/lib/chain/conversion-abis";
import { db } from "@/lib/db";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import type { Devnet } from "@/scripts/devnet";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

let devnet: Devnet;
let payer: WalletClient;
let deployer: WalletClient;
let pub: PublicClient;
let a: Awaited<ReturnType<typeof makeIntegrator>>;

const aggregatorAbi = compiledContracts.DevnetAggregator.abi;

beforeAll(async () => {
  devnet = await useDevnet();
  const transport = http(devnet.rpcUrl);
  payer = createWalletClient({ account: privateKeyToAccount(devnet.accounts.payer.privateKey), chain: devnet.chain, transport });
  deployer = createWalletClient({ account: privateKeyToAccount(devnet.accounts.deployer.privateKey), chain: devnet.chain, transport });
  pub = createPublicClient({ chain: devnet.chain, transport }) as PublicClient;
}, 60_000);

afterAll(() => stopDevnet(devnet));

beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
  await setRate("EUR", "1.08");
});

type Tx = { to: `0x${string}`; data: `0x${string}`; value: { hex: `0x${string}` } };

async function send(tx: { to: `0x${string}`; data: `0x${string}` }, from: WalletClient = payer) {
  // Gas as a wallet sets it: the node's estimate plus a margin. Once in CI anvil's bare estimate for the converted fee
  // payment ran out of gas after the fee proxy's delegatecall (MetaMask and Rabby add such a margin for contract calls).
  const estimate = await pub.estimateGas({ account: from.account!, to: tx.to, data: tx.data });
  const hash = await from.sendTransaction({
    account: from.account!,
    chain: devnet.chain,
    to: tx.to,
    data: tx.data,
    gas: (estimate * 13n) / 10n,
  });
  const receipt = await pub.waitForTransactionReceipt({ hash });
  // A revert names its reason and the block's time (anvil's call tracer), so a rare failure explains itself.
  expect(receipt.status, receipt.status === "success" ? "" : await revertDetails(hash, receipt.blockNumber)).toBe("success");
  return hash;
}

async function revertDetails(hash: `0x${string}`, blockNumber: bigint): Promise<string> {
  const trace = await pub
    .request({ method: "debug_traceTransaction" as never, params: [hash, { tracer: "callTracer" }] as never })
    .catch((err: unknown) => ({ error: String(err) }));
  const block = await pub.getBlock({ blockNumber });
  return `reverted in block ${blockNumber} (timestamp ${block.timestamp}): ${JSON.stringify(trace, (_k, v) => (typeof v === "string" && v.length > 300 ? `${v.slice(0, 300)}…` : v))}`;
}

async function chainNow(): Promise<number> {
  return Number((await pub.getBlock({ blockTag: "latest" })).timestamp);
}

/** Sets a devnet feed (→ USD) as `npm run devnet -- rate` does; `age` backdates its update time. */
async function setRate(feed: "EUR" | "GBP" | "JPY", value: string, ageSeconds = 0) {
  const updatedAt = ageSeconds > 0 ? BigInt((await chainNow()) - ageSeconds) : 0n;
  await send(
    {
      to: devnet.aggregators[feed],
      data: encodeFunctionData({
        abi: aggregatorAbi,
        functionName: "setAnswer",
        args: [parseUnits(value, 8), updatedAt],
      }),
    },
    deployer,
  );
}

const headers = () => ({ "x-api-key": a.apiKey });
const create = (json: Record<string, unknown>) => call(createRequest, "/v2/request", { method: "POST", headers: headers(), json });
const status = (id: string) => call(getRequest, `/v2/request/${id}`, { headers: headers(), params: { requestId: id } });
const pay = (id: string) =>
  call(payRequest, `/v2/request/${id}/pay?wallet=${devnet.accounts.payer.address}`, { headers: headers(), params: { requestId: id } });
const sweep = () => sweepDetectionNetwork(evmEventSource("sepolia")!);
const usdcOf = (who: `0x${string}`) =>
  pub.readContract({ address: devnet.tokens.USDC, abi: erc20Abi, functionName: "balanceOf", args: [who] });

async function eurRequest(amount = "100", extra: Record<string, unknown> = {}) {
  const res = await create({
    amount,
    invoiceCurrency: "EUR",
    paymentCurrency: "USDC-sepolia",
    payee: devnet.accounts.payee.address,
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { requestId: string; paymentReference: `0x${string}` };
}

describe("conversion payments on anvil (Erc20ConversionProxy + ChainlinkConversionPath)", () => {
  it("EUR 100 paid in USDC at 1.08: calldata through the conversion proxy, detected paid, rate and USD value to the cent", async () => {
    const { requestId, paymentReference } = await eurRequest();
    const plan = await pay(requestId);
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    const txs = plan.body.transactions as Tx[];
    expect(plan.body.metadata).toMatchObject({ needsApproval: true, stepsRequired: 2, paymentTransactionIndex: 1, hasEnoughBalance: true });
    expect(plan.body.metadata.conversion).toMatchObject({
      invoiceCurrency: "EUR",
      requestAmount: "100",
      paymentCurrency: "USDC-sepolia",
      rate: "1.08",
      rateSource: "chainlink",
      maxRateTimespan: 1800,
      rateIsStale: false,
      convertedAmount: "108",
      maxToSpend: "109.08",
      warning: null,
    });
    expect(plan.body.metadata.conversion.rateAgeSeconds).toBeLessThanOrEqual(5);
    // approve(conversion proxy, maxToSpend), then transferFromWithReferenceAndFee (0x3af2c012) on the proxy.
    expect(txs[0]!.to.toLowerCase()).toBe(devnet.tokens.USDC.toLowerCase());
    const approve = decodeFunctionData({ abi: erc20Abi, data: txs[0]!.data });
    expect(approve.args).toEqual([devnet.contracts.erc20ConversionProxy, 109_080_000n]);
    expect(txs[1]!.to).toBe(devnet.contracts.erc20ConversionProxy);
    expect(txs[1]!.data.slice(0, 10)).toBe("0x3af2c012");
    const call_ = decodeFunctionData({ abi: erc20ConversionProxyAbi, data: txs[1]!.data });
    expect(call_.args).toEqual([
      devnet.accounts.payee.address,
      100_00000000n,
      [fiatHash("EUR"), fiatHash("USD"), devnet.tokens.USDC].map((x) => expect.stringMatching(new RegExp(`^${x}$`, "i"))),
      paymentReference,
      0n,
      zeroAddress,
      109_080_000n,
      1800n,
    ]);

    const before = await usdcOf(devnet.accounts.payee.address);
    for (const tx of txs) await send(tx);
    expect((await usdcOf(devnet.accounts.payee.address)) - before).toBe(108_000_000n);

    expect((await sweep()).recorded).toBe(1);
    const s = await status(requestId);
    expect(s.status).toBe(200);
    expect(s.body).toMatchObject({
      hasBeenPaid: true,
      status: "paid",
      invoiceCurrency: "EUR",
      expectedAmount: "100",
      totalAmountPaid: "100",
      amountInUsd: "108",
      conversionRate: "1.08",
      rateSource: "chainlink",
    });
    expect(s.body.payments[0].amount).toBe("108"); // the tokens that moved
    expect(s.body.conversionBreakdown).toMatchObject({
      paidAmount: "100",
      paidAmountInUsd: "108",
      remainingAmount: "0",
      remainingAmountInUsd: "0",
      currentMarketRate: "1.08",
      currentMarketRateSource: "chainlink",
      payments: [{ amount: "100", amountInUsd: "108", conversionRate: "1.08", rateSource: "chainlink" }],
    });
    const events = await db().outboxEvent.findMany({ where: { type: "payment.confirmed" } });
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.payload)).toMatchObject({ requestId, amount: "108", expectedAmount: "100", totalAmountPaid: "100" });
  });

  it("a fee is converted too: EUR 200 + 1 % at 1.1 takes 220 + 2.2 USDC, maxToSpend + 1 %", async () => {
    await setRate("EUR", "1.1");
    const { requestId } = await eurRequest("200", { feePercentage: "1", feeAddress: devnet.accounts.feeRecipient.address });
    const plan = await pay(requestId);
    expect(plan.body.metadata.conversion).toMatchObject({
      feeAmount: "2",
      convertedAmount: "220",
      convertedFeeAmount: "2.2",
      maxToSpend: "224.422",
    });
    const fee0 = await usdcOf(devnet.accounts.feeRecipient.address);
    for (const tx of plan.body.transactions as Tx[]) await send(tx);
    expect((await usdcOf(devnet.accounts.feeRecipient.address)) - fee0).toBe(2_200_000n);
    await sweep();
    const s = await status(requestId);
    expect(s.body).toMatchObject({ hasBeenPaid: true, amountInUsd: "220", conversionRate: "1.1" });
    expect(s.body.fees).toEqual([{ type: "platform", provider: "duebill", amount: "2", currency: "EUR" }]);
  });

  it("a conversion payment without its fee (EUR 100 + 2 %, fee 0) is fee_short in EUR; the plan then asks for the EUR 2 fee alone", async () => {
    const { requestId, paymentReference } = await eurRequest("100", {
      feePercentage: "2",
      feeAddress: devnet.accounts.feeRecipient.address,
    });
    await send({
      to: devnet.tokens.USDC,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [devnet.contracts.erc20ConversionProxy, 1_000_000_000n] }),
    });
    const noFee = conversionPayTx({
      proxy: devnet.contracts.erc20ConversionProxy,
      to: devnet.accounts.payee.address,
      requestAmount: 100_00000000n,
      path: [fiatHash("EUR"), fiatHash("USD"), devnet.tokens.USDC],
      paymentReference,
      feeAmount: 0n,
      feeAddress: devnet.accounts.feeRecipient.address,
      maxToSpend: 200_000_000n,
      maxRateTimespan: 1800n,
    });
    await send({ to: noFee.to as `0x${string}`, data: noFee.data });
    expect((await sweep()).recorded).toBe(1);
    expect((await status(requestId)).body).toMatchObject({
      status: "partially_paid",
      hasBeenPaid: false,
      totalAmountPaid: "100",
      subStatus: "fee_short",
      missingFees: [{ type: "platform", feeAddress: devnet.accounts.feeRecipient.address, amount: "2", currency: "EUR" }],
    });
    // EUR 0 plus the EUR 2 fee (2.16 USDC at 1.08), through the conversion proxy.
    const rest = await pay(requestId);
    expect(rest.body.metadata.conversion).toMatchObject({
      requestAmount: "0",
      feeAmount: "2",
      convertedAmount: "0",
      convertedFeeAmount: "2.16",
    });
    const fee0 = await usdcOf(devnet.accounts.feeRecipient.address);
    for (const tx of rest.body.transactions as Tx[]) await send(tx);
    expect((await usdcOf(devnet.accounts.feeRecipient.address)) - fee0).toBe(2_160_000n);
    await sweep();
    expect((await status(requestId)).body).toMatchObject({ status: "paid", hasBeenPaid: true, subStatus: null });
  });

  it("a payment short of the fiat amount stays partial (EUR 60 of 100), whatever tokens moved", async () => {
    const { requestId, paymentReference } = await eurRequest();
    // approve, then pay only EUR 60 through the proxy (a payer's own calldata).
    await send({
      to: devnet.tokens.USDC,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: "approve",
        args: [devnet.contracts.erc20ConversionProxy, 1_000_000_000n],
      }),
    });
    const short = conversionPayTx({
      proxy: devnet.contracts.erc20ConversionProxy,
      to: devnet.accounts.payee.address,
      requestAmount: 60_00000000n,
      path: [fiatHash("EUR"), fiatHash("USD"), devnet.tokens.USDC],
      paymentReference,
      feeAmount: 0n,
      feeAddress: null,
      maxToSpend: 100_000_000n,
      maxRateTimespan: 1800n,
    });
    await send({ to: short.to as `0x${string}`, data: short.data });
    expect((await sweep()).recorded).toBe(1);
    const s = await status(requestId);
    expect(s.body).toMatchObject({
      hasBeenPaid: false,
      status: "partially_paid",
      totalAmountPaid: "60",
      expectedAmount: "100",
      conversionRate: "1.08",
      amountInUsd: "108", // 60 paid (64.8 USD) + 40 remaining at today's 1.08
    });
    expect(s.body.conversionBreakdown).toMatchObject({
      paidAmount: "60",
      paidAmountInUsd: "64.8",
      remainingAmount: "40",
      remainingAmountInUsd: "43.2",
    });
    expect(await db().outboxEvent.count({ where: { type: "payment.confirmed" } })).toBe(0);
    // The rest is planned for EUR 40.
    const rest = await pay(requestId);
    expect(rest.body.metadata.conversion).toMatchObject({ requestAmount: "40", convertedAmount: "43.2" });
  });

  it("a plain fee-proxy transfer of the token does not pay a EUR request (no invoice amount to credit)", async () => {
    const { requestId, paymentReference } = await eurRequest();
    await send({
      to: devnet.tokens.USDC,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [devnet.contracts.erc20FeeProxy, 200_000_000n] }),
    });
    const direct = feeProxyPayTx("evm", {
      proxy: devnet.contracts.erc20FeeProxy,
      token: devnet.tokens.USDC,
      to: devnet.accounts.payee.address,
      amount: 200_000_000n,
      paymentReference,
      feeAmount: 0n,
      feeAddress: null,
    });
    await send({ to: direct.to as `0x${string}`, data: direct.data });
    const swept = await sweep();
    expect(swept).toMatchObject({ recorded: 0, ignored: 1 });
    const res = await status(requestId);
    expect(res.body).toMatchObject({
      hasBeenPaid: false,
      status: "pending",
      totalAmountPaid: "0",
      amountInUsd: "108",
      conversionRate: "1.08",
    });
    expect(res.body.conversionBreakdown).toMatchObject({
      paidAmount: "0",
      remainingAmount: "100",
      currentMarketRate: "1.08",
      payments: [],
    });
  });

  it("a rate older than maxRateTimespan: the pay metadata says why, and the proxy reverts", async () => {
    const { requestId } = await eurRequest();
    await setRate("EUR", "1.08", 3600); // the EUR/USD feed was last updated an hour ago
    const plan = await pay(requestId);
    expect(plan.status).toBe(200);
    const c = plan.body.metadata.conversion;
    expect(c.rateIsStale).toBe(true);
    expect(c.rateAgeSeconds).toBeGreaterThanOrEqual(3600);
    expect(c.warning).toMatch(/aggregator rate is outdated/);
    expect(c.warning).toMatch(/fresh rate/);
    const txs = plan.body.transactions as Tx[];
    for (const approval of txs.slice(0, -1)) await send(approval);
    const stalePay = txs.at(-1)!;
    await expect(pub.call({ account: payer.account!, to: stalePay.to, data: stalePay.data })).rejects.toThrow(
      /aggregator rate is outdated/,
    );
    await expect(send(stalePay)).rejects.toThrow(/aggregator rate is outdated/);

    // A fresh rate, then the chain's clock moves past maxRateTimespan: the same calldata reverts again.
    await setRate("EUR", "1.08");
    const fresh = await pay(requestId);
    expect(fresh.body.metadata.conversion).toMatchObject({ rateIsStale: false, warning: null });
    const payTx = (fresh.body.transactions as Tx[]).at(-1)!;
    await pub.call({ account: payer.account!, to: payTx.to, data: payTx.data }); // would succeed now
    await pub.request({ method: "evm_increaseTime" as never, params: [1801] as never });
    await pub.request({ method: "evm_mine" as never, params: [] as never });
    await expect(pub.call({ account: payer.account!, to: payTx.to, data: payTx.data })).rejects.toThrow(/aggregator rate is outdated/);
    const later = await pay(requestId);
    expect(later.body.metadata.conversion.rateIsStale).toBe(true);
  });

  it("400 naming the field: unsupported fiat code, payment currency without a conversion path", async () => {
    const payee = devnet.accounts.payee.address;
    const bad = await create({ amount: "10", invoiceCurrency: "XYZ", paymentCurrency: "USDC-sepolia", payee });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("invoiceCurrency");
    // A token of the reference's catalog is listed, not payable (Tron, without a proxy, converts at a
    // quoted rate: tests/detection/tron-conversion.test.ts).
    const listedOnly = await create({ amount: "10", invoiceCurrency: "EUR", paymentCurrency: "AAVE-mainnet", payee });
    expect(listedOnly.status).toBe(400);
    expect(listedOnly.body.errors[0].field).toBe("paymentCurrency");
    // USDT0 is a payment alias, not a conversion currency.
    const alias = await create({ amount: "10", invoiceCurrency: "GBP", paymentCurrency: "USDT0-arbitrum-one", payee });
    expect(alias.status).toBe(400);
    expect(alias.body.errors[0].field).toBe("paymentCurrency");

    // On chain: the USDT feed is unregistered from the devnet's ChainlinkConversionPath → no EUR path to USDT.
    const routesBefore = await call(conversionRoutes, "/v2/currencies/EUR/conversion-routes?network=sepolia", {
      headers: headers(),
      params: { currencyId: "EUR" },
    });
    const ids = (body: { conversionRoutes: { id: string }[] }) => body.conversionRoutes.map((c) => c.id).sort();
    expect(ids(routesBefore.body)).toEqual(["FAU-sepolia", "USDC-sepolia", "USDT-sepolia"]);
    expect(routesBefore.body.verifiedOnChain).toEqual(["sepolia"]);
    await send(
      {
        to: devnet.contracts.chainlinkConversionPath,
        data: encodeFunctionData({
          abi: chainlinkConversionPathAbi,
          functionName: "updateAggregator",
          args: [devnet.tokens.USDT, fiatHash("USD"), zeroAddress],
        }),
      },
      deployer,
    );
    try {
      const noPath = await create({ amount: "10", invoiceCurrency: "EUR", paymentCurrency: "USDT-sepolia", payee });
      expect(noPath.status).toBe(400);
      expect(noPath.body.errors[0]).toMatchObject({ field: "paymentCurrency" });
      expect(noPath.body.errors[0].message).toMatch(/price feed path/);
      const routes = await call(conversionRoutes, "/v2/currencies/EUR/conversion-routes?network=sepolia", {
        headers: headers(),
        params: { currencyId: "EUR" },
      });
      expect(ids(routes.body)).toEqual(["FAU-sepolia", "USDC-sepolia"]);
      // JPY (0 decimals) still converts to FAU (18 decimals): 1000 JPY at 0.0067 = 6.7 FAU.
      const jpy = await create({ amount: "1000", invoiceCurrency: "JPY", paymentCurrency: "FAU-sepolia", payee });
      expect(jpy.status).toBe(201);
      const jpyPlan = await pay(jpy.body.requestId);
      expect(jpyPlan.body.metadata.conversion).toMatchObject({ requestAmount: "1000", rate: "0.0067", convertedAmount: "6.7" });
      const jpyDecimals = await create({ amount: "10.5", invoiceCurrency: "JPY", paymentCurrency: "FAU-sepolia", payee });
      expect(jpyDecimals.status).toBe(400);
      expect(jpyDecimals.body.errors[0].field).toBe("amount");
    } finally {
      await send(
        {
          to: devnet.contracts.chainlinkConversionPath,
          data: encodeFunctionData({
            abi: chainlinkConversionPathAbi,
            functionName: "updateAggregator",
            args: [devnet.tokens.USDT, fiatHash("USD"), devnet.aggregators.USDT],
          }),
        },
        deployer,
      );
    }
  });
});
