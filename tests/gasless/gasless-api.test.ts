/**
 * GET/POST /v2/secure-payments/{token}/gasless on anvil: a payer holding USDC and no ETH signs the plan's
 * typed data; the relayer sends it through DuebillGaslessPayments; detection completes the link and
 * attributes the payment to the signer. Oracles: the chain (balances, the payer's nonce, the token's
 * own signature check), the detection sweep's record. Refusals by name: USDT, a foreign signature, an
 * expired plan, the relayer unset; a second submission sends nothing.
 */
import { createPublicClient, createWalletClient, erc20Abi, type Hex, http, type PublicClient } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as createDestination } from "@/app/v2/payee-destination/route";
import { GET as planRoute, POST as submitRoute } from "@/app/v2/secure-payments/[token]/gasless/route";
import { POST as createLink } from "@/app/v2/secure-payments/route";
import { compiledContracts } from "@/contracts/generated/artifacts.generated";
import { db } from "@/lib/db";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import { reloadEnv } from "@/lib/env";
import { setFeeConfig } from "@/lib/fees/fee-config";
import type { Devnet } from "@/scripts/devnet";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

let devnet: Devnet;
let pub: PublicClient;
let a: Awaited<ReturnType<typeof makeIntegrator>>;
let payer: PrivateKeyAccount;

beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) }) as PublicClient;
}, 60_000);
afterAll(() => stopDevnet(devnet));
afterEach(() => {
  delete process.env.GASLESS_RELAYER_FEE;
  reloadEnv();
});

beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
  await destination("USDC-sepolia");
  // A fresh payer: USDC, no ETH.
  payer = privateKeyToAccount(generatePrivateKey());
  const minter = createWalletClient({
    chain: devnet.chain,
    transport: http(devnet.rpcUrl),
    account: privateKeyToAccount(devnet.accounts.payer.privateKey),
  });
  const hash = await minter.writeContract({
    address: devnet.tokens.USDC,
    abi: compiledContracts.TestUSDC.abi,
    functionName: "mint",
    args: [payer.address, 100_000_000n],
  });
  await pub.waitForTransactionReceipt({ hash });
});

async function destination(currency: string) {
  const dest = await call(createDestination, "/v2/payee-destination", {
    method: "POST",
    headers: { authorization: `Bearer ${await walletSessionToken(a.account.id, devnet.accounts.payee.address)}` },
    json: { currency, walletAddress: devnet.accounts.payee.address },
  });
  expect(dest.status, JSON.stringify(dest.body)).toBe(201);
}

const link = async (json: unknown) => {
  const r = await call(createLink, "/v2/secure-payments", { method: "POST", headers: { "x-client-id": a.clientId }, json });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.token as string;
};
const plan = (token: string, wallet: string) =>
  call(planRoute, `/v2/secure-payments/${token}/gasless?wallet=${wallet}`, { params: { token } });
const submit = (token: string, json: unknown) =>
  call(submitRoute, `/v2/secure-payments/${token}/gasless`, { method: "POST", params: { token }, json });
const balance = (owner: string) =>
  pub.readContract({ address: devnet.tokens.USDC, abi: erc20Abi, functionName: "balanceOf", args: [owner as Hex] });

async function signedBody(token: string, signer: PrivateKeyAccount = payer) {
  const p = await plan(token, payer.address);
  expect(p.status, JSON.stringify(p.body)).toBe(200);
  const td = p.body.typedData;
  const signature = await signer.signTypedData({
    domain: td.domain,
    types: td.types,
    primaryType: td.primaryType,
    message: {
      ...td.message,
      value: BigInt(td.message.value),
      validAfter: BigInt(td.message.validAfter),
      validBefore: BigInt(td.message.validBefore),
    },
  });
  return { plan: p.body, body: { wallet: payer.address, salt: p.body.payment.salt, validBefore: p.body.validBefore, signature } };
}

