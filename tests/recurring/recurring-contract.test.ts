/**
 * contracts/src/DuebillRecurringPayments.sol on anvil (the devnet deploys it with the real ERC20FeeProxy
 * bytecode): the happy path through the fee proxy, then one revert reason per rule, ERC-1271
 * subscribers, a 256-payment schedule and a calendar-month schedule paid on its exact due times.
 * Every schedule gets its own scheduleId and due times relative to the chain's clock, which only
 * moves forward, so the tests share one devnet.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  hashTypedData,
  http,
  keccak256,
  type PublicClient,
  parseEventLogs,
  publicActions,
  stringToBytes,
  zeroAddress,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recurringPaymentsAbi as abi } from "@/contracts/generated/abis.generated";
import { compiledContracts } from "@/contracts/generated/artifacts.generated";
import { erc20FeeProxyAbi } from "@/lib/chain/abis";
import {
  MAX_SCHEDULE_PAYMENTS,
  SCHEDULE_PERMIT_TYPE,
  type SchedulePermit,
  scheduleIdOf,
  scheduleKey,
  schedulePermitTypedData,
} from "@/lib/recurring/permit";
import { type Devnet, startDevnet } from "@/scripts/devnet/index";
import { chainTime, devnetRpcUrl, moveDevnetClock, parseClockTarget } from "@/scripts/devnet/time";

const DAY = 86_400;
const AMOUNT = 10_000_000n; // 10 USDC
const FEE = 100_000n; // 0.1 USDC
const walletArtifact = compiledContracts.TestSmartWallet;

let devnet: Devnet;
let pub: PublicClient;
let contract: Address;
let relayerRole: Hex;
const gasUsed: Record<string, bigint> = {};

// A key with ETH for gas and no role anywhere.
const stranger = privateKeyToAccount(generatePrivateKey());

beforeAll(async () => {
  devnet = await startDevnet({ port: 0 });
  pub = createTestClient({ mode: "anvil", chain: devnet.chain, transport: http(devnet.rpcUrl), pollingInterval: 20 }).extend(
    publicActions,
  ) as unknown as PublicClient;
  contract = devnet.contracts.recurringPayments;
  relayerRole = await pub.readContract({ address: contract, abi, functionName: "RELAYER_ROLE" });
  await anvil().setBalance({ address: stranger.address, value: 10n ** 20n });
}, 60_000);

afterAll(async () => {
  if (Object.keys(gasUsed).length > 0) console.log("[recurring] gas per trigger:", gasUsed);
  await devnet?.stop();
});

function anvil() {
  return createTestClient({ mode: "anvil", chain: devnet.chain, transport: http(devnet.rpcUrl), pollingInterval: 20 });
}

function walletOf(key: Hex) {
  return createWalletClient({
    chain: devnet.chain,
    transport: http(devnet.rpcUrl),
    account: privateKeyToAccount(key),
    pollingInterval: 20,
  });
}

const relayer = () => walletOf(devnet.accounts.relayer.privateKey);
const payer = () => walletOf(devnet.accounts.payer.privateKey);
const admin = () => walletOf(devnet.accounts.deployer.privateKey);
const strangerWallet = () =>
  createWalletClient({ chain: devnet.chain, transport: http(devnet.rpcUrl), account: stranger, pollingInterval: 20 });

async function mined(hash: Hex) {
  const receipt = await pub.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return receipt;
}

function balanceOf(token: Address, owner: Address): Promise<bigint> {
  return pub.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner] });
}

let schedules = 0;
/** A permit from the devnet's payer to its payee in USDC; due times and anything else overridable. */
function makePermit(dueTimes: number[], overrides: Partial<SchedulePermit> = {}): SchedulePermit {
  const n = ++schedules;
  return {
    subscriber: devnet.accounts.payer.address,
    token: devnet.tokens.USDC,
    recipient: devnet.accounts.payee.address,
    feeAddress: devnet.accounts.feeRecipient.address,
    amount: AMOUNT,
    feeAmount: FEE,
    relayerFee: 0n,
    totalPayments: dueTimes.length,
    nonce: 1n,
    deadline: BigInt((Math.max(0, ...dueTimes) || 2_000_000_000) + 30 * DAY),
    scheduleId: scheduleIdOf(`01TESTSCHEDULE${String(n).padStart(12, "0")}`),
    dueTimes,
    paymentReferences: dueTimes.map((_, i) => `0x${(n * 1_000 + i + 1).toString(16).padStart(16, "0")}` as Hex),
    ...overrides,
  };
}

