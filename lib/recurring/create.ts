import { randomBytes } from "node:crypto";
import type { Principal } from "@/lib/auth/principal";
import { parseAddressFor, sameAddress } from "@/lib/chain/address";
import type { NetworkRuntime } from "@/lib/chain/config";
import { chainReaderFor } from "@/lib/chain/reader";
import { db } from "@/lib/db";
import { invalidField } from "@/lib/errors";
import { ulid } from "@/lib/ids";
import { approvalsToReach } from "@/lib/payments/plan";
import { resolveTerms } from "@/lib/payments/terms";
import { permitEnvelope, scheduleIdOf } from "@/lib/recurring/permit";
import { recurringMissing } from "@/lib/recurring/relayer";
import {
  FREQUENCIES,
  type Frequency,
  MAX_PAYMENTS,
  MIN_PAYMENTS,
  parseStartDate,
  dueTimes as scheduleDueTimes,
} from "@/lib/recurring/schedule";
import { permitOf, perPaymentCost } from "@/lib/recurring/stored";
import { type CustomerInfo, ownerOf, requestData } from "@/lib/requests/create-request";

/** After the last due time, the permit stays valid this long, so a paused schedule can still catch up. */
export const DEADLINE_GRACE_S = 30 * 86_400;

export interface RecurrenceInput {
  startDate: string;
  frequency: string;
  totalPayments: number;
  payer: string;
}

export interface CreateRecurringInput {
  payee: string;
  amount: string;
  invoiceCurrency: string;
  paymentCurrency: string;
  feePercentage?: string;
  feeAddress?: string;
  recurrence: RecurrenceInput;
  customerInfo?: CustomerInfo;
  reference?: string;
}

/**
 * Where a schedule can run: an EVM network with a recurring contract, and a relayer key and an RPC
 * to trigger its payments (400 naming the network and what is missing otherwise).
 */
export function recurringContractFor(rt: NetworkRuntime): `0x${string}` {
  const network = rt.network.id;
  if (rt.network.kind !== "evm")
    throw invalidField(
      "paymentCurrency",
      "Recurring payouts are EVM-only: Tron has no recurring contract (its tokens have no EIP-712 permits); pick an EVM network",
    );
  const contract = rt.contracts.recurringPayments;
  if (!contract)
    throw invalidField(
      "paymentCurrency",
      `Recurring payouts are not available on ${network}: no recurring contract is configured there (deploy one with npm run contracts:deploy -- --network ${network} --relayer 0x… and set its address)`,
    );
  // Accepted, activated and then never paid is worse than refused: the relayer must be able to run it.
  const missing = recurringMissing(rt);
  if (missing.length > 0)
    throw invalidField(
      "paymentCurrency",
      `Recurring payouts are not available on ${network}: nothing there can trigger the payments (this server has no ${missing
        .map((m) => m.replace(/^an? /, ""))
        .join(", no ")} for ${network}); pick another network or ask the operator to configure it`,
    );
  return contract as `0x${string}`;
}

/**
 * POST /v2/payouts with `recurrence`: a pending schedule, one request per payment (each with its
 * own payment reference), and the permit the payer signs. The allowance the contract needs is
 * this schedule's total plus what the payer's other live schedules of the same token still owe;
 * an approval for it is returned when the current allowance is short.
 */