describe("gasless pay of a link", () => {
  it("a payer with USDC and 0 ETH pays with one signature; fee and relayer fee as planned; detection completes the link and names the signer", async () => {
    await setFeeConfig({
      accountId: a.account.id,
      flow: "get_paid",
      percentageBps: 100,
      capUsd: "5",
      feeBearer: "payer",
      evmAddress: devnet.accounts.feeRecipient.address,
    });
    process.env.GASLESS_RELAYER_FEE = "0.05";
    reloadEnv();
    const token = await link({ requests: [{ amount: "50" }] });
    const { plan: p, body } = await signedBody(token);
    expect(p.amounts).toEqual({ amount: "50", fee: "0.5", relayerFee: "0.05", total: "50.55" });
    expect(p).toMatchObject({ balance: "100", hasEnoughBalance: true });
    expect(p.typedData.message).toMatchObject({ from: payer.address, to: devnet.contracts.gaslessPayments, value: "50550000" });
    const before = { payee: await balance(devnet.accounts.payee.address), fee: await balance(devnet.accounts.feeRecipient.address) };

    const r = await submit(token, body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: "confirmed", replayed: false });
    expect(await pub.getTransactionCount({ address: payer.address })).toBe(0);
    expect(await pub.getBalance({ address: payer.address })).toBe(0n);
    expect((await balance(devnet.accounts.payee.address)) - before.payee).toBe(50_000_000n);
    expect((await balance(devnet.accounts.feeRecipient.address)) - before.fee).toBe(500_000n);
    const row = await db().relayedTransaction.findFirstOrThrow({ where: { txHash: r.body.txHash } });
    expect(row).toMatchObject({ purpose: "gasless_payment", status: "confirmed", accountId: a.account.id, subjectId: r.body.requestId });
    expect(row.gasUsed).toBeGreaterThan(100_000n);

    // The same body again, and a second fresh signature before detection: the first's answer, nothing sent.
    const again = await submit(token, body);
    expect(again.body).toMatchObject({ txHash: r.body.txHash, replayed: true });
    const second = await signedBody(token);
    const other = await submit(token, second.body);
    expect(other.body).toMatchObject({ txHash: r.body.txHash, replayed: true });
    expect((await balance(devnet.accounts.payee.address)) - before.payee).toBe(50_000_000n);

    await sweepDetectionNetwork(evmEventSource("sepolia")!);
    const payments = await db().payment.findMany({ where: { requestId: r.body.requestId } });
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ txHash: r.body.txHash, payer: payer.address, payerEoa: payer.address });
    expect((await db().paymentRequest.findUniqueOrThrow({ where: { id: r.body.requestId } })).status).toBe("paid");
    const after = await plan(token, payer.address);
    expect(after.status).toBe(409);
    expect(JSON.stringify(after.body)).toMatch(/completed|paid/);
    // The very first signature, submitted after detection: refused, no second payment.
    expect((await submit(token, body)).status).toBe(409);
  });

  it("refuses USDT by name (no EIP-3009: it needs gas)", async () => {
    await destination("USDT-sepolia");
    const token = await link({ requests: [{ amount: "5" }] });
    const r = await plan(token, payer.address);
    expect(r.status, JSON.stringify(r.body)).toBe(409);
    expect(r.body.message).toMatch(/USDT .*no EIP-3009.*ETH for gas/);
  });

  it("refuses a foreign signature (400 signature) and an expired plan (400 validBefore); sends nothing", async () => {
    const token = await link({ requests: [{ amount: "5" }] });
    const empty = await plan(token, privateKeyToAccount(generatePrivateKey()).address);
    expect(empty.body).toMatchObject({ balance: "0", hasEnoughBalance: false });
    const foreign = await signedBody(token, privateKeyToAccount(generatePrivateKey()));
    const r = await submit(token, foreign.body);
    expect(r.status).toBe(400);
    expect(r.body.errors[0].field).toBe("signature");
    const { body } = await signedBody(token);
    const expired = await submit(token, { ...body, validBefore: String(Math.floor(Date.now() / 1000) - 5) });
    expect(expired.status).toBe(400);
    expect(expired.body.errors[0].field).toBe("validBefore");
    const unknown = await submit(token, { ...body, extra: 1 });
    expect(unknown.status).toBe(400);
    expect(await db().relayedTransaction.count()).toBe(0);
  });

  it("refuses when the relayer is not configured (409, names the variable)", async () => {
    const token = await link({ requests: [{ amount: "5" }] });
    const key = process.env.SIGNATURE_RELAYER_PRIVATE_KEY;
    delete process.env.SIGNATURE_RELAYER_PRIVATE_KEY;
    reloadEnv();
    try {
      const r = await plan(token, payer.address);
      expect(r.status).toBe(409);
      expect(r.body.message).toMatch(/SIGNATURE_RELAYER_PRIVATE_KEY/);
    } finally {
      process.env.SIGNATURE_RELAYER_PRIVATE_KEY = key;
      reloadEnv();
    }
  });
});
