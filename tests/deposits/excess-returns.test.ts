/**
 * Wrong amounts paid to a link's deposit address (issue 28, "Done when"): on anvil, with Duebill's
 * DuebillDepositAddress (the devnet's DuebillDepositFactory) and Request Network's proxy as the
 * fallback. Over (12 USDC for 10), under (4 of 10 when the link expires) and late (after it expired),
 * each under the three policies: `return` sends the money back to the sender's wallet (read on chain)
 * and writes the relayer's Refund row; `offer` forwards it to the payee and offers a one-click refund
 * (a prepared payee Refund); `keep` forwards it and offers nothing. A sender that is a contract, or
 * several senders, get an offer with a warning instead of an automatic return.
 */
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  parseEventLogs,
  parseUnits,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as createDestination } from "@/app/v2/payee-destination/route";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { POST as depositAddress } from "@/app/v2/secure-payments/[token]/deposit-address/route";
import { GET as pageView } from "@/app/v2/secure-payments/[token]/route";
import { POST as createLink } from "@/app/v2/secure-payments/route";
import { depositAddressAbi } from "@/contracts/generated/abis.generated";
import { compiledContracts } from "@/contracts/generated/artifacts.generated";
import { setAccountExcessPolicy } from "@/lib/accounts/excess-policy";
import { erc20FeeProxyAbi } from "@/lib/chain/abis";
import { resetChainConfig } from "@/lib/chain/config";
import { resetCurrencyRegistry } from "@/lib/currencies/registry";
import { db } from "@/lib/db";
import { RETURN_BLOCKED } from "@/lib/deposits/returns";
import { sweepDeposits } from "@/lib/deposits/sweep";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import { reloadEnv } from "@/lib/env";
import { setFeeConfig } from "@/lib/fees/fee-config";
import type { ExcessPolicy } from "@/lib/generated/prisma/client";
import { refundReferenceOf } from "@/lib/refunds/store";
import { expireAndReconcileSecurePayments } from "@/lib/secure-payments/settle";
import { type Devnet, devAccount } from "@/scripts/devnet";
import { chainTime, moveDevnetClock } from "@/scripts/devnet/time";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

let devnet: Devnet;
let pub: PublicClient;
let a: Awaited<ReturnType<typeof makeIntegrator>>;

beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl), pollingInterval: 20 }) as PublicClient;
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

const USDC = () => devnet.tokens.USDC;
const payer = () => devnet.accounts.payer.address;
const payee = () => devnet.accounts.payee.address;

