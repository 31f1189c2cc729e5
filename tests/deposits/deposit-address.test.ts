/**
 * Paying a link without connecting a wallet: the request's deposit address (Duebill's DuebillDepositAddress,
 * the devnet's DuebillDepositFactory; Request Network's ERC20SingleRequestProxy where it is not configured:
 * tests/deposits/excess-returns.test.ts) takes a plain token transfer; the deposit sweep forwards it through the ERC20FeeProxy with the reference, and
 * detection records it as the depositor's payment.
 */
import { createPublicClient, createWalletClient, erc20Abi, http, type PublicClient, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as createDestination } from "@/app/v2/payee-destination/route";
import { POST as depositAddress } from "@/app/v2/secure-payments/[token]/deposit-address/route";
import { GET as pageView } from "@/app/v2/secure-payments/[token]/route";
import { POST as createPayoutLink } from "@/app/v2/secure-payments/payouts/route";
import { POST as createLink } from "@/app/v2/secure-payments/route";
import { setAccountBrand } from "@/lib/accounts/issue-credentials";
import { db } from "@/lib/db";
import { sweepDeposits } from "@/lib/deposits/sweep";
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

beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) }) as PublicClient;
}, 60_000);
afterAll(() => stopDevnet(devnet));

beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
  const dest = await call(createDestination, "/v2/payee-destination", {
    method: "POST",
    headers: { authorization: `Bearer ${await walletSessionToken(a.account.id, devnet.accounts.payee.address)}` },
    json: { currency: "USDC-sepolia", walletAddress: devnet.accounts.payee.address },
  });
  expect(dest.status).toBe(201);
});

const link = (json: unknown) => call(createLink, "/v2/secure-payments", { method: "POST", headers: { "x-client-id": a.clientId }, json });
const deposit = (token: string) =>
  call(depositAddress, `/v2/secure-payments/${token}/deposit-address`, { method: "POST", params: { token } });
const view = (token: string) => call(pageView, `/v2/secure-payments/${token}`, { params: { token } });

/** A plain ERC-20 transfer, as an exchange withdrawal or any wallet would send it. */
async function transfer(to: string, amount: string) {
  const wallet = createWalletClient({
    account: privateKeyToAccount(devnet.accounts.payer.privateKey),
    chain: devnet.chain,
    transport: http(devnet.rpcUrl),
  });
  const hash = await wallet.writeContract({
    address: devnet.tokens.USDC,
    abi: erc20Abi,
    functionName: "transfer",
    args: [to as `0x${string}`, parseUnits(amount, 6)],
  });
  await pub.waitForTransactionReceipt({ hash });
}

const balance = (owner: string) =>
  pub.readContract({ address: devnet.tokens.USDC, abi: erc20Abi, functionName: "balanceOf", args: [owner as `0x${string}`] });