function sign(p: SchedulePermit, key: Hex = devnet.accounts.payer.privateKey): Promise<Hex> {
  return privateKeyToAccount(key).signTypedData(schedulePermitTypedData(devnet.chainId, contract, p));
}

/** Due times `count` seconds apart ending `agoSeconds` before the chain's latest block: all due now. */
async function pastDueTimes(count: number, agoSeconds = 60): Promise<number[]> {
  const now = await chainTime(devnet.rpcUrl);
  return Array.from({ length: count }, (_, i) => now - agoSeconds - count + i);
}

async function approve(token: Address, amount: bigint, key: Hex = devnet.accounts.payer.privateKey) {
  await mined(await walletOf(key).writeContract({ address: token, abi: erc20Abi, functionName: "approve", args: [contract, amount] }));
}

/** Approves what the whole schedule needs, as the API's allowance transaction will. */
async function approveSchedule(p: SchedulePermit) {
  await approve(p.token, (p.amount + p.feeAmount + p.relayerFee) * BigInt(p.totalPayments));
}

function simulateTrigger(p: SchedulePermit, signature: Hex, index: number, from: Address = devnet.accounts.relayer.address) {
  return pub.simulateContract({ account: from, address: contract, abi, functionName: "triggerPayment", args: [p, signature, index] });
}

async function trigger(p: SchedulePermit, signature: Hex, index: number) {
  return mined(await relayer().writeContract({ address: contract, abi, functionName: "triggerPayment", args: [p, signature, index] }));
}

/** The custom error a call reverted with (its name and arguments). */
async function revertOf(call: Promise<unknown>): Promise<{ name: string; args: readonly unknown[] }> {
  try {
    await call;
  } catch (err) {
    const reverted = err instanceof BaseError ? err.walk((e) => e instanceof ContractFunctionRevertedError) : null;
    if (reverted instanceof ContractFunctionRevertedError) {
      return { name: reverted.data?.errorName ?? reverted.reason ?? "?", args: reverted.data?.args ?? [] };
    }
    throw err;
  }
  throw new Error("expected a revert, the call succeeded");
}

const revertName = async (call: Promise<unknown>) => (await revertOf(call)).name;

async function lastPaid(p: SchedulePermit): Promise<number> {
  return pub.readContract({ address: contract, abi, functionName: "lastPaidIndex", args: [scheduleKey(p.subscriber, p.scheduleId)] });
}

describe("permit and deployment", () => {
  it("signs what lib/recurring/permit.ts describes: typehash, domain, digest and schedule key match the contract", async () => {
    expect(await pub.readContract({ address: contract, abi, functionName: "SCHEDULE_PERMIT_TYPEHASH" })).toBe(
      keccak256(stringToBytes(SCHEDULE_PERMIT_TYPE)),
    );
    const [, name, version, chainId, verifyingContract] = await pub.readContract({ address: contract, abi, functionName: "eip712Domain" });
    expect({ name, version, chainId, verifyingContract }).toEqual({
      name: "DuebillRecurringPayments",
      version: "1",
      chainId: BigInt(devnet.chainId),
      verifyingContract: contract,
    });
    const p = makePermit(await pastDueTimes(3));
    expect(await pub.readContract({ address: contract, abi, functionName: "hashPermit", args: [p] })).toBe(
      hashTypedData(schedulePermitTypedData(devnet.chainId, contract, p)),
    );
    expect(await pub.readContract({ address: contract, abi, functionName: "scheduleKey", args: [p.subscriber, p.scheduleId] })).toBe(
      scheduleKey(p.subscriber, p.scheduleId),
    );
    expect(await pub.readContract({ address: contract, abi, functionName: "erc20FeeProxy" })).toBe(devnet.contracts.erc20FeeProxy);
    expect(
      await pub.readContract({ address: contract, abi, functionName: "hasRole", args: [relayerRole, devnet.accounts.relayer.address] }),
    ).toBe(true);
  });
});

