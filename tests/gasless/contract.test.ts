/**
 * contracts/src/DuebillGaslessPayments.sol on anvil, one test per rule. The oracles are the chain's: the
 * token's own EIP-3009 checks (ecrecover over its DOMAIN_SEPARATOR), the fee proxy's event, balances, and
 * the contract's paymentNonce() against lib/gasless's (two implementations of one hash, Solidity and TS).
 * Gas per payment is printed (the guide's figure).
 */
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  parseEventLogs,
  parseSignature,
  toFunctionSelector,
  toHex,
} from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compiledContracts } from "@/contracts/generated/artifacts.generated";
import { erc20FeeProxyAbi } from "@/lib/chain/abis";
import { type GaslessAuthorization, type GaslessPayment, paymentNonce, receiveTypedData } from "@/lib/gasless/terms";
import { authorizationDomain } from "@/lib/relayer";
import type { Devnet } from "@/scripts/devnet";
import { stopDevnet, useDevnet } from "../helpers/devnet-env";

const gaslessAbi = compiledContracts.DuebillGaslessPayments.abi;
const usdcAbi = compiledContracts.TestUSDC.abi;
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

let devnet: Devnet;
let pub: PublicClient;
let payer: PrivateKeyAccount;
let submitter: ReturnType<typeof createWalletClient>;
beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) });
  submitter = createWalletClient({
    chain: devnet.chain,
    transport: http(devnet.rpcUrl),
    account: privateKeyToAccount(devnet.accounts.relayer.privateKey),
  });
  // A payer with USDC and no ETH at all.
  payer = privateKeyToAccount(generatePrivateKey());
  const hash = await submitter.writeContract({
    address: devnet.tokens.USDC,
    abi: usdcAbi,
    functionName: "mint",
    args: [payer.address, 1_000_000_000n],
    chain: devnet.chain,
    account: submitter.account!,
  });
  await pub.waitForTransactionReceipt({ hash });
}, 60_000);
afterAll(() => stopDevnet(devnet));

const balance = (owner: Address) =>
  pub.readContract({ address: devnet.tokens.USDC, abi: erc20Abi, functionName: "balanceOf", args: [owner] });
const now = async () => (await pub.getBlock()).timestamp;

function paymentFor(overrides: Partial<GaslessPayment> = {}): GaslessPayment {
  return {
    token: devnet.tokens.USDC,
    from: payer.address,
    payee: devnet.accounts.payee.address,
    amount: 10_000_000n,
    feeAddress: devnet.accounts.feeRecipient.address,
    feeAmount: 100_000n,
    relayerFeeAddress: devnet.accounts.signatureRelayer.address,
    relayerFee: 20_000n,
    paymentReference: "0x0123456789abcdef",
    salt: toHex(crypto.getRandomValues(new Uint8Array(32))),
    ...overrides,
  };
}

async function signed(p: GaslessPayment, a: Partial<GaslessAuthorization> = {}, signer: PrivateKeyAccount = payer) {
  const auth: GaslessAuthorization = {
    validAfter: 0n,
    validBefore: (await now()) + 3600n,
    nonce: paymentNonce(devnet.chainId, devnet.contracts.gaslessPayments, p),
    ...a,
  };
  const domain = (await authorizationDomain("sepolia", devnet.tokens.USDC))!;
  const signature = await signer.signTypedData(receiveTypedData(domain, devnet.contracts.gaslessPayments, p, auth));
  const r = `0x${signature.slice(2, 66)}` as Hex;
  const s = `0x${signature.slice(66, 130)}` as Hex;
  const v = Number.parseInt(signature.slice(130, 132), 16);
  return { ...auth, v, r, s };
}

type Auth = Awaited<ReturnType<typeof signed>>;
const simulate = (p: GaslessPayment, a: Auth) =>
  pub.simulateContract({
    address: devnet.contracts.gaslessPayments,
    abi: gaslessAbi,
    functionName: "pay",
    args: [p, a],
    account: submitter.account!,
  });

async function pay(p: GaslessPayment, a: Auth) {
  const { request } = await simulate(p, a);
  const hash = await submitter.writeContract(request);
  return pub.waitForTransactionReceipt({ hash });
}

