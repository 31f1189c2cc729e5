/**
 * lib/relayer/relay.ts on anvil: a payer's EIP-3009 authorization (signed with viem's signTypedData, the
 * token checks it with ecrecover) submitted through relay() moves the tokens once; five concurrent relays
 * of one key make one transaction and five identical answers; a call that would revert is never
 * broadcast (the relayer's nonce does not move); gas is accounted on the row.
 */
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  toHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { compiledContracts } from "@/contracts/generated/artifacts.generated";
import { db } from "@/lib/db";
import { authorizationDomain, EIP3009_TYPES, recoverRelayed, relay, tokenAuthorizations } from "@/lib/relayer";
import type { Devnet } from "@/scripts/devnet";
import { resetDb } from "../helpers/db";
import { stopDevnet, useDevnet } from "../helpers/devnet-env";

let devnet: Devnet;
let pub: PublicClient;
beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) });
}, 60_000);
afterAll(() => stopDevnet(devnet));
beforeEach(resetDb);

const usdc = compiledContracts.TestUSDC.abi;
const balance = (owner: Address) =>
  pub.readContract({ address: devnet.tokens.USDC, abi: erc20Abi, functionName: "balanceOf", args: [owner] });

async function signedTransfer(value: bigint, nonce: Hex) {
  const payer = privateKeyToAccount(devnet.accounts.payer.privateKey);
  const domain = await authorizationDomain("sepolia", devnet.tokens.USDC);
  if (!domain) throw new Error("no domain");
  const message = {
    from: payer.address,
    to: devnet.accounts.payee.address,
    value,
    validAfter: 0n,
    validBefore: BigInt(Math.floor(Date.now() / 1000) + 3600),
    nonce,
  };
  const signature = await payer.signTypedData({ domain, types: EIP3009_TYPES, primaryType: "TransferWithAuthorization", message });
  return encodeFunctionData({
    abi: usdc,
    functionName: "transferWithAuthorization",
    args: [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce, signature],
  });
}

describe("relay", () => {
  it("reads the devnet USDC's capabilities and domain from the chain data and the token", async () => {
    expect(tokenAuthorizations("sepolia", devnet.tokens.USDC)).toEqual({ eip3009: true, eip2612: true, domainVersion: "2" });
    expect(tokenAuthorizations("sepolia", devnet.tokens.USDT)).toBeNull();
    expect(await authorizationDomain("sepolia", devnet.tokens.USDC)).toMatchObject({
      name: "Test USD Coin",
      version: "2",
      chainId: devnet.chainId,
    });
  });

  it("submits one authorization once for five concurrent callers, with the same answer", async () => {
    const nonce = toHex(crypto.getRandomValues(new Uint8Array(32)));
    const data = await signedTransfer(1_500_000n, nonce);
    const before = await balance(devnet.accounts.payee.address);
    const input = { network: "sepolia" as const, to: devnet.tokens.USDC, data, idempotencyKey: `test:${nonce}`, purpose: "test" };
    const results = await Promise.all(Array.from({ length: 5 }, () => relay(input)));
    expect(new Set(results.map((r) => r.txHash)).size).toBe(1);
    expect(results.every((r) => r.status === "confirmed")).toBe(true);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect((await balance(devnet.accounts.payee.address)) - before).toBe(1_500_000n);
    const row = await db().relayedTransaction.findUniqueOrThrow({ where: { idempotencyKey: input.idempotencyKey } });
    expect(row.gasUsed).toBeGreaterThan(21_000n);
    expect(BigInt(row.costWei!.toFixed(0))).toBe(row.gasUsed! * BigInt(row.effectiveGasPrice!.toFixed(0)));
  });

  it("never broadcasts a reused authorization (the simulation reverts; the relayer's nonce stays)", async () => {
    const nonce = toHex(crypto.getRandomValues(new Uint8Array(32)));
    const data = await signedTransfer(1n, nonce);
    const first = await relay({ network: "sepolia", to: devnet.tokens.USDC, data, idempotencyKey: `a:${nonce}`, purpose: "test" });
    expect(first.status).toBe("confirmed");
    const relayer = devnet.accounts.signatureRelayer.address;
    const txCount = await pub.getTransactionCount({ address: relayer });
    const second = await relay({ network: "sepolia", to: devnet.tokens.USDC, data, idempotencyKey: `b:${nonce}`, purpose: "test" });
    expect(second.status).toBe("failed");
    expect(second.error).toMatch(/authorization is used or canceled/);
    expect(await pub.getTransactionCount({ address: relayer })).toBe(txCount);
  });

  it("recovers a transaction a crash left signed but never broadcast: the same bytes go out once, the receipt is recorded", async () => {
    const nonce = toHex(crypto.getRandomValues(new Uint8Array(32)));
    const data = await signedTransfer(2_000_000n, nonce);
    const account = privateKeyToAccount(devnet.accounts.signatureRelayer.privateKey);
    const wallet = createWalletClient({ account, chain: devnet.chain, transport: http(devnet.rpcUrl) });
    const request = await wallet.prepareTransactionRequest({ to: devnet.tokens.USDC, data, gas: 200_000n });
    const raw = await wallet.signTransaction(request);
    const txHash = keccak256(raw);
    // The state relay() commits right before broadcasting; the process died there.
    await db().relayedTransaction.create({
      data: {
        id: "rtx_crashed",
        idempotencyKey: `crash:${nonce}`,
        network: "sepolia",
        relayer: account.address,
        purpose: "test",
        to: devnet.tokens.USDC,
        data,
        status: "signed",
        txHash,
        rawTx: raw,
      },
    });
    const stale = () =>
      db().$executeRaw`UPDATE "RelayedTransaction" SET "updatedAt" = now() - interval '2 minutes' WHERE id = 'rtx_crashed'`;
    await stale();
    const before = await balance(devnet.accounts.payee.address);
    expect(await recoverRelayed(60_000)).toBe(1);
    expect((await db().relayedTransaction.findUniqueOrThrow({ where: { id: "rtx_crashed" } })).status).toBe("submitted");
    await pub.waitForTransactionReceipt({ hash: txHash });
    await stale();
    await recoverRelayed(60_000);
    const row = await db().relayedTransaction.findUniqueOrThrow({ where: { id: "rtx_crashed" } });
    expect(row).toMatchObject({ status: "confirmed", txHash, rawTx: null });
    expect((await balance(devnet.accounts.payee.address)) - before).toBe(2_000_000n);
    // A caller of the same key now gets that answer, and nothing is sent again.
    const again = await relay({ network: "sepolia", to: devnet.tokens.USDC, data, idempotencyKey: `crash:${nonce}`, purpose: "test" });
    expect(again).toMatchObject({ status: "confirmed", txHash, replayed: true });
  });
});