describe("happy path", () => {
  it("pays 3 payments in order as the clock moves, each through the fee proxy with its own reference; nothing stays behind", async () => {
    const { payer: p0, payee, feeRecipient, relayer: r } = devnet.accounts;
    const t0 = await chainTime(devnet.rpcUrl);
    const dueTimes = [t0 + 100, t0 + 100 + 30 * DAY, t0 + 100 + 60 * DAY];
    const relayerFee = 50_000n;
    const p = makePermit(dueTimes, { relayerFee });
    const signature = await sign(p);
    await approveSchedule(p);
    const key = scheduleKey(p.subscriber, p.scheduleId);
    const token = devnet.tokens.USDC;
    const before = {
      payer: await balanceOf(token, p0.address),
      payee: await balanceOf(token, payee.address),
      fee: await balanceOf(token, feeRecipient.address),
      relayer: await balanceOf(token, r.address),
    };

    const shifts = [100, 30 * DAY, 30 * DAY];
    for (const index of [1, 2, 3]) {
      expect(await revertName(simulateTrigger(p, signature, index))).toBe("NotDueYet");
      await moveDevnetClock(devnet.rpcUrl, { kind: "shift", seconds: shifts[index - 1]! }); // what `npm run devnet -- time` does
      const receipt = await trigger(p, signature, index);
      gasUsed[`3-payment schedule, index ${index}`] = receipt.gasUsed;

      const ref = p.paymentReferences[index - 1]!;
      const proxyEvents = parseEventLogs({ abi: erc20FeeProxyAbi, eventName: "TransferWithReferenceAndFee", logs: receipt.logs });
      expect(proxyEvents).toHaveLength(1);
      expect(proxyEvents[0]!.address.toLowerCase()).toBe(devnet.contracts.erc20FeeProxy.toLowerCase());
      expect(proxyEvents[0]!.topics[1]).toBe(keccak256(ref)); // what lib/detection matches
      expect(proxyEvents[0]!.args).toMatchObject({ tokenAddress: token, to: payee.address, amount: AMOUNT, feeAmount: FEE });
      expect(proxyEvents[0]!.args.feeAddress).toBe(feeRecipient.address);
      const [triggered, ...more] = parseEventLogs({ abi, eventName: "PaymentTriggered", logs: receipt.logs });
      expect(more).toHaveLength(0);
      expect(triggered!.args).toEqual({ key, subscriber: p0.address, index, paymentReference: ref, amount: AMOUNT });

      expect(await lastPaid(p)).toBe(index);
      expect(await pub.readContract({ address: contract, abi, functionName: "isPaid", args: [key, index] })).toBe(true);
      expect(await pub.readContract({ address: contract, abi, functionName: "isPaid", args: [key, index + 1] })).toBe(false);
      expect(await balanceOf(token, contract)).toBe(0n);
    }

    expect(await balanceOf(token, p0.address)).toBe(before.payer - 3n * (AMOUNT + FEE + relayerFee));
    expect(await balanceOf(token, payee.address)).toBe(before.payee + 3n * AMOUNT);
    expect(await balanceOf(token, feeRecipient.address)).toBe(before.fee + 3n * FEE);
    expect(await balanceOf(token, r.address)).toBe(before.relayer + 3n * relayerFee);
    expect(await balanceOf(token, contract)).toBe(0n);
    const allowance = (owner: Address, spender: Address) =>
      pub.readContract({ address: token, abi: erc20Abi, functionName: "allowance", args: [owner, spender] });
    expect(await allowance(p0.address, contract)).toBe(0n); // pulled exactly what was approved
    expect(await allowance(contract, devnet.contracts.erc20FeeProxy)).toBe(0n);
    expect(await revertName(simulateTrigger(p, signature, 3))).toBe("AlreadyPaid");
  });
});

