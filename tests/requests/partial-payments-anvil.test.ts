/**
 * Issue 29 item 2, on anvil: GET /v2/request/{id}/pay?amount= pays part of what is owed. A 10 USDC
 * request paid 4 + 6 is partially_paid after the first part and paid after the second, each part
 * sent from the payer's wallet as the answer says and detected from the chain. A fee is paid in
 * proportion, and the part that settles carries the fee's whole rest (no rounding left short).
 * A EUR invoice's part is in euros (the conversion proxy's requestAmount). Bad amounts → 400 naming
 * `amount`.
 *
 * Expected amounts are worked out by hand; calldata is decoded with ABIs written here from the
 * contracts' Solidity signatures (docs/spec/reference-notes.md §2), not the app's.
 */
import {
  createPublicClient,
  createWalletClient,
  decodeFunctionData,
  encodeFunctionData,
  erc20Abi,
  http,
  type PublicClient,
  parseAbi,
  parseUnits,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as payRequest } from "@/app/v2/request/[requestId]/pay/route";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { POST as createRequest } from "@/app/v2/request/route";
import { compiledContracts } from "@/contracts/generated/artifacts.generated";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import type { Devnet } from "@/scripts/devnet";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

const feeProxyAbi = parseAbi([
  "function transferFromWithReferenceAndFee(address _tokenAddress, address _to, uint256 _amount, bytes _paymentReference, uint256 _feeAmount, address _feeAddress)",
]);
const conversionProxyAbi = parseAbi([
  "function transferFromWithReferenceAndFee(address _to, uint256 _requestAmount, address[] _path, bytes _paymentReference, uint256 _feeAmount, address _feeAddress, uint256 _maxToSpend, uint256 _maxRateTimespan)",
]);

let devnet: Devnet;
let pub: PublicClient;
let a: Awaited<ReturnType<typeof makeIntegrator>>;

beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) }) as PublicClient;
}, 60_000);
afterAll(() => stopDevnet(devnet));

beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
});

type Tx = { to: `0x${string}`; data: `0x${string}` };
const headers = () => ({ "x-api-key": a.apiKey });
const status = (id: string) => call(getRequest, `/v2/request/${id}`, { headers: headers(), params: { requestId: id } });
const plan = (id: string, amount?: string) =>
  call(payRequest, `/v2/request/${id}/pay?wallet=${devnet.accounts.payer.address}${amount === undefined ? "" : `&amount=${amount}`}`, {
    headers: headers(),
    params: { requestId: id },
  });
const usdcOf = (who: `0x${string}`) =>
  pub.readContract({ address: devnet.tokens.USDC, abi: erc20Abi, functionName: "balanceOf", args: [who] });

async function newRequest(json: Record<string, unknown>) {
  const res = await call(createRequest, "/v2/request", {
    method: "POST",
    headers: headers(),
    json: { payee: devnet.accounts.payee.address, ...json },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.requestId as string;
}

/** Sends a plan's transactions from the payer, in order, then runs detection once. */
async function sendPlan(txs: Tx[]) {
  const wallet = createWalletClient({
    account: privateKeyToAccount(devnet.accounts.payer.privateKey),
    chain: devnet.chain,
    transport: http(devnet.rpcUrl),
  });
  for (const tx of txs) {
    const receipt = await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: tx.to, data: tx.data }) });
    expect(receipt.status).toBe("success");
  }
  return sweepDetectionNetwork(evmEventSource("sepolia")!);
}

/** The fee-proxy call of a plan: [amount, feeAmount, feeAddress]. */
function proxyCall(txs: Tx[]) {
  const tx = txs.find((t) => t.to.toLowerCase() === devnet.contracts.erc20FeeProxy.toLowerCase())!;
  const { args } = decodeFunctionData({ abi: feeProxyAbi, data: tx.data });
  return { amount: args[2], fee: args[4], feeAddress: args[5] };
}