describe("DuebillGaslessPayments", () => {
  it("computes the same nonce as lib/gasless (Solidity and TypeScript hash the same fields)", async () => {
    const p = paymentFor();
    const onChain = await pub.readContract({
      address: devnet.contracts.gaslessPayments,
      abi: gaslessAbi,
      functionName: "paymentNonce",
      args: [p],
    });
    expect(onChain).toBe(paymentNonce(devnet.chainId, devnet.contracts.gaslessPayments, p));
    expect(paymentNonce(devnet.chainId, devnet.contracts.gaslessPayments, { ...p, payee: devnet.accounts.payer.address })).not.toBe(
      onChain,
    );
  });

  it("pays payee, fee and relayer fee through the fee proxy with the reference; the payer sends nothing and the contract keeps nothing", async () => {
    const p = paymentFor();
    const before = {
      payee: await balance(p.payee),
      fee: await balance(p.feeAddress),
      relayer: await balance(p.relayerFeeAddress),
      payer: await balance(payer.address),
    };
    const receipt = await pay(p, await signed(p));
    expect(receipt.status).toBe("success");
    console.log(`[gas] DuebillGaslessPayments.pay (payee + fee + relayer fee legs): ${receipt.gasUsed}`);
    expect((await balance(p.payee)) - before.payee).toBe(10_000_000n);
    expect((await balance(p.feeAddress)) - before.fee).toBe(100_000n);
    expect((await balance(p.relayerFeeAddress)) - before.relayer).toBe(20_000n);
    expect(before.payer - (await balance(payer.address))).toBe(10_120_000n);
    expect(await balance(devnet.contracts.gaslessPayments)).toBe(0n);
    expect(await pub.getTransactionCount({ address: payer.address })).toBe(0);
    const [ev] = parseEventLogs({ abi: erc20FeeProxyAbi, logs: receipt.logs, eventName: "TransferWithReferenceAndFee" });
    expect(ev?.address.toLowerCase()).toBe(devnet.contracts.erc20FeeProxy.toLowerCase());
    expect(ev?.args).toMatchObject({ to: p.payee, amount: 10_000_000n, feeAmount: 100_000n, feeAddress: p.feeAddress });
    expect(ev?.args.paymentReference).toBe(keccak256(p.paymentReference));
  });

  it("pays without a relayer fee (0 allowed): two legs", async () => {
    const p = paymentFor({ relayerFee: 0n });
    const receipt = await pay(p, await signed(p));
    console.log(`[gas] DuebillGaslessPayments.pay (payee + fee, no relayer fee): ${receipt.gasUsed}`);
    expect(receipt.status).toBe("success");
  });

  it("refuses a front-runner who replays the signature with another payee (NonceMismatch, or BadSignature with its own nonce)", async () => {
    const p = paymentFor();
    const a = await signed(p);
    const thief = devnet.accounts.relayer.address;
    await expect(simulate({ ...p, payee: thief }, a)).rejects.toThrow(/NonceMismatch/);
    const ownNonce = paymentNonce(devnet.chainId, devnet.contracts.gaslessPayments, { ...p, payee: thief });
    await expect(simulate({ ...p, payee: thief }, { ...a, nonce: ownNonce })).rejects.toThrow(/BadSignature/);
    await expect(simulate({ ...p, relayerFee: p.relayerFee + 1n }, a)).rejects.toThrow(/NonceMismatch/);
    expect((await pay(p, a)).status).toBe("success");
  });

  it("a second submission of one authorization makes no second payment (AuthorizationUsed)", async () => {
    const p = paymentFor();
    const a = await signed(p);
    const before = await balance(p.payee);
    await pay(p, a);
    await expect(simulate(p, a)).rejects.toThrow(/AuthorizationUsed/);
    // Even sent without simulation, the transaction reverts and moves nothing.
    const hash = await submitter.writeContract({
      address: devnet.contracts.gaslessPayments,
      abi: gaslessAbi,
      functionName: "pay",
      args: [p, a],
      gas: 300_000n,
      chain: devnet.chain,
      account: submitter.account!,
    });
    expect((await pub.waitForTransactionReceipt({ hash })).status).toBe("reverted");
    expect((await balance(p.payee)) - before).toBe(p.amount);
  });

  it("refuses a nonce the payer canceled (AuthorizationUsed)", async () => {
    const p = paymentFor();
    const a = await signed(p);
    const domain = (await authorizationDomain("sepolia", devnet.tokens.USDC))!;
    const cancel = await payer.signTypedData({
      domain,
      types: {
        CancelAuthorization: [
          { name: "authorizer", type: "address" },
          { name: "nonce", type: "bytes32" },
        ],
      },
      primaryType: "CancelAuthorization",
      message: { authorizer: payer.address, nonce: a.nonce },
    });
    const hash = await submitter.writeContract({
      address: devnet.tokens.USDC,
      abi: usdcAbi,
      functionName: "cancelAuthorization",
      args: [payer.address, a.nonce, Number(parseSignature(cancel).v), parseSignature(cancel).r, parseSignature(cancel).s],
      chain: devnet.chain,
      account: submitter.account!,
    });
    expect((await pub.waitForTransactionReceipt({ hash })).status).toBe("success");
    await expect(simulate(p, a)).rejects.toThrow(/AuthorizationUsed/);
  });

  it("refuses an expired and a not-yet-valid authorization", async () => {
    const t = await now();
    const p1 = paymentFor();
    await expect(simulate(p1, await signed(p1, { validBefore: t - 1n }))).rejects.toThrow(/AuthorizationExpired/);
    const p2 = paymentFor();
    await expect(simulate(p2, await signed(p2, { validAfter: t + 3600n, validBefore: t + 7200n }))).rejects.toThrow(
      /AuthorizationNotYetValid/,
    );
  });

  it("refuses a foreign signature and a high-s one (BadSignature)", async () => {
    const p = paymentFor();
    const foreign = await signed(p, {}, privateKeyToAccount(generatePrivateKey()));
    await expect(simulate(p, foreign)).rejects.toThrow(/BadSignature/);
    // The same signature's twin (n - s, v flipped) recovers the same signer: only malleability refuses it.
    const a = await signed(p);
    const highS = { ...a, s: toHex(SECP256K1_N - BigInt(a.s), { size: 32 }), v: a.v === 27 ? 28 : 27 };
    await expect(simulate(p, highS)).rejects.toThrow(/BadSignature/);
    expect((await pay(p, a)).status).toBe("success");
  });

  it("refuses a token that delivers less than authorized (BalanceMismatch)", async () => {
    const { abi, bytecode } = compiledContracts.TestShortToken;
    const hash = await submitter.deployContract({ abi, bytecode, chain: devnet.chain, account: submitter.account! });
    const short = (await pub.waitForTransactionReceipt({ hash })).contractAddress!;
    const minted = await submitter.writeContract({
      address: short,
      abi,
      functionName: "mint",
      args: [payer.address, 100_000_000n],
      chain: devnet.chain,
      account: submitter.account!,
    });
    await pub.waitForTransactionReceipt({ hash: minted });
    const p = paymentFor({ token: short, relayerFee: 0n });
    const nonce = paymentNonce(devnet.chainId, devnet.contracts.gaslessPayments, p);
    const validBefore = (await now()) + 3600n;
    const domain = { name: "Short Token", version: "2", chainId: devnet.chainId, verifyingContract: short };
    const signature = await payer.signTypedData(
      receiveTypedData(domain, devnet.contracts.gaslessPayments, p, { validAfter: 0n, validBefore, nonce }),
    );
    const { r, s, v } = parseSignature(signature);
    await expect(simulate(p, { validAfter: 0n, validBefore, nonce, v: Number(v), r, s })).rejects.toThrow(/BalanceMismatch/);
  });

  it("refuses a zero fee proxy at deployment (ZeroAddress)", async () => {
    const { abi, bytecode } = compiledContracts.DuebillGaslessPayments;
    await expect(
      submitter
        .deployContract({
          abi,
          bytecode,
          args: ["0x0000000000000000000000000000000000000000"],
          chain: devnet.chain,
          account: submitter.account!,
        })
        .then((hash) => pub.waitForTransactionReceipt({ hash })),
    ).rejects.toThrow(toFunctionSelector("ZeroAddress()").slice(0, 10));
  });
});