describe("one revert reason per rule", () => {
  it("only a relayer triggers (AccessControlUnauthorizedAccount), not even the subscriber", async () => {
    const p = makePermit(await pastDueTimes(2));
    const signature = await sign(p);
    await approveSchedule(p);
    for (const from of [stranger.address, devnet.accounts.payer.address]) {
      expect(await revertOf(simulateTrigger(p, signature, 1, from))).toEqual({
        name: "AccessControlUnauthorizedAccount",
        args: [from, relayerRole],
      });
    }
    await trigger(p, signature, 1); // the same call from the relayer goes through
  });

  it("BadSignature: another key, or a permit changed after signing", async () => {
    const p = makePermit(await pastDueTimes(2));
    await approveSchedule(p);
    expect(await revertName(simulateTrigger(p, await sign(p, generatePrivateKey()), 1))).toBe("BadSignature");
    const signature = await sign(p);
    expect(await revertName(simulateTrigger({ ...p, amount: p.amount * 2n }, signature, 1))).toBe("BadSignature");
    expect(await revertName(simulateTrigger({ ...p, recipient: stranger.address }, signature, 1))).toBe("BadSignature");
    expect(await revertName(simulateTrigger(p, "0x1234", 1))).toBe("BadSignature");
  });

  it("SignatureExpired: no trigger after the deadline", async () => {
    const now = await chainTime(devnet.rpcUrl);
    const p = makePermit(await pastDueTimes(2), { deadline: BigInt(now - 1) });
    await approveSchedule(p);
    expect(await revertName(simulateTrigger(p, await sign(p), 1))).toBe("SignatureExpired");
  });

  it("BadSchedule: due times not strictly increasing, lengths not totalPayments, totalPayments outside 2..256, a fee with no address", async () => {
    const [a, b, c] = (await pastDueTimes(3)) as [number, number, number];
    const refs = (k: number) => Array.from({ length: k }, (_, i) => `0x${(i + 1).toString(16).padStart(16, "0")}` as Hex);
    const bad: SchedulePermit[] = [
      makePermit([a, a, c]), // equal
      makePermit([a, c, b]), // decreasing
      makePermit([a, b], { totalPayments: 3, paymentReferences: refs(3) }), // dueTimes too short
      makePermit([a, b, c], { paymentReferences: refs(2) }), // references too short
      makePermit([a, b, c], { paymentReferences: refs(4) }), // references too long
      makePermit([a]), // totalPayments 1
      makePermit(Array.from({ length: MAX_SCHEDULE_PAYMENTS + 1 }, (_, i) => a - 300 + i)), // 257
      makePermit([a, b, c], { feeAddress: zeroAddress }), // the fee proxy would skip the fee and strand it here
    ];
    for (const p of bad) {
      expect(await revertName(simulateTrigger(p, await sign(p), 1)), JSON.stringify(p.dueTimes.slice(0, 4))).toBe("BadSchedule");
    }
    const fine = makePermit([a, b, c], { feeAddress: zeroAddress, feeAmount: 0n });
    await approveSchedule(fine);
    await trigger(fine, await sign(fine), 1);
  });

  it("IndexOutOfBounds: index 0 and index > totalPayments", async () => {
    const p = makePermit(await pastDueTimes(3));
    const signature = await sign(p);
    await approveSchedule(p);
    expect(await revertName(simulateTrigger(p, signature, 0))).toBe("IndexOutOfBounds");
    expect(await revertName(simulateTrigger(p, signature, 4))).toBe("IndexOutOfBounds");
    expect(await revertName(simulateTrigger(p, signature, 300))).toBe("IndexOutOfBounds");
  });

  it("PaymentOutOfOrder: index must be lastPaid + 1, even when later ones are due", async () => {
    const p = makePermit(await pastDueTimes(3));
    const signature = await sign(p);
    await approveSchedule(p);
    expect(await revertName(simulateTrigger(p, signature, 2))).toBe("PaymentOutOfOrder");
    await trigger(p, signature, 1);
    expect(await revertName(simulateTrigger(p, signature, 3))).toBe("PaymentOutOfOrder");
    await trigger(p, signature, 2);
    await trigger(p, signature, 3);
  });

  it("NotDueYet: the chain's time has not reached the index's due time", async () => {
    const now = await chainTime(devnet.rpcUrl);
    const p = makePermit([now + DAY, now + 2 * DAY]);
    await approveSchedule(p);
    expect(await revertName(simulateTrigger(p, await sign(p), 1))).toBe("NotDueYet");
  });

  it("AlreadyPaid: an index is paid once, also under a re-signed permit (new nonce and deadline, same schedule)", async () => {
    const p = makePermit(await pastDueTimes(3));
    const signature = await sign(p);
    await approve(p.token, (AMOUNT + FEE) * 3n);
    await trigger(p, signature, 1);
    expect(await revertName(simulateTrigger(p, signature, 1))).toBe("AlreadyPaid");
    const resigned = { ...p, nonce: 2n, deadline: p.deadline + BigInt(DAY) };
    const signature2 = await sign(resigned);
    expect(await revertName(simulateTrigger(resigned, signature2, 1))).toBe("AlreadyPaid");
    await trigger(resigned, signature2, 2); // the key excludes nonce and deadline: the schedule continues
    expect(await lastPaid(p)).toBe(2);
  });

  it("ScheduleIsCancelled: cancelled by the subscriber (also while paused) or by a relayer; a stranger cannot cancel", async () => {
    const bySubscriber = makePermit(await pastDueTimes(3));
    const byRelayer = makePermit(await pastDueTimes(3));
    const sig1 = await sign(bySubscriber);
    const sig2 = await sign(byRelayer);
    await approve(devnet.tokens.USDC, (AMOUNT + FEE) * 6n);
    await trigger(byRelayer, sig2, 1);

    expect(
      await revertOf(strangerWallet().writeContract({ address: contract, abi, functionName: "cancelSchedule", args: [bySubscriber] })),
    ).toEqual({ name: "AccessControlUnauthorizedAccount", args: [stranger.address, relayerRole] });

    for (const [p, signature, wallet, index] of [
      [bySubscriber, sig1, payer(), 1],
      [byRelayer, sig2, relayer(), 2],
    ] as const) {
      const key = scheduleKey(p.subscriber, p.scheduleId);
      const receipt = await mined(await wallet.writeContract({ address: contract, abi, functionName: "cancelSchedule", args: [p] }));
      const [event] = parseEventLogs({ abi, eventName: "ScheduleCancelled", logs: receipt.logs });
      expect(event?.args).toEqual({ key, by: wallet.account.address });
      expect(await pub.readContract({ address: contract, abi, functionName: "isCancelled", args: [key] })).toBe(true);
      expect(await revertName(simulateTrigger(p, signature, index))).toBe("ScheduleIsCancelled");
      expect(
        await revertName(
          pub.simulateContract({ account: wallet.account, address: contract, abi, functionName: "cancelSchedule", args: [p] }),
        ),
      ).toBe("ScheduleIsCancelled");
    }
    expect(await lastPaid(byRelayer)).toBe(1);

    // A subscriber can always leave: cancelling works while the contract is paused.
    const third = makePermit(await pastDueTimes(2));
    await mined(await admin().writeContract({ address: contract, abi, functionName: "pause" }));
    try {
      await mined(await payer().writeContract({ address: contract, abi, functionName: "cancelSchedule", args: [third] }));
    } finally {
      await mined(await admin().writeContract({ address: contract, abi, functionName: "unpause" }));
    }
  });

  it("paused: the admin pauses (EnforcedPause) and unpauses; nobody else can", async () => {
    const p = makePermit(await pastDueTimes(2));
    const signature = await sign(p);
    await approveSchedule(p);
    expect(await revertOf(strangerWallet().writeContract({ address: contract, abi, functionName: "pause" }))).toEqual({
      name: "AccessControlUnauthorizedAccount",
      args: [stranger.address, `0x${"0".repeat(64)}`],
    });
    await mined(await admin().writeContract({ address: contract, abi, functionName: "pause" }));
    expect(await revertName(simulateTrigger(p, signature, 1))).toBe("EnforcedPause");
    await mined(await admin().writeContract({ address: contract, abi, functionName: "unpause" }));
    await trigger(p, signature, 1);
  });

  it("reports the first broken rule, in the documented order", async () => {
    const now = await chainTime(devnet.rpcUrl);
    const due = await pastDueTimes(3);
    const expired = BigInt(now - 1);
    const other = generatePrivateKey();
    const cases: [SchedulePermit, Hex | "payer" | "other", number, string][] = [
      [makePermit([due[0]!, due[0]!, due[2]!], { deadline: expired }), "other", 0, "BadSignature"],
      [makePermit([due[0]!, due[0]!, due[2]!], { deadline: expired }), "payer", 0, "SignatureExpired"],
      [makePermit([due[0]!, due[0]!, due[2]!]), "payer", 0, "BadSchedule"],
      [makePermit([now + DAY, now + 2 * DAY, now + 3 * DAY]), "payer", 4, "IndexOutOfBounds"],
      [makePermit([now + DAY, now + 2 * DAY, now + 3 * DAY]), "payer", 2, "PaymentOutOfOrder"],
    ];
    for (const [p, signer, index, expected] of cases) {
      const signature = await sign(p, signer === "other" ? other : devnet.accounts.payer.privateKey);
      expect(await revertName(simulateTrigger(p, signature, index))).toBe(expected);
    }
    // NotDueYet before ScheduleIsCancelled; AlreadyPaid before ScheduleIsCancelled.
    const p = makePermit([due[2]!, now + DAY]);
    const signature = await sign(p);
    await approveSchedule(p);
    await trigger(p, signature, 1);
    await mined(await payer().writeContract({ address: contract, abi, functionName: "cancelSchedule", args: [p] }));
    expect(await revertName(simulateTrigger(p, signature, 2))).toBe("NotDueYet");
    expect(await revertName(simulateTrigger(p, signature, 1))).toBe("AlreadyPaid");
  });

  it("a payer short of allowance or balance reverts in the token and keeps the index unpaid", async () => {
    const p = makePermit(await pastDueTimes(2));
    const signature = await sign(p);
    await approve(p.token, AMOUNT); // less than amount + fee
    await expect(simulateTrigger(p, signature, 1)).rejects.toThrow(/insufficient allowance/);
    expect(await lastPaid(p)).toBe(0);
    await approveSchedule(p);
    await trigger(p, signature, 1);
  });

  it("the admin swaps the relayer and the fee proxy; others cannot", async () => {
    const { relayer: r } = devnet.accounts;
    const p = makePermit(await pastDueTimes(2));
    const signature = await sign(p);
    await approveSchedule(p);
    expect(
      await revertName(
        strangerWallet().writeContract({ address: contract, abi, functionName: "setRelayer", args: [r.address, stranger.address] }),
      ),
    ).toBe("AccessControlUnauthorizedAccount");
    expect(
      await revertName(strangerWallet().writeContract({ address: contract, abi, functionName: "setFeeProxy", args: [stranger.address] })),
    ).toBe("AccessControlUnauthorizedAccount");
    expect(await revertName(admin().writeContract({ address: contract, abi, functionName: "setFeeProxy", args: [zeroAddress] }))).toBe(
      "ZeroAddress",
    );
    await mined(await admin().writeContract({ address: contract, abi, functionName: "setRelayer", args: [r.address, stranger.address] }));
    try {
      expect(await revertName(simulateTrigger(p, signature, 1))).toBe("AccessControlUnauthorizedAccount");
      await simulateTrigger(p, signature, 1, stranger.address);
    } finally {
      await mined(await admin().writeContract({ address: contract, abi, functionName: "setRelayer", args: [stranger.address, r.address] }));
    }
    await trigger(p, signature, 1);
  });
});

