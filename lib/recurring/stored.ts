import { type Address, type Hex, zeroAddress } from "viem";
import { asEvmAddress, asHex } from "@/lib/chain/address";
import { db } from "@/lib/db";
import type { SchedulePermit } from "@/lib/recurring/permit";

/** The schedule fields its permit is made of (a RecurringSchedule row). */
export interface PermitFields {
  id: string;
  payer: string;
  token: string;
  payee: string;
  feeAddress: string | null;
  amount: { toString(): string } | string;
  feeAmount: { toString(): string } | string;
  relayerFee?: { toString(): string } | string;
  totalPayments: number;
  nonce: string;
  deadline: number;
  scheduleId: string;
  dueTimes: readonly number[];
}

/**
 * The permit a stored schedule was signed as: the row plus its requests' payment references
 * (index order). One builder for creation (what the payer signs), activation (what is verified)
 * and the relayer (what is sent), so the three can never disagree.
 */
export function permitOf(s: PermitFields, paymentReferences: readonly string[]): SchedulePermit {
  return {
    subscriber: asEvmAddress(s.payer),
    token: asEvmAddress(s.token),
    recipient: asEvmAddress(s.payee),
    feeAddress: (s.feeAddress ? asEvmAddress(s.feeAddress) : zeroAddress) as Address,
    amount: BigInt(s.amount.toString()),
    feeAmount: BigInt(s.feeAmount.toString()),
    relayerFee: BigInt((s.relayerFee ?? "0").toString()),
    totalPayments: s.totalPayments,
    nonce: BigInt(s.nonce),
    deadline: BigInt(s.deadline),
    scheduleId: asHex(s.scheduleId) as Hex,
    dueTimes: [...s.dueTimes],
    paymentReferences: paymentReferences.map((r) => asHex(r) as Hex),
  };
}

/** The payment references of a schedule's requests, payment 1 first. */
export async function scheduleReferences(scheduleId: string): Promise<string[]> {
  const rows = await db().paymentRequest.findMany({
    where: { recurringScheduleId: scheduleId },
    orderBy: { recurringIndex: "asc" },
    select: { paymentReference: true },
  });
  return rows.map((r) => r.paymentReference);
}

/** What one payment of a schedule costs the payer (the contract pulls amount + fee + relayer fee). */
export function perPaymentCost(s: Pick<PermitFields, "amount" | "feeAmount" | "relayerFee">): bigint {
  return BigInt(s.amount.toString()) + BigInt(s.feeAmount.toString()) + BigInt((s.relayerFee ?? "0").toString());
}
