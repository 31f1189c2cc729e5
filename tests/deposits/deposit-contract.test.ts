/**
 * contracts/src/DuebillDepositAddress.sol and DuebillDepositFactory.sol on anvil, against the real
 * ERC20FeeProxy bytecode: the payee is paid before anything goes back, only the operator returns,
 * returns never read as payments, every move is a fee-proxy transfer under its reference, and after
 * the closing time what the address holds may go back. The app's use of it: excess-returns.test.ts.
 */
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  erc20Abi,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  parseEventLogs,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { depositAddressAbi, depositFactoryAbi } from "@/contracts/generated/abis.generated";
import { erc20FeeProxyAbi } from "@/lib/chain/abis";
import { type Devnet, devAccount, startDevnet } from "@/scripts/devnet";
import { chainTime, moveDevnetClock } from "@/scripts/devnet/time";

let devnet: Devnet;
let pub: PublicClient;
const STRANGER = devAccount(7);

beforeAll(async () => {
  devnet = await startDevnet({ port: 0 });
  pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl), pollingInterval: 20 });
}, 60_000);
afterAll(() => devnet?.stop());

const walletOf = (key: Hex) =>
  createWalletClient({ chain: devnet.chain, transport: http(devnet.rpcUrl), account: privateKeyToAccount(key), pollingInterval: 20 });
const operator = () => walletOf(devnet.accounts.depositRelayer.privateKey);
const balance = (owner: Address, token: Address = devnet.tokens.USDC) =>
  pub.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner] });

async function mined(hash: Hex) {
  const receipt = await pub.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return receipt;
}

let n = 0;
/** A deposit address made by the deposit relayer: 10 USDC to the payee + 0.5 fee, closing in `closesIn` seconds. */
async function makeDeposit(closesIn = 3_600, amount = 10_000_000n, fee = 500_000n) {
  n += 1;
  const reference: Hex = `0x${n.toString(16).padStart(16, "a")}`;
  const closesAt = BigInt((await chainTime(devnet.rpcUrl)) + closesIn);
  const receipt = await mined(
    await operator().writeContract({
      address: devnet.contracts.depositFactory,
      abi: depositFactoryAbi,
      functionName: "create",
      args: [devnet.accounts.payee.address, devnet.tokens.USDC, reference, devnet.accounts.feeRecipient.address, fee, amount, closesAt],
    }),
  );
  const [created] = parseEventLogs({ abi: depositFactoryAbi, eventName: "DepositAddressCreated", logs: receipt.logs });
  return { address: created!.args.depositAddress, reference, closesAt };
}

/** The payer's plain transfer into the address. */
async function deposit(to: Address, units: bigint) {
  await mined(
    await walletOf(devnet.accounts.payer.privateKey).writeContract({
      address: devnet.tokens.USDC,
      abi: erc20Abi,
      functionName: "transfer",
      args: [to, units],
    }),
  );
}

/** The custom error a call reverts with, from a dry run (the node's own answer). */
async function revertOf(key: Hex, address: Address, functionName: "forward" | "giveBack" | "recoverToken", args: readonly unknown[]) {
  try {
    await pub.simulateContract({
      account: privateKeyToAccount(key),
      address,
      abi: depositAddressAbi,
      functionName,
      args: args as never,
    });
  } catch (err) {
    const reverted = err instanceof BaseError ? err.walk((e) => e instanceof ContractFunctionRevertedError) : null;
    if (reverted instanceof ContractFunctionRevertedError) return reverted.data?.errorName;
    throw err;
  }
  return "no revert";
}

const feeProxyEvents = (logs: Parameters<typeof parseEventLogs>[0]["logs"]) =>
  parseEventLogs({ abi: erc20FeeProxyAbi, eventName: "TransferWithReferenceAndFee", logs }).filter(
    (l) => l.address.toLowerCase() === devnet.contracts.erc20FeeProxy.toLowerCase(),
  );