describe("ERC-1271 subscriber", () => {
  it("a smart wallet subscribes with its owner's signature, approves through execute, is paid in a USDT-like token and cancels", async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    await anvil().setBalance({ address: owner.address, value: 10n ** 20n });
    const ownerWallet = createWalletClient({ chain: devnet.chain, transport: http(devnet.rpcUrl), account: owner, pollingInterval: 20 });
    const deployed = await mined(
      await ownerWallet.deployContract({ abi: walletArtifact.abi, bytecode: walletArtifact.bytecode, args: [owner.address] }),
    );
    const smartWallet = getAddress(deployed.contractAddress!);
    const usdt = devnet.tokens.USDT;
    const usdtAbi = compiledContracts.TestUSDT.abi;
    await mined(await admin().writeContract({ address: usdt, abi: usdtAbi, functionName: "mint", args: [smartWallet, 1_000_000_000n] }));
    const execute = async (target: Address, data: Hex) =>
      mined(
        await ownerWallet.writeContract({ address: smartWallet, abi: walletArtifact.abi, functionName: "execute", args: [target, data] }),
      );

    const p = makePermit(await pastDueTimes(3), { subscriber: smartWallet, token: usdt });
    await execute(usdt, encodeFunctionData({ abi: usdtAbi, functionName: "approve", args: [contract, (AMOUNT + FEE) * 3n] }));

    const signature = await owner.signTypedData(schedulePermitTypedData(devnet.chainId, contract, p));
    const digest = hashTypedData(schedulePermitTypedData(devnet.chainId, contract, p));
    expect(
      await pub.readContract({
        address: smartWallet,
        abi: walletArtifact.abi,
        functionName: "isValidSignature",
        args: [digest, signature],
      }),
    ).toBe("0x1626ba7e");
    // The owner's key signs for the wallet; the wallet address is no EOA, and no other key passes.
    expect(await revertName(simulateTrigger(p, await sign(p, generatePrivateKey()), 1))).toBe("BadSignature");

    const payeeBefore = await balanceOf(usdt, devnet.accounts.payee.address);
    const receipt = await trigger(p, signature, 1);
    gasUsed["ERC-1271 subscriber, USDT-like, index 1"] = receipt.gasUsed;
    await trigger(p, signature, 2);
    expect(await balanceOf(usdt, devnet.accounts.payee.address)).toBe(payeeBefore + 2n * AMOUNT);
    expect(await balanceOf(usdt, smartWallet)).toBe(1_000_000_000n - 2n * (AMOUNT + FEE));
    expect(await balanceOf(usdt, contract)).toBe(0n);

    // The wallet itself is the subscriber, so it cancels through execute.
    const cancelled = await execute(contract, encodeFunctionData({ abi, functionName: "cancelSchedule", args: [p] }));
    const [event] = parseEventLogs({ abi, eventName: "ScheduleCancelled", logs: cancelled.logs });
    expect(event?.args.by).toBe(smartWallet);
    expect(await revertName(simulateTrigger(p, signature, 3))).toBe("ScheduleIsCancelled");
  });
});

