/**
 * KYT results name the wallet type from the code at the address (issue 24, item 8): a contract
 * that pays a link is a `smart_account`; a plain key is an `eoa`; an EIP-7702-delegated EOA (its
 * code is the delegation designator 0xef0100 || delegate, per the EIP) stays an `eoa`. On anvil:
 * a deployed contract pays a link (impersonated, as a smart account's own call would reach the
 * fee proxy), a real type-4 transaction delegates an EOA.
 */
import { createPublicClient, createTestClient, createWalletClient, erc20Abi, getAddress, http, type PublicClient, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as createDestination } from "@/app/v2/payee-destination/route";
import { GET as payLink } from "@/app/v2/secure-payments/[token]/pay/route";
import { POST as createLink, GET as getSecurePayment } from "@/app/v2/secure-payments/route";
import { createSession } from "@/lib/auth/sessions";
import { resetChainConfig } from "@/lib/chain/config";
import { db } from "@/lib/db";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import { reloadEnv } from "@/lib/env";
import { prefixedId } from "@/lib/ids";
import { screenWallet } from "@/lib/kyt/screen";
import type { Devnet } from "@/scripts/devnet";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

/** Init code returning a one-byte runtime (STOP): PUSH1 1 PUSH1 12 PUSH1 0 CODECOPY PUSH1 1 PUSH1 0 RETURN | 00. */
const TINY_CONTRACT = "0x6001600c60003960016000f300";

let devnet: Devnet;
let pub: PublicClient;
let contract: `0x${string}`;
let a: Awaited<ReturnType<typeof makeIntegrator>>;
let session: string;

beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) }) as PublicClient;
  const deployer = createWalletClient({
    account: privateKeyToAccount(devnet.accounts.deployer.privateKey),
    chain: devnet.chain,
    transport: http(devnet.rpcUrl),
  });
  const receipt = await pub.waitForTransactionReceipt({ hash: await deployer.deployContract({ abi: [], bytecode: TINY_CONTRACT }) });
  contract = getAddress(receipt.contractAddress!);
}, 60_000);
afterAll(() => stopDevnet(devnet));
beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
  const user = await db().user.create({
    data: { id: prefixedId("usr_"), accountId: a.account.id, email: `${prefixedId("u")}@example.com` },
  });
  session = (await createSession(user, "email")).token;
  const dest = await call(createDestination, "/v2/payee-destination", {
    method: "POST",
    headers: { authorization: `Bearer ${await walletSessionToken(a.account.id, devnet.accounts.payee.address)}` },
    json: { currency: "USDC-sepolia", walletAddress: devnet.accounts.payee.address },
  });
  expect(dest.status, JSON.stringify(dest.body)).toBe(201);
});

describe("KYT walletType from the code at the address", () => {
  it("a deployed contract pays a link: its payer KYT result says smart_account", async () => {
    expect(await pub.getCode({ address: contract })).toBe("0x00");
    const created = await call(createLink, "/v2/secure-payments", {
      method: "POST",
      headers: { "x-client-id": a.clientId },
      json: { requests: [{ amount: "2" }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const token = created.body.token as string;
    // The contract holds USDC and gas, and sends the page's plan itself (anvil impersonation).
    const test = createTestClient({ mode: "anvil", chain: devnet.chain, transport: http(devnet.rpcUrl) });
    await test.setBalance({ address: contract, value: parseEther("1") });
    await test.impersonateAccount({ address: contract });
    const payer = createWalletClient({ account: devnet.accounts.payer.address, chain: devnet.chain, transport: http(devnet.rpcUrl) });
    await pub.waitForTransactionReceipt({
      hash: await payer.writeContract({
        account: privateKeyToAccount(devnet.accounts.payer.privateKey),
        address: devnet.tokens.USDC,
        abi: erc20Abi,
        functionName: "transfer",
        args: [contract, 5_000_000n],
      }),
    });
    const plan = await call(payLink, `/v2/secure-payments/${token}/pay?wallet=${contract}`, { params: { token } });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    const asContract = createWalletClient({ account: contract, chain: devnet.chain, transport: http(devnet.rpcUrl) });
    for (const tx of plan.body.transactions)
      expect((await pub.waitForTransactionReceipt({ hash: await asContract.sendTransaction({ to: tx.to, data: tx.data }) })).status).toBe(
        "success",
      );
    await test.stopImpersonatingAccount({ address: contract });
    await sweepDetectionNetwork(evmEventSource("sepolia")!);

    const sp = await call(getSecurePayment, `/v2/secure-payments?requestId=${created.body.requestIds[0]}`, {
      headers: { authorization: `Bearer ${session}` },
    });
    expect(sp.body).toMatchObject({ status: "completed", payerAddress: contract });
    expect(sp.body.payerKytResults).toEqual([
      expect.objectContaining({ walletAddress: contract, walletType: "smart_account", status: "approved" }),
    ]);
  });

  it("a plain key is an eoa; an EIP-7702-delegated key (code 0xef0100 || delegate) stays an eoa", async () => {
    const plain = await screenWallet(devnet.accounts.payer.address, "sepolia", null, "payer");
    expect(plain).toMatchObject({ walletType: "eoa", status: "approved" });

    // A fresh key delegates to the deployed contract with a real type-4 transaction.
    const key = privateKeyToAccount(generatePrivateKey());
    const test = createTestClient({ mode: "anvil", chain: devnet.chain, transport: http(devnet.rpcUrl) });
    await test.setBalance({ address: key.address, value: parseEther("1") });
    const wallet = createWalletClient({ account: key, chain: devnet.chain, transport: http(devnet.rpcUrl) });
    const authorization = await wallet.signAuthorization({ contractAddress: contract, executor: "self" });
    const hash = await wallet.sendTransaction({ to: key.address, data: "0x", authorizationList: [authorization] });
    expect((await pub.waitForTransactionReceipt({ hash })).status).toBe("success");
    const code = await pub.getCode({ address: key.address });
    expect(code?.toLowerCase()).toBe(`0xef0100${contract.slice(2).toLowerCase()}`);

    expect(await screenWallet(key.address, "sepolia", null, "payer")).toMatchObject({ walletType: "eoa" });
    expect(await screenWallet(contract, "sepolia", null, "payer")).toMatchObject({ walletType: "smart_account" });
    // The access policy's own rejection carries the type too.
    expect(await screenWallet(contract, "sepolia", { mode: "off", allowedPayerAddresses: [key.address] }, "payer")).toMatchObject({
      walletType: "smart_account",
      reasonCode: "payer_not_allowed",
    });
  });

  it("a chain that does not answer fails the screen (503), never guesses eoa", async () => {
    const saved = process.env.CHAIN_CONFIG;
    process.env.CHAIN_CONFIG = JSON.stringify({ ...JSON.parse(saved ?? "{}"), base: { rpcUrl: "http://127.0.0.1:9" } });
    reloadEnv();
    resetChainConfig();
    try {
      await expect(screenWallet(devnet.accounts.payer.address, "base", null, "payer")).rejects.toMatchObject({
        code: "upstream_unavailable",
      });
    } finally {
      process.env.CHAIN_CONFIG = saved;
      reloadEnv();
      resetChainConfig();
    }
  });
});