describe("DuebillDepositFactory", () => {
  it("makes an address with the terms fixed, the caller as operator and the network's fee proxy", async () => {
    const { address, reference, closesAt } = await makeDeposit();
    const read = <T>(functionName: string) =>
      pub.readContract({ address, abi: depositAddressAbi, functionName: functionName as never }) as Promise<T>;
    expect(await read<Address>("operator")).toBe(devnet.accounts.depositRelayer.address);
    expect(await read<Address>("payee")).toBe(devnet.accounts.payee.address);
    expect(await read<Address>("token")).toBe(devnet.tokens.USDC);
    expect(await read<Hex>("paymentReference")).toBe(reference);
    expect(await read<Address>("erc20FeeProxy")).toBe(devnet.contracts.erc20FeeProxy);
    expect(await read<bigint>("amount")).toBe(10_000_000n);
    expect(await read<bigint>("feeAmount")).toBe(500_000n);
    expect(await read<bigint>("closesAt")).toBe(closesAt);
    expect([await read<bigint>("owed"), await read<bigint>("feeDue")]).toEqual([10_000_000n, 500_000n]);
  });

  it("refuses terms that could never be paid: no amount, a fee without an address, no payee", async () => {
    const create = (args: readonly unknown[]) =>
      pub
        .simulateContract({
          account: privateKeyToAccount(devnet.accounts.depositRelayer.privateKey),
          address: devnet.contracts.depositFactory,
          abi: depositFactoryAbi,
          functionName: "create",
          args: args as never,
        })
        .then(
          () => "no revert",
          (err: BaseError) =>
            (err.walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError).data?.errorName,
        );
    const { payee, feeRecipient } = devnet.accounts;
    const zero = "0x0000000000000000000000000000000000000000";
    expect(await create([payee.address, devnet.tokens.USDC, "0x0102030405060708", feeRecipient.address, 1n, 0n, 1n])).toBe("BadTerms");
    expect(await create([payee.address, devnet.tokens.USDC, "0x0102030405060708", zero, 1n, 5n, 1n])).toBe("BadTerms");
    expect(await create([zero, devnet.tokens.USDC, "0x0102030405060708", zero, 0n, 5n, 1n])).toBe("ZeroAddress");
  });
});