describe("limits and calendars", () => {
  it("a 256-payment schedule (uint16) pays index 256 after 1..255, and nothing after", async () => {
    const n = MAX_SCHEDULE_PAYMENTS;
    const p = makePermit(await pastDueTimes(n, 600), { amount: 1_000n, feeAmount: 10n });
    const signature = await sign(p);
    await approveSchedule(p);
    const first = await trigger(p, signature, 1);
    gasUsed["256-payment schedule, index 1"] = first.gasUsed;

    // Sent back to back with a fixed nonce, gas and fee (anvil mines each on arrival): ~2 s, not 255 round trips each.
    const wallet = relayer();
    let nonce = await pub.getTransactionCount({ address: wallet.account.address });
    const block = await pub.getBlock();
    const maxFeePerGas = (block.baseFeePerGas ?? 1_000_000_000n) * 3n;
    let last: Hex = "0x";
    for (let index = 2; index <= n; index++) {
      last = await wallet.writeContract({
        address: contract,
        abi,
        functionName: "triggerPayment",
        args: [p, signature, index],
        nonce: nonce++,
        gas: 1_000_000n,
        maxFeePerGas,
        maxPriorityFeePerGas: 1n,
      });
    }
    const lastReceipt = await mined(last);
    gasUsed["256-payment schedule, index 256"] = lastReceipt.gasUsed;
    expect(await lastPaid(p)).toBe(n);
    expect(await revertName(simulateTrigger(p, signature, n))).toBe("AlreadyPaid");
    expect(await revertName(simulateTrigger(p, signature, n + 1))).toBe("IndexOutOfBounds");
    expect(await balanceOf(p.token, contract)).toBe(0n);
  }, 60_000);

  it("a MONTHLY schedule Jan 31 -> Feb 29 -> Mar 31 (leap year) pays at each due time and not one second before", async () => {
    const now = await chainTime(devnet.rpcUrl);
    let year = new Date(now * 1000).getUTCFullYear();
    while (!(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) || Date.UTC(year, 0, 31) / 1000 <= now + DAY) year++;
    const at = (month: number, day: number) => Date.UTC(year, month, day, 9, 30) / 1000;
    const dueTimes = [at(0, 31), at(1, 29), at(2, 31)];
    expect(dueTimes.map((t) => new Date(t * 1000).toISOString().slice(0, 10))).toEqual([`${year}-01-31`, `${year}-02-29`, `${year}-03-31`]);
    const p = makePermit(dueTimes);
    const signature = await sign(p);
    await approveSchedule(p);

    for (const [i, due] of dueTimes.entries()) {
      const index = i + 1;
      // One second early: mined, reverted, and the reason at that block is NotDueYet.
      await anvil().setNextBlockTimestamp({ timestamp: BigInt(due - 1) });
      const early = await pub.waitForTransactionReceipt({
        hash: await relayer().writeContract({
          address: contract,
          abi,
          functionName: "triggerPayment",
          args: [p, signature, index],
          gas: 500_000n,
        }),
      });
      expect(early.status).toBe("reverted");
      expect((await pub.getBlock({ blockNumber: early.blockNumber })).timestamp).toBe(BigInt(due - 1));
      expect(await revertName(pub.simulateContract({ ...triggerCall(p, signature, index), blockNumber: early.blockNumber }))).toBe(
        "NotDueYet",
      );
      expect(await lastPaid(p)).toBe(index - 1);

      // At the due second: paid.
      await anvil().setNextBlockTimestamp({ timestamp: BigInt(due) });
      const paid = await trigger(p, signature, index);
      expect((await pub.getBlock({ blockNumber: paid.blockNumber })).timestamp).toBe(BigInt(due));
      expect(await lastPaid(p)).toBe(index);
    }
  });
});