async function makeLink(amount: string, excessPolicy?: ExcessPolicy) {
  const created = await call(createLink, "/v2/secure-payments", {
    method: "POST",
    headers: { "x-client-id": a.clientId },
    json: { requests: [{ amount }], ...(excessPolicy ? { excessPolicy } : {}) },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { token: created.body.token as string, requestId: created.body.requestIds[0] as string };
}
const depositOf = async (token: string) => {
  const r = await call(depositAddress, `/v2/secure-payments/${token}/deposit-address`, { method: "POST", params: { token } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.address as Address;
};
const view = (token: string) => call(pageView, `/v2/secure-payments/${token}`, { params: { token } });
const requestStatus = (requestId: string) =>
  call(getRequest, `/v2/request/${requestId}`, { headers: { "x-api-key": a.apiKey }, params: { requestId } });
const detect = () => sweepDetectionNetwork(evmEventSource("sepolia")!);
const balance = (owner: string) =>
  pub.readContract({ address: USDC(), abi: erc20Abi, functionName: "balanceOf", args: [owner as Address] });
const walletOf = (key: Hex) =>
  createWalletClient({ account: privateKeyToAccount(key), chain: devnet.chain, transport: http(devnet.rpcUrl), pollingInterval: 20 });

/** A plain ERC-20 transfer, as an exchange withdrawal or any wallet would send it. */
async function transfer(to: string, amount: string, key: Hex = devnet.accounts.payer.privateKey) {
  const hash = await walletOf(key).writeContract({
    address: USDC(),
    abi: erc20Abi,
    functionName: "transfer",
    args: [to as Address, parseUnits(amount, 6)],
  });
  expect((await pub.waitForTransactionReceipt({ hash })).status).toBe("success");
}

/**
 * The link expires `ms` from now on both clocks (the server's, the chain's). Called before the deposit
 * address exists: the contract's closing time is the link's expiry when it is made.
 */
async function expireIn(token: string, ms = 4_000): Promise<number> {
  const at = Math.max(Date.now(), (await chainTime(devnet.rpcUrl)) * 1000) + ms;
  await db().securePayment.update({ where: { token }, data: { expiresAt: new Date(at) } });
  return at;
}
async function passExpiry(at: number) {
  const wait = at + 50 - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  if ((await chainTime(devnet.rpcUrl)) * 1000 <= at)
    await moveDevnetClock(devnet.rpcUrl, { kind: "at", timestamp: Math.floor(at / 1000) + 1 });
  await expireAndReconcileSecurePayments();
}

const refundsOf = (requestId: string) => db().refund.findMany({ where: { requestId }, orderBy: { createdAt: "asc" } });

/** The fee-proxy event of a return's transaction: under the refund reference, to the sender, no fee. */
async function feeProxyEventOf(txHash: string) {
  const receipt = await pub.getTransactionReceipt({ hash: txHash as Hex });
  return parseEventLogs({ abi: erc20FeeProxyAbi, eventName: "TransferWithReferenceAndFee", logs: receipt.logs }).filter(
    (l) => l.address.toLowerCase() === devnet.contracts.erc20FeeProxy.toLowerCase(),
  );
}

describe("an overpaid link (12 USDC for 10) paid to its deposit address", () => {
  it("return: the payee gets exactly what it is owed (and the fee address its fee), the 2 USDC go back to the sender", async () => {
    await setFeeConfig({
      accountId: a.account.id,
      flow: "get_paid",
      percentageBps: 100,
      capUsd: "5",
      feeBearer: "payer",
      evmAddress: devnet.accounts.feeRecipient.address,
    });
    const { token, requestId } = await makeLink("10", "return");
    expect((await view(token)).body).toMatchObject({ excessPolicy: "return", effectiveExcessPolicy: "return", amountLabel: null });
    const addr = await depositOf(token);
    const before = {
      payer: await balance(payer()),
      payee: await balance(payee()),
      fee: await balance(devnet.accounts.feeRecipient.address),
    };
    await transfer(addr, "12.1"); // 10 + the 0.1 fee, and 2 too many

    expect((await sweepDeposits()).sepolia).toEqual({ checked: 1, forwarded: 1, returned: 1 });
    expect(await balance(addr)).toBe(0n);
    expect((await balance(payee())) - before.payee).toBe(10_000_000n);
    expect((await balance(devnet.accounts.feeRecipient.address)) - before.fee).toBe(100_000n);
    // The sender is out of pocket by what the link asked (10 + 0.1 fee), no more: the 2 came back.
    expect(before.payer - (await balance(payer()))).toBe(10_100_000n);

    const [refund, ...more] = await refundsOf(requestId);
    expect(more).toHaveLength(0);
    expect(refund).toMatchObject({ sender: "relayer", reason: "excess", status: "sent", toAddress: payer() });
    expect(refund!.amount.toFixed()).toBe("2000000");
    expect(refund!.refundReference).toBe(refundReferenceOf({ id: requestId, salt: (await requestRow(requestId)).salt }, payer()));
    // On chain: a fee-proxy transfer under the refund reference, to the sender, no fee — what detection records as a refund.
    const [event] = await feeProxyEventOf(refund!.txHash!);
    expect(event!.topics[1]).toBe(keccak256(refund!.refundReference as Hex));
    expect(event!.args).toMatchObject({ to: payer(), amount: 2_000_000n, feeAmount: 0n });

    await detect();
    const status = await requestStatus(requestId);
    expect(status.body).toMatchObject({
      status: "paid",
      totalAmountPaid: "10",
      amountLabel: "over",
      excessAmount: "2",
      returnedAmount: "2",
    });
    expect((await view(token)).body).toMatchObject({ status: "completed", amountLabel: "over", excessAmount: "2", returnedAmount: "2" });
    const confirmed = await db().outboxEvent.findFirstOrThrow({ where: { type: "payment.confirmed", requestId } });
    expect(JSON.parse(confirmed.payload)).toMatchObject({ amountLabel: "over", excessAmount: "2" });
    // Nothing of it reached the payee: nothing to offer; the address is still watched, and empty.
    expect(await db().refund.count({ where: { requestId, sender: "payee" } })).toBe(0);
    expect((await sweepDeposits()).sepolia).toEqual({ checked: 1, forwarded: 0, returned: 0 });

    // A later transfer to the paid link's address is an excess too: returned as well.
    await transfer(addr, "1");
    expect((await sweepDeposits()).sepolia).toEqual({ checked: 1, forwarded: 0, returned: 1 });
    expect(before.payer - (await balance(payer()))).toBe(10_100_000n);
    // returnedAmount counts confirmed returns: once detection recorded it.
    await detect();
    expect((await requestStatus(requestId)).body).toMatchObject({ amountLabel: "over", excessAmount: "3", returnedAmount: "3" });
  }, 90_000);

  it("offer (the account's default): the payee gets 12 and is offered a refund of 2 to the sender, once", async () => {
    const { token, requestId } = await makeLink("10");
    expect((await view(token)).body).toMatchObject({ excessPolicy: null, effectiveExcessPolicy: "offer" });
    const addr = await depositOf(token);
    const before = await balance(payee());
    await transfer(addr, "12");
    expect((await sweepDeposits()).sepolia).toEqual({ checked: 1, forwarded: 1, returned: 0 });
    expect((await balance(payee())) - before).toBe(12_000_000n);
    await detect();
    const [offer, ...more] = await refundsOf(requestId);
    expect(more).toHaveLength(0);
    expect(offer).toMatchObject({ sender: "payee", reason: "excess", status: "prepared", toAddress: payer(), txHash: null, warning: null });
    expect(offer!.amount.toFixed()).toBe("2000000");
    expect((await requestStatus(requestId)).body).toMatchObject({ amountLabel: "over", excessAmount: "2", returnedAmount: "0" });
    const confirmed = await db().outboxEvent.findFirstOrThrow({ where: { type: "payment.confirmed", requestId } });
    expect(JSON.parse(confirmed.payload)).toMatchObject({ totalAmountPaid: "12", amountLabel: "over", excessAmount: "2" });
    // A re-scan from the start records nothing twice and offers nothing twice.
    await db().chainCursor.deleteMany();
    await detect();
    expect(await db().refund.count()).toBe(1);
    expect(await db().payment.count()).toBe(1);
  }, 90_000);

  it("keep: the payee gets 12, nothing is offered; the label still says over", async () => {
    await setAccountExcessPolicy(a.account.id, "keep", "test");
    const { token, requestId } = await makeLink("10");
    expect((await view(token)).body).toMatchObject({ effectiveExcessPolicy: "keep" });
    const addr = await depositOf(token);
    const before = await balance(payee());
    await transfer(addr, "12");
    await sweepDeposits();
    expect((await balance(payee())) - before).toBe(12_000_000n);
    await detect();
    expect(await db().refund.count()).toBe(0);
    expect((await requestStatus(requestId)).body).toMatchObject({ amountLabel: "over", excessAmount: "2" });
  }, 90_000);

  it("return, but several wallets sent: nothing goes back automatically; the payee is offered it with a warning", async () => {
    const other = devAccount(6);
    await mint(other.address, "6");
    const { requestId, token } = await makeLink("10", "return");
    const addr = await depositOf(token);
    await transfer(addr, "6");
    await transfer(addr, "6", other.privateKey);
    expect((await sweepDeposits()).sepolia).toEqual({ checked: 1, forwarded: 1, returned: 0 });
    await detect();
    const [offer] = await refundsOf(requestId);
    expect(offer).toMatchObject({ sender: "payee", reason: "excess", status: "prepared", warning: RETURN_BLOCKED.several });
    expect(offer!.amount.toFixed()).toBe("2000000");
  }, 90_000);

  it("return, but the sender is a contract (a smart wallet, an exchange): forwarded, and offered with a warning", async () => {
    const owner = walletOf(devnet.accounts.payer.privateKey);
    const deployed = await owner.deployContract({
      abi: compiledContracts.TestSmartWallet.abi,
      bytecode: compiledContracts.TestSmartWallet.bytecode as Hex,
      args: [payer()],
    });
    const smart = getAddress((await pub.waitForTransactionReceipt({ hash: deployed })).contractAddress!);
    await mint(smart, "12");
    const { requestId, token } = await makeLink("10", "return");
    const addr = await depositOf(token);
    const hash = await owner.writeContract({
      address: smart,
      abi: compiledContracts.TestSmartWallet.abi,
      functionName: "execute",
      args: [USDC(), encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [addr, 12_000_000n] })],
    });
    await pub.waitForTransactionReceipt({ hash });
    const before = await balance(payee());
    expect((await sweepDeposits()).sepolia).toEqual({ checked: 1, forwarded: 1, returned: 0 });
    expect((await balance(payee())) - before).toBe(12_000_000n);
    await detect();
    const [offer] = await refundsOf(requestId);
    expect(offer).toMatchObject({ reason: "excess", status: "prepared", toAddress: smart, warning: RETURN_BLOCKED.contract });
  }, 90_000);

  it("a return sent before a crash (its Refund row never written) is found on chain, not sent again", async () => {
    const { requestId, token } = await makeLink("10", "return");
    const addr = await depositOf(token);
    await transfer(addr, "12");
    // As the sweep would have done before dying: the payee paid, the 2 sent back, the row not written yet.
    const relayer = walletOf(devnet.accounts.depositRelayer.privateKey);
    await pub.waitForTransactionReceipt({
      hash: await relayer.writeContract({ address: addr, abi: depositAddressAbi, functionName: "forward", args: [10_000_000n] }),
    });
    const reference = refundReferenceOf(await requestRow(requestId), payer());
    const sent = await relayer.writeContract({
      address: addr,
      abi: depositAddressAbi,
      functionName: "giveBack",
      args: [payer(), 2_000_000n, reference],
    });
    await pub.waitForTransactionReceipt({ hash: sent });
    await db().depositAddress.update({ where: { requestId }, data: { pendingReturn: "excess" } });
    const before = await balance(payer());

    expect((await sweepDeposits()).sepolia).toEqual({ checked: 1, forwarded: 0, returned: 0 });
    const [refund, ...more] = await refundsOf(requestId);
    expect(more).toHaveLength(0);
    // Recorded from its receipt at once (detection's cursor may be past its block): confirmed.
    expect(refund).toMatchObject({ sender: "relayer", reason: "excess", status: "confirmed", txHash: sent, toAddress: payer() });
    expect(await balance(payer())).toBe(before);
    expect((await db().depositAddress.findUniqueOrThrow({ where: { requestId } })).pendingReturn).toBeNull();
  }, 90_000);
});

describe("a link that expires short (4 of 10 at its deposit address)", () => {
  it("return: the 4 go back to the sender once the link has expired; labelled under", async () => {
    const { token, requestId } = await makeLink("10", "return");
    const at = await expireIn(token);
    const addr = await depositOf(token);
    const before = await balance(payer());
    await transfer(addr, "4");
    // Still open: a short balance waits for the rest.
    expect((await sweepDeposits()).sepolia).toEqual({ checked: 1, forwarded: 0, returned: 0 });
    await passExpiry(at);
    expect((await sweepDeposits()).sepolia).toEqual({ checked: 1, forwarded: 0, returned: 1 });
    expect(await balance(payer())).toBe(before);
    const [refund] = await refundsOf(requestId);
    expect(refund).toMatchObject({ sender: "relayer", reason: "underpaid", status: "sent", toAddress: payer() });
    expect(refund!.amount.toFixed()).toBe("4000000");
    await detect();
    expect((await view(token)).body).toMatchObject({ status: "expired", amountLabel: "under", excessAmount: "0", returnedAmount: "4" });
    expect((await requestStatus(requestId)).body).toMatchObject({ status: "pending", amountLabel: "under", returnedAmount: "4" });
  }, 90_000);

  it("offer: the 4 are forwarded to the payee, who is offered them back", async () => {
    const { token, requestId } = await makeLink("10");
    const at = await expireIn(token);
    const addr = await depositOf(token);
    const before = await balance(payee());
    await transfer(addr, "4");
    await passExpiry(at);
    expect((await sweepDeposits()).sepolia).toEqual({ checked: 1, forwarded: 1, returned: 0 });
    expect((await balance(payee())) - before).toBe(4_000_000n);
    await detect();
    const [offer, ...more] = await refundsOf(requestId);
    expect(more).toHaveLength(0);
    expect(offer).toMatchObject({ sender: "payee", reason: "underpaid", status: "prepared", toAddress: payer() });
    expect(offer!.amount.toFixed()).toBe("4000000");
    // The forward's block time is after the expiry, but the money reached the address in time: under, not late.
    expect((await view(token)).body).toMatchObject({ status: "expired", amountLabel: "under" });
    expect((await requestStatus(requestId)).body).toMatchObject({ status: "partially_paid", amountLabel: "under", totalAmountPaid: "4" });
  }, 90_000);
});

describe("a payment after the link expired (late) to its deposit address", () => {
  it("return: the whole late payment goes back; the link stays expired, labelled late", async () => {
    const { token, requestId } = await makeLink("10", "return");
    const at = await expireIn(token);
    const addr = await depositOf(token);
    await passExpiry(at);
    const before = await balance(payer());
    await transfer(addr, "10");
    expect((await sweepDeposits()).sepolia).toEqual({ checked: 1, forwarded: 0, returned: 1 });
    expect(await balance(payer())).toBe(before);
    const [refund] = await refundsOf(requestId);
    expect(refund).toMatchObject({ sender: "relayer", reason: "late", status: "sent" });
    expect(refund!.amount.toFixed()).toBe("10000000");
    expect((await view(token)).body).toMatchObject({ status: "expired", amountLabel: "late", returnedAmount: "10" });
  }, 90_000);

  it("offer: forwarded to the payee and recorded on the request; the link stays expired; the whole late amount is offered", async () => {
    const { token, requestId } = await makeLink("10");
    const at = await expireIn(token);
    const addr = await depositOf(token);
    await passExpiry(at);
    const before = await balance(payee());
    await transfer(addr, "10");
    expect((await sweepDeposits()).sepolia).toEqual({ checked: 1, forwarded: 1, returned: 0 });
    expect((await balance(payee())) - before).toBe(10_000_000n);
    await detect();
    await expireAndReconcileSecurePayments();
    expect((await requestStatus(requestId)).body).toMatchObject({ status: "paid", amountLabel: "late", totalAmountPaid: "10" });
    expect((await view(token)).body).toMatchObject({ status: "expired", amountLabel: "late" });
    const [offer] = await refundsOf(requestId);
    expect(offer).toMatchObject({ sender: "payee", reason: "late", status: "prepared", toAddress: payer() });
    expect(offer!.amount.toFixed()).toBe("10000000");
    const confirmed = await db().outboxEvent.findFirstOrThrow({ where: { type: "payment.confirmed", requestId } });
    expect(JSON.parse(confirmed.payload)).toMatchObject({ amountLabel: "late", excessAmount: "0" });
  }, 90_000);
});

describe("where Duebill's deposit factory is not deployed (production chains today)", () => {
  it("deposit addresses are Request Network's proxies: `return` reads `offer`, and the excess is offered", async () => {
    const config = JSON.parse(process.env.CHAIN_CONFIG!);
    process.env.CHAIN_CONFIG = JSON.stringify({
      sepolia: { ...config.sepolia, contracts: { ...config.sepolia.contracts, depositFactory: null } },
    });
    reloadEnv();
    resetChainConfig();
    resetCurrencyRegistry();
    try {
      const { token, requestId } = await makeLink("10", "return");
      expect((await view(token)).body).toMatchObject({ excessPolicy: "return", effectiveExcessPolicy: "offer" });
      const addr = await depositOf(token);
      expect(await db().depositAddress.findUniqueOrThrow({ where: { requestId } })).toMatchObject({
        contract: "request_network",
        factoryAddress: devnet.contracts.singleRequestProxyFactory,
      });
      const before = await balance(payee());
      await transfer(addr, "12");
      expect((await sweepDeposits()).sepolia).toEqual({ checked: 1, forwarded: 1, returned: 0 });
      expect((await balance(payee())) - before).toBe(12_000_000n);
      await detect();
      const [offer] = await refundsOf(requestId);
      expect(offer).toMatchObject({ sender: "payee", reason: "excess", status: "prepared", toAddress: payer() });
      expect((await requestStatus(requestId)).body).toMatchObject({ amountLabel: "over", excessAmount: "2" });
    } finally {
      process.env.CHAIN_CONFIG = JSON.stringify(config);
      reloadEnv();
      resetChainConfig();
      resetCurrencyRegistry();
    }
  }, 90_000);
});

/**
 * Needs the refunds lane's detection of refund transfers (recordRefundTransfer: a fee-proxy transfer
 * under a Refund's reference confirms it and writes payment.refunded). Until that is merged this test
 * fails at the `confirmed` assertion, and only there.
 */
describe("detection of the relayer's return (with the refunds lane's recordRefundTransfer)", () => {
  it("confirms the returned excess: the Refund row reads confirmed, payment.refunded is written, amountRefunded unchanged", async () => {
    const { token, requestId } = await makeLink("10", "return");
    const addr = await depositOf(token);
    await transfer(addr, "12");
    await sweepDeposits();
    await detect();
    const [refund] = await refundsOf(requestId);
    expect(refund).toMatchObject({ sender: "relayer", reason: "excess", status: "confirmed" });
    expect(refund!.logIndex).not.toBeNull();
    expect(await db().outboxEvent.count({ where: { type: "payment.refunded", requestId } })).toBe(1);
    // Returned money never reached the payee: it is not a refund of the payee's (amountRefunded counts those only).
    expect((await requestRow(requestId)).amountRefunded.toFixed()).toBe("0");
  }, 90_000);
});

const requestRow = (id: string) => db().paymentRequest.findUniqueOrThrow({ where: { id } });

/** The devnet's test tokens let anyone mint. */
async function mint(to: string, amount: string) {
  const hash = await walletOf(devnet.accounts.payer.privateKey).writeContract({
    address: USDC(),
    abi: compiledContracts.TestUSDC.abi,
    functionName: "mint",
    args: [to as Address, parseUnits(amount, 6)],
  });
  await pub.waitForTransactionReceipt({ hash });
}