describe("DuebillDepositAddress", () => {
  it("the operator cannot take the payee's money: nothing goes back before the payee (and the fee) is paid", async () => {
    const { address } = await makeDeposit();
    await deposit(address, 12_500_000n);
    const key = devnet.accounts.depositRelayer.privateKey;
    const payer = devnet.accounts.payer.address;
    // Not the excess, not the whole balance, not a wei, to anyone: the payee is owed 10 and the fee address 0.5.
    expect(await revertOf(key, address, "giveBack", [payer, 2_000_000n, "0x1111111111111111"])).toBe("PayeeNotPaid");
    expect(await revertOf(key, address, "giveBack", [devnet.accounts.depositRelayer.address, 1n, "0x1111111111111111"])).toBe(
      "PayeeNotPaid",
    );
    // Paying the payee only part of what it is owed does not open the door either.
    await mined(await operator().writeContract({ address, abi: depositAddressAbi, functionName: "forward", args: [5_000_000n] }));
    expect(await revertOf(key, address, "giveBack", [payer, 1n, "0x1111111111111111"])).toBe("PayeeNotPaid");
  });

  it("pays the payee through the fee proxy under the payment reference, then returns the excess under a refund reference", async () => {
    const { address, reference } = await makeDeposit();
    await deposit(address, 12_500_000n);
    const before = { payee: await balance(devnet.accounts.payee.address), fee: await balance(devnet.accounts.feeRecipient.address) };
    const forward = await mined(
      await operator().writeContract({ address, abi: depositAddressAbi, functionName: "forward", args: [10_000_000n] }),
    );
    const [paid, ...others] = feeProxyEvents(forward.logs);
    expect(others).toHaveLength(0);
    expect(paid!.topics[1]).toBe(keccak256(reference));
    expect(paid!.args).toMatchObject({ to: devnet.accounts.payee.address, amount: 10_000_000n, feeAmount: 500_000n });
    expect((await balance(devnet.accounts.payee.address)) - before.payee).toBe(10_000_000n);
    expect((await balance(devnet.accounts.feeRecipient.address)) - before.fee).toBe(500_000n);

    const payer = devnet.accounts.payer.address;
    const payerBefore = await balance(payer);
    const refundReference: Hex = "0x2222222222222222";
    const back = await mined(
      await operator().writeContract({
        address,
        abi: depositAddressAbi,
        functionName: "giveBack",
        args: [payer, 2_000_000n, refundReference],
      }),
    );
    const [refund] = feeProxyEvents(back.logs);
    expect(refund!.topics[1]).toBe(keccak256(refundReference));
    expect(refund!.args).toMatchObject({ to: payer, amount: 2_000_000n, feeAmount: 0n });
    expect((await balance(payer)) - payerBefore).toBe(2_000_000n);
    const returned = back.logs
      .filter((l) => l.address.toLowerCase() === address.toLowerCase())
      .map((l) => decodeEventLog({ abi: depositAddressAbi, data: l.data, topics: l.topics }));
    expect(returned).toEqual([{ eventName: "Returned", args: { to: payer, amount: 2_000_000n, refundReference } }]);
    expect(await balance(address)).toBe(0n);
    expect(await pub.readContract({ address, abi: depositAddressAbi, functionName: "returned" })).toBe(2_000_000n);
  });

  it("only the operator sends money back, and a return never reads as a payment (not to the payee, not under the payment reference)", async () => {
    const { address, reference } = await makeDeposit(3_600, 10_000_000n, 0n);
    await deposit(address, 12_000_000n);
    await mined(await operator().writeContract({ address, abi: depositAddressAbi, functionName: "forward", args: [10_000_000n] }));
    const payer = devnet.accounts.payer.address;
    expect(await revertOf(devnet.accounts.payee.privateKey, address, "giveBack", [payer, 1n, "0x3333333333333333"])).toBe("NotOperator");
    expect(await revertOf(STRANGER.privateKey, address, "giveBack", [payer, 1n, "0x3333333333333333"])).toBe("NotOperator");
    const key = devnet.accounts.depositRelayer.privateKey;
    expect(await revertOf(key, address, "giveBack", [devnet.accounts.payee.address, 1n, "0x3333333333333333"])).toBe("BadReturn");
    expect(await revertOf(key, address, "giveBack", [payer, 1n, reference])).toBe("BadReturn");
    expect(await revertOf(key, address, "giveBack", [payer, 0n, "0x3333333333333333"])).toBe("BadReturn");
    expect(await revertOf(key, address, "giveBack", [payer, 2_000_001n, "0x3333333333333333"])).toBe("InsufficientBalance");
    // Forwarding is the operator's or the payee's; a stranger can do neither.
    expect(await revertOf(STRANGER.privateKey, address, "forward", [1n])).toBe("NotOperatorOrPayee");
  });

  it("after its closing time the operator may send back what it holds (an underpaid or late payment), the payee unpaid", async () => {
    const { address } = await makeDeposit(60);
    await deposit(address, 4_000_000n);
    const key = devnet.accounts.depositRelayer.privateKey;
    const payer = devnet.accounts.payer.address;
    expect(await revertOf(key, address, "giveBack", [payer, 4_000_000n, "0x4444444444444444"])).toBe("PayeeNotPaid");
    await moveDevnetClock(devnet.rpcUrl, { kind: "shift", seconds: 120 });
    const before = await balance(payer);
    await mined(
      await operator().writeContract({
        address,
        abi: depositAddressAbi,
        functionName: "giveBack",
        args: [payer, 4_000_000n, "0x4444444444444444"],
      }),
    );
    expect((await balance(payer)) - before).toBe(4_000_000n);
    expect(await balance(address)).toBe(0n);
  });

  it("the payee may take everything it holds at any time (nothing is stuck if Duebill disappears); other tokens go to the payee", async () => {
    const { address } = await makeDeposit();
    await deposit(address, 12_500_000n);
    const payeeBefore = await balance(devnet.accounts.payee.address);
    const payee = walletOf(devnet.accounts.payee.privateKey);
    // Fee first out of what remains: 12 to the payee, 0.5 to the fee address.
    await mined(await payee.writeContract({ address, abi: depositAddressAbi, functionName: "forward", args: [12_000_000n] }));
    expect((await balance(devnet.accounts.payee.address)) - payeeBefore).toBe(12_000_000n);
    expect(await pub.readContract({ address, abi: depositAddressAbi, functionName: "paid" })).toBe(12_000_000n);
    expect(await pub.readContract({ address, abi: depositAddressAbi, functionName: "feeDue" })).toBe(0n);

    // USDT sent by mistake: anyone may push it to the payee; the deposit's own token only moves by forward/giveBack.
    await mined(
      await walletOf(devnet.accounts.payer.privateKey).writeContract({
        address: devnet.tokens.USDT,
        abi: erc20Abi,
        functionName: "transfer",
        args: [address, 3_000_000n],
      }),
    );
    const usdtBefore = await balance(devnet.accounts.payee.address, devnet.tokens.USDT);
    expect(await revertOf(STRANGER.privateKey, address, "recoverToken", [devnet.tokens.USDC])).toBe("WrongToken");
    await mined(
      await walletOf(STRANGER.privateKey).writeContract({
        address,
        abi: depositAddressAbi,
        functionName: "recoverToken",
        args: [devnet.tokens.USDT],
      }),
    );
    expect((await balance(devnet.accounts.payee.address, devnet.tokens.USDT)) - usdtBefore).toBe(3_000_000n);
  });
});