function triggerCall(p: SchedulePermit, signature: Hex, index: number) {
  return {
    account: devnet.accounts.relayer.address,
    address: contract,
    abi,
    functionName: "triggerPayment" as const,
    args: [p, signature, index] as const,
  };
}

describe("npm run devnet -- time", () => {
  it("parses +30d style shifts, ISO dates and @unix; refuses going back", () => {
    expect(parseClockTarget("+30d")).toEqual({ kind: "shift", seconds: 30 * DAY });
    expect(parseClockTarget("+1d12h")).toEqual({ kind: "shift", seconds: DAY + 12 * 3_600 });
    expect(parseClockTarget("+90m")).toEqual({ kind: "shift", seconds: 5_400 });
    expect(parseClockTarget("+2w")).toEqual({ kind: "shift", seconds: 14 * DAY });
    expect(parseClockTarget("2028-02-29")).toEqual({ kind: "at", timestamp: Date.UTC(2028, 1, 29) / 1000 });
    expect(parseClockTarget("2028-01-31T12:00:00Z")).toEqual({ kind: "at", timestamp: Date.UTC(2028, 0, 31, 12) / 1000 });
    expect(parseClockTarget("@1830000000")).toEqual({ kind: "at", timestamp: 1_830_000_000 });
    for (const bad of ["-1d", "+30", "+30x", "30d", "+0d", "soon"]) expect(() => parseClockTarget(bad), bad).toThrow();
  });

  it("finds the devnet: --rpc, else the rpcUrl in .data/devnet.json, else 127.0.0.1:8545", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "devnet-")), "devnet.json");
    expect(devnetRpcUrl(undefined, file)).toBe("http://127.0.0.1:8545");
    writeFileSync(file, JSON.stringify(devnet.chainConfig()));
    expect(devnetRpcUrl(undefined, file)).toBe(devnet.rpcUrl);
    expect(devnetRpcUrl("http://example.test:1", file)).toBe("http://example.test:1");
  });

  it("moves the running devnet's clock and mines a block at the new time", async () => {
    const before = await chainTime(devnet.rpcUrl);
    const tsx = path.join(process.cwd(), "node_modules", "tsx", "dist", "cli.mjs");
    const { stdout } = await promisify(execFile)(process.execPath, [tsx, "scripts/devnet/cli.ts", "time", "+30d", "--rpc", devnet.rpcUrl], {
      encoding: "utf8",
    });
    const after = await chainTime(devnet.rpcUrl);
    expect(after - before).toBeGreaterThanOrEqual(30 * DAY);
    expect(after - before).toBeLessThan(30 * DAY + 60);
    expect(stdout).toContain(`-> ${new Date(after * 1000).toISOString()}`);
  });
});
