import { hashTypedData, recoverTypedDataAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { permitDigest, permitEnvelope, type SchedulePermit, scheduleIdOf, schedulePermitTypedData } from "@/lib/recurring/permit";
import { typedDataToSign } from "@/lib/recurring/permit-signing";
import { dueTimes } from "@/lib/recurring/schedule";

const CONTRACT = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

function permitFor(subscriber: `0x${string}`): SchedulePermit {
  const times = dueTimes(new Date("2027-01-31T00:00:00Z"), "MONTHLY", 3);
  return {
    subscriber,
    token: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    recipient: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    feeAddress: "0x0000000000000000000000000000000000000000",
    amount: 25_000_000n,
    feeAmount: 0n,
    relayerFee: 0n,
    totalPayments: 3,
    nonce: 1n,
    deadline: BigInt(times[2]! + 86_400),
    scheduleId: scheduleIdOf("01KAZQ3Z8W9X3H6V3G7W2N4M5P"),
    dueTimes: times,
    paymentReferences: ["0xb3581f0b0f74cc61", "0x1111111111111111", "0x2222222222222222"],
  };
}

describe("recurring permit", () => {
  it("is signed as given and recovers to the subscriber; the envelope is JSON-safe", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const permit = permitFor(wallet.address);
    const typed = schedulePermitTypedData(8453, CONTRACT, permit);
    const signature = await wallet.signTypedData(typed);
    expect(await recoverTypedDataAddress({ ...typed, signature })).toBe(wallet.address);
    const envelope = JSON.parse(JSON.stringify(permitEnvelope(8453, CONTRACT, permit)));
    expect(envelope.domain).toEqual({ name: "DuebillRecurringPayments", version: "1", chainId: 8453, verifyingContract: CONTRACT });
    expect(envelope.values.amount).toBe("25000000");
    expect(envelope.values.dueTimes).toEqual(permit.dueTimes);
    // A client that signs the envelope it was given produces the same digest.
    const fromEnvelope = { ...envelope.values, amount: BigInt(envelope.values.amount), feeAmount: 0n, relayerFee: 0n, nonce: 1n };
    expect(permitDigest(8453, CONTRACT, { ...fromEnvelope, deadline: BigInt(envelope.values.deadline) })).toBe(
      permitDigest(8453, CONTRACT, permit),
    );
  });

  it("typedDataToSign turns the renewal's decimal strings back into the permit's bigints, past 2^53 too", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const permit = { ...permitFor(wallet.address), amount: 2n ** 120n + 1n, feeAmount: 9_007_199_254_740_993n, nonce: 2n ** 200n + 7n };
    const typed = schedulePermitTypedData(8453, CONTRACT, permit);
    // GET /v2/subscriptions/{token}/permit's wire format: the typed data with every bigint as a decimal string.
    const json = JSON.parse(JSON.stringify(typed, (_, v) => (typeof v === "bigint" ? v.toString() : v)));
    expect(json.message.amount).toBe("1329227995784915872903807060280344577");
    const toSign = typedDataToSign(json);
    expect(toSign.message).toEqual(permit);
    expect(hashTypedData(toSign)).toBe(permitDigest(8453, CONTRACT, permit));
    const signature = await wallet.signTypedData(toSign);
    expect(await recoverTypedDataAddress({ ...typed, signature })).toBe(wallet.address);
  });

  it("changes the digest with any due time or reference", () => {
    const permit = permitFor("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    const base = permitDigest(1, CONTRACT, permit);
    expect(
      permitDigest(1, CONTRACT, { ...permit, dueTimes: [permit.dueTimes[0]!, permit.dueTimes[1]! + 1, permit.dueTimes[2]!] }),
    ).not.toBe(base);
    expect(permitDigest(1, CONTRACT, { ...permit, paymentReferences: [...permit.paymentReferences].reverse() })).not.toBe(base);
  });
});

describe("generated ABI", () => {
  it("contracts/generated/abis.generated.ts holds the compiled contract's ABI (npm run contracts:compile writes both)", async () => {
    const { compiledContracts } = await import("@/contracts/generated/artifacts.generated");
    const { recurringPaymentsAbi } = await import("@/contracts/generated/abis.generated");
    expect(recurringPaymentsAbi).toEqual(compiledContracts.DuebillRecurringPayments.abi);
  });
});