export async function createRecurringPayout(principal: Principal, body: CreateRecurringInput) {
  const r = body.recurrence;
  if (!Number.isInteger(r.totalPayments) || r.totalPayments < MIN_PAYMENTS || r.totalPayments > MAX_PAYMENTS)
    throw invalidField("recurrence.totalPayments", `must be an integer from ${MIN_PAYMENTS} to ${MAX_PAYMENTS}`);
  if (!(FREQUENCIES as readonly string[]).includes(r.frequency))
    throw invalidField("recurrence.frequency", `must be one of ${FREQUENCIES.join(", ")}`);
  const frequency = r.frequency as Frequency;
  const start = parseStartDate(r.startDate);
  const terms = resolveTerms(body);
  const contract = recurringContractFor(terms.runtime);
  const payer = parseAddressFor(terms.network, r.payer, "recurrence.payer");
  if (sameAddress(payer, terms.payee)) throw invalidField("recurrence.payer", "must differ from payee");
  if (terms.expectedAmount === 0n) throw invalidField("amount", "must be greater than 0");

  const times = scheduleDueTimes(start, frequency, r.totalPayments);
  if (times[times.length - 1]! + DEADLINE_GRACE_S >= 2 ** 32)
    throw invalidField("recurrence.startDate", "the schedule must end before 2106");
  const id = ulid();
  const chainId = terms.runtime.network.chainId;
  const requests = times.map((_, i) => ({
    ...requestData(principal, "payout", terms, { payer, reference: body.reference, customerInfo: body.customerInfo }),
    recurringScheduleId: id,
    recurringIndex: i + 1,
  }));
  const schedule = {
    id,
    ...ownerOf(principal),
    network: terms.network,
    chainId,
    contract,
    token: terms.token.address,
    invoiceCurrency: terms.invoiceCurrency,
    paymentCurrency: terms.paymentCurrency,
    frequency,
    startDate: start,
    payer,
    payee: terms.payee,
    amount: terms.expectedAmount.toString(),
    feeAmount: terms.feeAmount.toString(),
    feeAddress: terms.feeAddress,
    relayerFee: "0",
    totalPayments: r.totalPayments,
    dueTimes: times,
    deadline: times[times.length - 1]! + DEADLINE_GRACE_S,
    nonce: BigInt(`0x${randomBytes(32).toString("hex")}`).toString(),
    scheduleId: scheduleIdOf(id),
  };
  const permit = permitOf(
    schedule,
    requests.map((q) => q.paymentReference),
  );
  const perPayment = perPaymentCost(schedule);
  const thisSchedule = perPayment * BigInt(r.totalPayments);

  // Read the chain before writing, so an RPC failure leaves nothing behind.
  const existing = await committedByPayer(terms.network, terms.token.address, payer, contract);
  const needed = existing + thisSchedule;
  const reader = chainReaderFor(terms.runtime);
  const current = reader ? await reader.allowance(terms.token.address, payer, contract) : 0n;
  const transactions = approvalsToReach("evm", terms.token.address, contract, current, needed, terms.token.approveResetRequired ?? false);

  await db().$transaction(async (tx) => {
    // payerToken: the payer's hosted page (/subscriptions/{token}), linked from every reminder.
    await tx.recurringSchedule.create({ data: { ...schedule, status: "pending", payerToken: randomBytes(24).toString("base64url") } });
    await tx.paymentRequest.createMany({ data: requests });
  });
  return {
    id,
    status: "pending" as const,
    recurringPaymentPermit: permitEnvelope(chainId, contract, permit),
    transactions,
    metadata: {
      stepsRequired: transactions.length + 1,
      totalNeededAllowance: needed.toString(),
      currentAllowance: current.toString(),
      additionalAllowanceNeeded: (needed > current ? needed - current : 0n).toString(),
      existingPaymentsAmount: existing.toString(),
      perPaymentAmount: perPayment.toString(),
      dueDates: times.map((t) => new Date(t * 1000).toISOString()),
      requests: requests.map((q) => ({ requestId: q.id, paymentReference: q.paymentReference })),
    },
  };
}

/** What the payer's other live (active or paused) schedules of this token still pull through the contract. */
async function committedByPayer(network: string, token: string, payer: string, contract: string): Promise<bigint> {
  const rows = await db().$queryRaw<{ owed: string | null }[]>`
    SELECT SUM(("amount" + "feeAmount" + "relayerFee") * ("totalPayments" - "processedPayments"))::text AS "owed"
    FROM "RecurringSchedule"
    WHERE "network" = ${network} AND lower("token") = lower(${token}) AND lower("payer") = lower(${payer})
      AND lower("contract") = lower(${contract}) AND "status" IN ('active', 'paused')`;
  return BigInt(rows[0]?.owed ?? "0");
}