const badAmount = (field: string, message: RegExp) => ({
  statusCode: 400,
  message: "Validation failed",
  errors: [{ field, message: expect.stringMatching(message) }],
});

describe("partial payments: GET /v2/request/{id}/pay?amount= on anvil", () => {
  it("a 10 USDC request paid 4 + 6: partially_paid, then paid", async () => {
    const id = await newRequest({ amount: "10", invoiceCurrency: "USDC-sepolia", paymentCurrency: "USDC-sepolia" });
    const payee0 = await usdcOf(devnet.accounts.payee.address);

    const first = await plan(id, "4");
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(proxyCall(first.body.transactions)).toMatchObject({ amount: 4_000_000n, fee: 0n });
    expect((await sendPlan(first.body.transactions)).recorded).toBe(1);
    const after4 = await status(id);
    expect(after4.body).toMatchObject({
      status: "partially_paid",
      hasBeenPaid: false,
      subStatus: null,
      expectedAmount: "10",
      totalAmountPaid: "4",
      isListening: true,
    });
    expect(after4.body.payments).toHaveLength(1);
    // Without amount, the plan asks for exactly the rest.
    expect(proxyCall((await plan(id)).body.transactions).amount).toBe(6_000_000n);

    // More than the 6 still owed, by one base unit.
    expect((await plan(id, "6.000001")).body).toEqual(expect.objectContaining(badAmount("amount", /more than the 6 USDC still owed/)));
    const second = await plan(id, "6");
    expect(proxyCall(second.body.transactions)).toMatchObject({ amount: 6_000_000n, fee: 0n });
    expect((await sendPlan(second.body.transactions)).recorded).toBe(1);
    expect((await status(id)).body).toMatchObject({ status: "paid", hasBeenPaid: true, totalAmountPaid: "10", isListening: false });
    expect((await usdcOf(devnet.accounts.payee.address)) - payee0).toBe(10_000_000n);
    // Settled: nothing more to pay.
    expect((await plan(id, "1")).status).toBe(409);
  });

  it("bad amounts are 400 naming amount", async () => {
    const id = await newRequest({ amount: "10", invoiceCurrency: "USDC-sepolia", paymentCurrency: "USDC-sepolia" });
    for (const [amount, message] of [
      ["0", /greater than 0/],
      ["0.000000", /greater than 0/],
      ["-1", /positive decimal string/],
      ["abc", /positive decimal string/],
      ["1e3", /positive decimal string/],
      [" 4", /positive decimal string/],
      ["4.0000001", /more than 6 decimal places/],
      ["10.000001", /more than the 10 USDC still owed/],
      ["11", /more than the 10 USDC still owed/],
    ] as const) {
      const res = await plan(id, encodeURIComponent(amount));
      expect(res.status, amount).toBe(400);
      expect(res.body, amount).toMatchObject(badAmount("amount", message));
    }
    // A part is same-chain.
    const crossChain = await call(payRequest, `/v2/request/${id}/pay?amount=4&chain=BASE&token=USDC`, {
      headers: headers(),
      params: { requestId: id },
    });
    expect(crossChain.body).toMatchObject(badAmount("amount", /same-chain/));
    // A USD invoice keeps USD's 2 decimals, as its amount did.
    const usd = await newRequest({ amount: "10", invoiceCurrency: "USD", paymentCurrency: "USDC-sepolia" });
    expect((await plan(usd, "4.005")).body).toMatchObject(badAmount("amount", /more than 2 decimal places/));
    expect(proxyCall((await plan(usd, "4.05")).body.transactions).amount).toBe(4_050_000n);
  });

  it("a fee is paid in proportion, and the settling part carries its whole rest: 10 USDC + 2.5 % paid 3.33 + 3.33 + 3.34", async () => {
    const feeTo = devnet.accounts.feeRecipient.address;
    const id = await newRequest({
      amount: "10",
      invoiceCurrency: "USDC-sepolia",
      paymentCurrency: "USDC-sepolia",
      feePercentage: "2.5",
      feeAddress: feeTo,
    });
    const fee0 = await usdcOf(feeTo);
    // 2.5 % of 3.33 = 0.08325; of 6.66 = 0.1665 (0.08325 more); the last part tops the fee up to 0.25.
    const expected = [
      ["3.33", 3_330_000n, 83_250n],
      ["3.33", 3_330_000n, 83_250n],
      ["3.34", 3_340_000n, 83_500n],
    ] as const;
    for (const [i, [part, amount, fee]] of expected.entries()) {
      const p = await plan(id, part);
      expect(p.status, JSON.stringify(p.body)).toBe(200);
      expect(proxyCall(p.body.transactions)).toEqual({ amount, fee, feeAddress: feeTo });
      await sendPlan(p.body.transactions);
      const s = (await status(id)).body;
      expect(s.status).toBe(i < 2 ? "partially_paid" : "paid");
      expect(s.subStatus).toBeNull();
    }
    expect((await usdcOf(feeTo)) - fee0).toBe(250_000n);
  });

  it("the settling part's fee absorbs earlier rounding: 1 % of 0.000033 + 0.000067 USDC", async () => {
    const feeTo = devnet.accounts.feeRecipient.address;
    // 1 % of 100 units is 1 unit; 1 % of 33 units rounds to 0: the second part carries the whole unit.
    const id = await newRequest({
      amount: "0.0001",
      invoiceCurrency: "USDC-sepolia",
      paymentCurrency: "USDC-sepolia",
      feePercentage: "1",
      feeAddress: feeTo,
    });
    const first = await plan(id, "0.000033");
    expect(proxyCall(first.body.transactions)).toMatchObject({ amount: 33n, fee: 0n });
    await sendPlan(first.body.transactions);
    expect((await status(id)).body).toMatchObject({ status: "partially_paid", subStatus: null });
    const second = await plan(id, "0.000067");
    expect(proxyCall(second.body.transactions)).toMatchObject({ amount: 67n, fee: 1n });
    await sendPlan(second.body.transactions);
    expect((await status(id)).body).toMatchObject({ status: "paid", subStatus: null });
  });

  it("a EUR invoice's part is in euros: EUR 100 paid 40 + 60 through the conversion proxy", async () => {
    const deployer = createWalletClient({
      account: privateKeyToAccount(devnet.accounts.deployer.privateKey),
      chain: devnet.chain,
      transport: http(devnet.rpcUrl),
    });
    const hash = await deployer.sendTransaction({
      to: devnet.aggregators.EUR,
      data: encodeFunctionData({
        abi: compiledContracts.DevnetAggregator.abi,
        functionName: "setAnswer",
        args: [parseUnits("1.08", 8), 0n],
      }),
    });
    await pub.waitForTransactionReceipt({ hash });
    const id = await newRequest({ amount: "100", invoiceCurrency: "EUR", paymentCurrency: "USDC-sepolia" });
    expect((await plan(id, "40.001")).body).toMatchObject(badAmount("amount", /more than 2 decimal places/));
    expect((await plan(id, "100.01")).body).toMatchObject(badAmount("amount", /more than the 100 EUR still owed/));
    const first = await plan(id, "40");
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.metadata.conversion).toMatchObject({ requestAmount: "40", convertedAmount: "43.2" });
    const tx = (first.body.transactions as Tx[]).find((t) => t.to === devnet.contracts.erc20ConversionProxy)!;
    expect(decodeFunctionData({ abi: conversionProxyAbi, data: tx.data }).args[1]).toBe(40_00000000n);
    await sendPlan(first.body.transactions);
    expect((await status(id)).body).toMatchObject({ status: "partially_paid", totalAmountPaid: "40", expectedAmount: "100" });
    const second = await plan(id, "60");
    expect(second.body.metadata.conversion).toMatchObject({ requestAmount: "60" });
    await sendPlan(second.body.transactions);
    expect((await status(id)).body).toMatchObject({ status: "paid", totalAmountPaid: "100" });
  });
});