describe("deposit addresses", () => {
  it("a plain transfer to the deposit address pays the link; the payment is the depositor's, the fee leg goes to the fee address", async () => {
    await setFeeConfig({
      accountId: a.account.id,
      flow: "get_paid",
      percentageBps: 100,
      capUsd: "5",
      feeBearer: "payer",
      evmAddress: devnet.accounts.feeRecipient.address,
    });
    const created = await link({
      requests: [{ amount: "50" }],
      description: "Order #1042",
      lineItems: [{ description: "Widget", quantity: 2, unitAmount: "25" }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const token = created.body.token as string;
    expect((await view(token)).body.checkout).toMatchObject({
      payByTransfer: true,
      description: "Order #1042",
      lineItems: [{ description: "Widget", quantity: 2, total: "50" }],
    });

    // Five concurrent first calls: one deployment, one address.
    const first = await Promise.all(Array.from({ length: 5 }, () => deposit(token)));
    for (const r of first) expect(r.status, JSON.stringify(r.body)).toBe(200);
    const addr = first[0]!.body.address as string;
    expect(new Set(first.map((r) => r.body.address))).toEqual(new Set([addr]));
    expect(await db().depositAddress.count()).toBe(1);
    expect(first[0]!.body).toMatchObject({
      amount: "50.5",
      amountUnits: "50500000",
      received: "0",
      remaining: "50.5",
      network: { chainId: devnet.chainId },
    });
    expect(first[0]!.body.uri).toBe(`ethereum:${devnet.tokens.USDC}@${devnet.chainId}/transfer?address=${addr}&uint256=50500000`);
    expect(first[0]!.body.qrSvg).toMatch(/^<svg /);

    const payeeBefore = await balance(devnet.accounts.payee.address);
    const feeBefore = await balance(devnet.accounts.feeRecipient.address);
    await transfer(addr, "50.5");
    expect((await deposit(token)).body).toMatchObject({ received: "50.5", remaining: "0" });
    expect((await sweepDeposits()).sepolia).toEqual({ checked: 1, forwarded: 1, returned: 0 });
    expect(await balance(addr)).toBe(0n);
    expect((await balance(devnet.accounts.payee.address)) - payeeBefore).toBe(50_000_000n);
    expect((await balance(devnet.accounts.feeRecipient.address)) - feeBefore).toBe(500_000n);

    await sweepDetectionNetwork(evmEventSource("sepolia")!);
    const [requestId] = created.body.requestIds;
    const payment = await db().payment.findFirstOrThrow({ where: { requestId } });
    expect(payment.payer).toBe(devnet.accounts.payer.address);
    const after = await view(token);
    expect(after.body.checkout).toMatchObject({ status: "completed", payerAddress: devnet.accounts.payer.address });
    expect(await db().outboxEvent.count({ where: { type: "payment.confirmed", requestId } })).toBe(1);
    // Nothing left to forward; a paid link has no deposit to show. Its (Duebill) deposit address is still watched:
    // a transfer after the payment is an excess, sent back or offered under the link's policy.
    expect((await sweepDeposits()).sepolia).toEqual({ checked: 1, forwarded: 0, returned: 0 });
    expect((await deposit(token)).status).toBe(409);
  }, 60_000);

  it("a short transfer waits for the rest; the whole amount is forwarded once", async () => {
    const created = await link({ requests: [{ amount: "10" }] });
    const token = created.body.token as string;
    const addr = (await deposit(token)).body.address as string;
    await transfer(addr, "4");
    expect((await deposit(token)).body).toMatchObject({ received: "4", remaining: "6" });
    expect((await sweepDeposits()).sepolia).toEqual({ checked: 1, forwarded: 0, returned: 0 });
    await transfer(addr, "6");
    expect((await sweepDeposits()).sepolia).toEqual({ checked: 1, forwarded: 1, returned: 0 });
    await sweepDetectionNetwork(evmEventSource("sepolia")!);
    expect((await view(token)).body.status).toBe("completed");
    expect(await db().payment.count()).toBe(1);
  }, 60_000);

  it("a deployment sent before a crash is picked up, not sent again", async () => {
    const created = await link({ requests: [{ amount: "2" }] });
    const token = created.body.token as string;
    const addr = (await deposit(token)).body.address as string;
    const row = await db().depositAddress.findFirstOrThrow();
    // As if the process died after sending the deployment: the address was never stored, the lease ran out.
    await db().depositAddress.update({ where: { requestId: row.requestId }, data: { address: null, leaseUntil: new Date(0) } });
    const again = await deposit(token);
    expect(again.body.address).toBe(addr);
    expect((await db().depositAddress.findFirstOrThrow()).deployTxHash).toBe(row.deployTxHash);
  }, 60_000);

  it("says why a link has no deposit address: batch, payout link, no deposit relayer", async () => {
    const batch = await link({ requests: [{ amount: "1" }, { amount: "2" }] });
    expect((await view(batch.body.token)).body.checkout.payByTransfer).toBe(false);
    const b = await deposit(batch.body.token);
    expect(b.status).toBe(409);
    expect(b.body.message).toMatch(/several payments/);

    const payout = await call(createPayoutLink, "/v2/secure-payments/payouts", {
      method: "POST",
      headers: { "x-client-id": a.clientId },
      json: {
        recipient: devnet.accounts.payee.address,
        creatorWalletAddress: devnet.accounts.payer.address,
        network: "sepolia",
        currency: "USDC-sepolia",
        amount: "1",
      },
    });
    expect((await deposit(payout.body.token)).status).toBe(409);
    expect((await deposit("01JUNKJUNKJUNKJUNKJUNKJUNK")).status).toBe(404);

    const single = await link({ requests: [{ amount: "1" }] });
    const key = process.env.DEPOSIT_RELAYER_PRIVATE_KEY;
    delete process.env.DEPOSIT_RELAYER_PRIVATE_KEY;
    reloadEnv();
    try {
      expect((await view(single.body.token)).body.checkout.payByTransfer).toBe(false);
      const r = await deposit(single.body.token);
      expect(r.status).toBe(409);
      expect(r.body.message).toMatch(/DEPOSIT_RELAYER_PRIVATE_KEY/);
    } finally {
      process.env.DEPOSIT_RELAYER_PRIVATE_KEY = key;
      reloadEnv();
    }
  });

  it("the page names the merchant with the account's logo; only https logos are accepted", async () => {
    await setAccountBrand(a.account.id, { name: "Acme Studio", logoUrl: "https://cdn.acme.example/logo.png" });
    const created = await link({ requests: [{ amount: "1" }] });
    expect((await view(created.body.token)).body.checkout.merchant).toMatchObject({
      name: "Acme Studio",
      logoUrl: "https://cdn.acme.example/logo.png",
    });
    await expect(setAccountBrand(a.account.id, { logoUrl: "http://cdn.acme.example/logo.png" })).rejects.toMatchObject({
      errors: [{ field: "logoUrl" }],
    });
  });

  it("line items must add up to the link's amount", async () => {
    const r = await link({ requests: [{ amount: "10" }], lineItems: [{ description: "A", unitAmount: "3", quantity: 3 }] });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].field).toBe("lineItems");
  });
});
