/**
 * The devnet USDC (contracts/devnet/TestUSDC.sol) behaves like Circle's FiatToken v2 for EIP-3009 and
 * EIP-2612, proven against an independent signer: every signature here is made by ethers 6 (tronweb's
 * bundled copy: its own EIP-712 encoder, its own secp256k1), never by viem's signTypedData that lib/ uses.
 * The token's DOMAIN_SEPARATOR is checked against ethers' TypedDataEncoder.hashDomain. Rules, each:
 * used nonce, expired, not yet valid, wrong signer, receive by a non-payee, high-s; cancel; permit.
 */
import { Signature, TypedDataEncoder, Wallet } from "ethers";
import { type Abi, type Address, createPublicClient, createWalletClient, erc20Abi, type Hex, http, type PublicClient, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compiledContracts } from "@/contracts/generated/artifacts.generated";
import type { Devnet } from "@/scripts/devnet";
import { stopDevnet, useDevnet } from "../helpers/devnet-env";

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const full = compiledContracts.TestUSDC.abi as Abi;
// The v, r, s overloads only (viem picks an overload by the ABI it is given).
const vrsAbi = full.filter((x) => !(x.type === "function" && x.inputs.some((i) => i.name === "signature")));
const bytesAbi = full.filter((x) => x.type === "function" && x.inputs.some((i) => i.name === "signature"));

const TYPES = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
};
const RECEIVE = { ReceiveWithAuthorization: TYPES.TransferWithAuthorization };
const CANCEL = {
  CancelAuthorization: [
    { name: "authorizer", type: "address" },
    { name: "nonce", type: "bytes32" },
  ],
};
const PERMIT = {
  Permit: [
    { name: "owner", type: "address" },
    { name: "spender", type: "address" },
    { name: "value", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
};

let devnet: Devnet;
let pub: PublicClient;
let sender: ReturnType<typeof createWalletClient>;
let payer: Wallet;
let domain: { name: string; version: string; chainId: number; verifyingContract: string };
beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) });
  sender = createWalletClient({
    chain: devnet.chain,
    transport: http(devnet.rpcUrl),
    account: privateKeyToAccount(devnet.accounts.relayer.privateKey),
  });
  payer = new Wallet(generatePrivateKey());
  await send("mint", [payer.address, 1_000_000_000n]);
  domain = { name: "Test USD Coin", version: "2", chainId: devnet.chainId, verifyingContract: devnet.tokens.USDC };
}, 60_000);
afterAll(() => stopDevnet(devnet));

async function send(functionName: string, args: unknown[], abi: Abi = vrsAbi, from = sender) {
  const hash = await from.writeContract({
    address: devnet.tokens.USDC,
    abi,
    functionName,
    args,
    chain: devnet.chain,
    account: from.account!,
  } as never);
  const receipt = await pub.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return receipt;
}
const simulate = (functionName: string, args: unknown[], abi: Abi = vrsAbi, account = sender.account!) =>
  pub.simulateContract({ address: devnet.tokens.USDC, abi, functionName, args, account } as never);
const balance = (a: string) =>
  pub.readContract({ address: devnet.tokens.USDC, abi: erc20Abi, functionName: "balanceOf", args: [a as Address] });
const now = async () => (await pub.getBlock()).timestamp;
const nonce = () => toHex(crypto.getRandomValues(new Uint8Array(32)));

async function authorization(
  types: typeof TYPES | typeof RECEIVE,
  to: string,
  value: bigint,
  o: { after?: bigint; before?: bigint; signer?: Wallet } = {},
) {
  const message = {
    from: payer.address,
    to,
    value,
    validAfter: o.after ?? 0n,
    validBefore: o.before ?? (await now()) + 3600n,
    nonce: nonce(),
  };
  const sig = Signature.from(await (o.signer ?? payer).signTypedData(domain, types, message));
  return { message, sig, vrs: [sig.v, sig.r as Hex, sig.s as Hex] as const, bytes: sig.serialized as Hex };
}
const argsOf = (m: { from: string; to: string; value: bigint; validAfter: bigint; validBefore: bigint; nonce: Hex }) =>
  [m.from, m.to, m.value, m.validAfter, m.validBefore, m.nonce] as const;

describe("TestUSDC against ethers' EIP-712", () => {
  it("has the EIP-712 domain ethers computes for {name, version 2, chainId, verifyingContract}", async () => {
    const onChain = await pub.readContract({ address: devnet.tokens.USDC, abi: vrsAbi, functionName: "DOMAIN_SEPARATOR" });
    expect(onChain).toBe(TypedDataEncoder.hashDomain(domain));
  });

  it("transferWithAuthorization (v, r, s and bytes overloads) moves the tokens once; a used nonce is refused", async () => {
    const to = devnet.accounts.payee.address;
    const before = await balance(to);
    const a = await authorization(TYPES, to, 1_000_000n);
    await send("transferWithAuthorization", [...argsOf(a.message), ...a.vrs]);
    expect(
      await pub.readContract({
        address: devnet.tokens.USDC,
        abi: vrsAbi,
        functionName: "authorizationState",
        args: [payer.address, a.message.nonce],
      }),
    ).toBe(true);
    await expect(simulate("transferWithAuthorization", [...argsOf(a.message), ...a.vrs])).rejects.toThrow(
      /authorization is used or canceled/,
    );
    const b = await authorization(TYPES, to, 2_000_000n);
    await send("transferWithAuthorization", [...argsOf(b.message), b.bytes], bytesAbi);
    await expect(simulate("transferWithAuthorization", [...argsOf(b.message), b.bytes], bytesAbi)).rejects.toThrow(/used or canceled/);
    expect((await balance(to)) - before).toBe(3_000_000n);
  });

  it("refuses an expired, a not-yet-valid, a wrong signer's and a high-s authorization", async () => {
    const to = devnet.accounts.payee.address;
    const t = await now();
    const expired = await authorization(TYPES, to, 1n, { before: t - 1n });
    await expect(simulate("transferWithAuthorization", [...argsOf(expired.message), ...expired.vrs])).rejects.toThrow(
      /authorization is expired/,
    );
    const early = await authorization(TYPES, to, 1n, { after: t + 3600n, before: t + 7200n });
    await expect(simulate("transferWithAuthorization", [...argsOf(early.message), ...early.vrs])).rejects.toThrow(/not yet valid/);
    const foreign = await authorization(TYPES, to, 1n, { signer: new Wallet(generatePrivateKey()) });
    await expect(simulate("transferWithAuthorization", [...argsOf(foreign.message), ...foreign.vrs])).rejects.toThrow(/invalid signature/);
    const ok = await authorization(TYPES, to, 1n);
    const highS = [ok.sig.v === 27 ? 28 : 27, ok.sig.r, toHex(SECP256K1_N - BigInt(ok.sig.s), { size: 32 })];
    await expect(simulate("transferWithAuthorization", [...argsOf(ok.message), ...highS])).rejects.toThrow(/invalid signature 's' value/);
    await send("transferWithAuthorization", [...argsOf(ok.message), ...ok.vrs]);
  });

  it("receiveWithAuthorization: only the payee may submit it (front-running safe)", async () => {
    const payeeWallet = createWalletClient({
      chain: devnet.chain,
      transport: http(devnet.rpcUrl),
      account: privateKeyToAccount(devnet.accounts.payee.privateKey),
    });
    const a = await authorization(RECEIVE, devnet.accounts.payee.address, 5_000_000n);
    await expect(simulate("receiveWithAuthorization", [...argsOf(a.message), ...a.vrs])).rejects.toThrow(/caller must be the payee/);
    // A TransferWithAuthorization signature is not a ReceiveWithAuthorization one (other type hash).
    const t = await authorization(TYPES, devnet.accounts.payee.address, 5_000_000n);
    await expect(simulate("receiveWithAuthorization", [...argsOf(t.message), ...t.vrs], vrsAbi, payeeWallet.account!)).rejects.toThrow(
      /invalid signature/,
    );
    const before = await balance(devnet.accounts.payee.address);
    await send("receiveWithAuthorization", [...argsOf(a.message), ...a.vrs], vrsAbi, payeeWallet);
    expect((await balance(devnet.accounts.payee.address)) - before).toBe(5_000_000n);
  });

  it("cancelAuthorization makes a nonce unusable; a canceled or used one cannot be canceled again", async () => {
    const a = await authorization(TYPES, devnet.accounts.payee.address, 1n);
    const c = Signature.from(await payer.signTypedData(domain, CANCEL, { authorizer: payer.address, nonce: a.message.nonce }));
    await send("cancelAuthorization", [payer.address, a.message.nonce, c.v, c.r, c.s]);
    await expect(simulate("transferWithAuthorization", [...argsOf(a.message), ...a.vrs])).rejects.toThrow(/used or canceled/);
    await expect(simulate("cancelAuthorization", [payer.address, a.message.nonce, c.v, c.r, c.s])).rejects.toThrow(/used or canceled/);
    const stranger = Signature.from(
      await new Wallet(generatePrivateKey()).signTypedData(domain, CANCEL, { authorizer: payer.address, nonce: nonce() }),
    );
    await expect(simulate("cancelAuthorization", [payer.address, nonce(), stranger.v, stranger.r, stranger.s])).rejects.toThrow(
      /invalid signature/,
    );
  });

  it("permit (EIP-2612): sets the allowance, counts the nonce, refuses a replay, an expired deadline and a wrong signer", async () => {
    const spender = devnet.accounts.payee.address;
    const deadline = (await now()) + 3600n;
    const n = (await pub.readContract({
      address: devnet.tokens.USDC,
      abi: vrsAbi,
      functionName: "nonces",
      args: [payer.address],
    })) as bigint;
    const p = Signature.from(
      await payer.signTypedData(domain, PERMIT, { owner: payer.address, spender, value: 7_000_000n, nonce: n, deadline }),
    );
    await send("permit", [payer.address, spender, 7_000_000n, deadline, p.v, p.r, p.s]);
    expect(
      await pub.readContract({
        address: devnet.tokens.USDC,
        abi: erc20Abi,
        functionName: "allowance",
        args: [payer.address as Address, spender],
      }),
    ).toBe(7_000_000n);
    expect(await pub.readContract({ address: devnet.tokens.USDC, abi: vrsAbi, functionName: "nonces", args: [payer.address] })).toBe(
      n + 1n,
    );
    await expect(simulate("permit", [payer.address, spender, 7_000_000n, deadline, p.v, p.r, p.s])).rejects.toThrow(/invalid signature/);
    const old = (await now()) - 1n;
    const e = Signature.from(
      await payer.signTypedData(domain, PERMIT, { owner: payer.address, spender, value: 1n, nonce: n + 1n, deadline: old }),
    );
    await expect(simulate("permit", [payer.address, spender, 1n, old, e.v, e.r, e.s])).rejects.toThrow(/permit is expired/);
    const w = Signature.from(
      await new Wallet(generatePrivateKey()).signTypedData(domain, PERMIT, {
        owner: payer.address,
        spender,
        value: 1n,
        nonce: n + 1n,
        deadline,
      }),
    );
    await expect(simulate("permit", [payer.address, spender, 1n, deadline, w.v, w.r, w.s])).rejects.toThrow(/invalid signature/);
  });
});
