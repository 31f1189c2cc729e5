import { recoverTypedDataAddress } from "viem";
import type { Principal } from "@/lib/auth/principal";
import { asHex, sameAddress } from "@/lib/chain/address";
import { approveTx } from "@/lib/chain/calldata";
import { publicClientFor } from "@/lib/chain/reader";
import { networkOf, tokenOf } from "@/lib/chain/stored";
import { db } from "@/lib/db";
import { AppError, invalidField, notFound } from "@/lib/errors";
import type { RecurringSchedule } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { formatAmount } from "@/lib/money";
import { advanceChainCancel, chainCancelView } from "@/lib/recurring/chain-cancel";
import { apiStatus, dunningView } from "@/lib/recurring/dunning-view";
import { evmRecurringChain } from "@/lib/recurring/evm-chain";
import { schedulePermitTypedData } from "@/lib/recurring/permit";
import { setSeriesStoppedOf } from "@/lib/recurring/request-recurrence";
import { permitOf, perPaymentCost, scheduleReferences } from "@/lib/recurring/stored";

const NOT_FOUND = "Recurring payment not found";

/** A refused action in the reference's words as the message, with `errors[]` still naming the field. */
const refused = (message: string) => new AppError("validation_failed", message, { errors: [{ field: "action", message }] });
/** Failures a payer or integrator cannot fix by unpausing: the permit itself is over. */
const FINAL_FAILURES: Record<string, string> = {
  deadline_passed:
    "the permit's deadline has passed; the payer can renew it on the subscription page (which resumes it), or create a new schedule",
  cancelled_on_chain: "the payer cancelled the schedule on chain; create a new schedule",
};

/** A failure no unpause or resume undoes: only a new schedule pays again. */
export const isFinalFailure = (failureCode: string | null): boolean => failureCode !== null && failureCode in FINAL_FAILURES;

/** The account's schedule, or 404 (another account's schedule is indistinguishable from none). */
async function ownSchedule(principal: Principal, id: string): Promise<RecurringSchedule> {
  const s = await db().recurringSchedule.findFirst({ where: { id, accountId: principal.accountId } });
  if (!s) throw notFound(NOT_FOUND);
  return s;
}

const iso = (unix: number) => new Date(unix * 1000).toISOString();

/** Next due date while payments remain and the schedule can still run. */
function nextPaymentDate(s: Pick<RecurringSchedule, "status" | "processedPayments" | "totalPayments" | "dueTimes">): string | null {
  if (s.status === "completed" || s.status === "cancelled" || s.processedPayments >= s.totalPayments) return null;
  return iso(s.dueTimes[s.processedPayments]!);
}

/**
 * Verifies the payer's permit signature: an EOA signature by ecrecover, a smart account's through
 * ERC-1271 `isValidSignature` on the network (viem's verifyTypedData does both), exactly as the
 * contract's SignatureChecker will when a payment is triggered.
 */
export async function signatureValid(s: RecurringSchedule, signature: `0x${string}`): Promise<boolean> {
  const { message, ...rest } = schedulePermitTypedData(s.chainId, asHex(s.contract), permitOf(s, await scheduleReferences(s.id)));
  const typed = { ...rest, message: { ...message } };
  const client = publicClientFor(networkOf(s));
  try {
    if (client) return await client.verifyTypedData({ ...typed, address: asHex(s.payer), signature, blockTag: "latest" });
    return sameAddress(await recoverTypedDataAddress({ ...typed, signature }), s.payer);
  } catch (err) {
    if (err instanceof Error && /fetch|timeout|HTTP request failed|ECONNREFUSED/i.test(err.message))
      throw new AppError("upstream_unavailable", "Could not reach the network to verify the signature; retry shortly");
    return false;
  }
}

/** POST /v2/payouts/recurring/{id}: the payer's signature activates a pending schedule. */
export async function activateSchedule(principal: Principal, id: string, permitSignature: string) {
  const s = await ownSchedule(principal, id);
  if (s.status === "active") throw new AppError("conflict", "Recurring payment is already active");
  if (s.status !== "pending") throw new AppError("conflict", `Recurring payment is ${s.status} and cannot be activated`);
  if (!(await signatureValid(s, asHex(permitSignature))))
    throw new AppError("validation_failed", "Invalid signature provided", {
      errors: [{ field: "permitSignature", message: "is not the payer's signature of this schedule's permit" }],
    });
  const moved = await db().recurringSchedule.updateMany({
    where: { id: s.id, status: "pending" },
    data: { status: "active", permitSignature, nextDueAt: new Date(s.dueTimes[0]! * 1000) },
  });
  if (moved.count !== 1) throw new AppError("conflict", "Recurring payment is already active");
  return { message: "Recurring payment activated successfully", id: s.id, status: "active" as const };
}

/** GET /v2/payouts/recurring/{id}. */
export async function getSchedule(principal: Principal, id: string) {
  const s = await ownSchedule(principal, id);
  const [requests, payments, dunning] = await Promise.all([
    db().paymentRequest.findMany({
      where: { recurringScheduleId: s.id },
      orderBy: { recurringIndex: "asc" },
      select: { id: true, paymentReference: true, recurringIndex: true, payments: { select: { txHash: true, blockTime: true } } },
    }),
    db().recurringPayment.findMany({ where: { scheduleId: s.id, status: "confirmed" }, orderBy: { index: "asc" } }),
    dunningView(s),
  ]);
  // A payment's date is its block's time (detection recorded it), so a devnet whose clock was moved shows chain dates.
  const blockTime = new Map(requests.flatMap((r) => r.payments.map((p) => [p.txHash.toLowerCase(), p.blockTime] as const)));
  const paidAt = (p: { txHash: string | null; confirmedAt: Date | null; createdAt: Date }) =>
    (p.txHash ? blockTime.get(p.txHash.toLowerCase()) : undefined) ?? p.confirmedAt ?? p.createdAt;
  const token = tokenOf(s);
  const amount = formatAmount(BigInt(s.amount.toFixed()), token.decimals);
  return {
    id: s.id,
    status: apiStatus(s),
    network: s.network,
    paymentCurrency: s.paymentCurrency,
    invoiceCurrency: s.invoiceCurrency,
    amount,
    payer: s.payer,
    payee: s.payee,
    frequency: s.frequency,
    startDate: s.startDate.toISOString(),
    totalPayments: s.totalPayments,
    processedPayments: s.processedPayments,
    lastPaymentDate: payments.length > 0 ? paidAt(payments[payments.length - 1]!).toISOString() : (s.lastPaymentAt?.toISOString() ?? null),
    nextPaymentDate: nextPaymentDate(s),
    deadline: iso(s.deadline),
    dueDates: s.dueTimes.map(iso),
    requests: requests.map((r) => ({ requestId: r.id, paymentReference: r.paymentReference, index: r.recurringIndex })),
    payments: payments.map((p) => ({
      id: p.id,
      index: p.index,
      amount,
      timestamp: paidAt(p).toISOString(),
      txHash: p.txHash,
    })),
    ...(s.failureCode
      ? { failureCode: s.failureCode, failureReason: s.failureReason, failureCount: s.failureCount }
      : { failureCount: s.failureCount }),
    ...(s.chainCancel ? { onChainCancel: chainCancelView(s) } : {}),
    ...dunning,
    createdAt: s.createdAt.toISOString(),
  };
}

/** PATCH /v2/payouts/recurring/{id} `{action}`. */
export async function manageSchedule(principal: Principal, id: string, action: string) {
  if (action !== "cancel" && action !== "unpause")
    throw new AppError("validation_failed", `Invalid action: ${action.slice(0, 40)}`, {
      errors: [{ field: "action", message: "must be cancel or unpause" }],
    });
  const s = await ownSchedule(principal, id);
  return action === "cancel" ? cancel(s) : unpause(s);
}

/**
 * Cancel: no payment is triggered any more. The database cancel comes first and always stands:
 * the executor only touches active schedules and re-checks that under the schedule's row lock
 * right before every broadcast (executor.ts), so this UPDATE either lands before a broadcast
 * (nothing is sent) or waits for it to be recorded (the on-chain cancel then replaces it at its
 * nonce). Then the relayer cancels the schedule on chain (cancelSchedule), here at once and, if
 * that fails, from the sweep until the contract says cancelled (chain-cancel.ts); `onChainCancel`
 * says where that stands. The returned approve(contract, 0) lets the payer take back the
 * remaining allowance.
 */
async function cancel(s: RecurringSchedule) {
  if (s.status === "cancelled") throw refused("Recurring payment is already cancelled");
  if (s.status === "completed") throw refused("Cannot cancel a completed recurring payment");
  // A schedule never activated: Duebill never held the payer's signature, the relayer cannot trigger it.
  const chainCancel = s.permitSignature ? ("pending" as const) : ("not_needed" as const);
  const moved = await db().recurringSchedule.updateMany({
    where: { id: s.id, status: s.status },
    data: { status: "cancelled", nextDueAt: null, leaseUntil: null, chainCancel },
  });
  if (moved.count !== 1) throw new AppError("conflict", "The recurring payment changed meanwhile; read it again");
  if (chainCancel === "pending") {
    // Never undoes the cancel above: a failure is recorded on the schedule and the sweep retries.
    await advanceChainCancel(evmRecurringChain(networkOf(s)), s.id).catch((err: unknown) =>
      log.warn("recurring on-chain cancel not attempted; the sweep retries", { scheduleId: s.id, err }),
    );
  }
  const after = await db().recurringSchedule.findUniqueOrThrow({ where: { id: s.id } });
  const remaining = after.totalPayments - after.processedPayments;
  const token = tokenOf(s);
  return {
    id: s.id,
    status: "cancelled" as const,
    onChainCancel: chainCancelView(after),
    transactions: [approveTx("evm", s.token, s.contract, 0n)],
    metadata: {
      remainingPayments: remaining,
      remainingAmount: formatAmount(perPaymentCost(s) * BigInt(remaining), token.decimals),
      processedPayments: after.processedPayments,
      totalPayments: after.totalPayments,
    },
  };
}

/** Unpause: back to active; every payment missed meanwhile is due now and is caught up in order. */
async function unpause(s: RecurringSchedule) {
  if (s.status !== "paused") throw refused("Recurring payment is not paused");
  const final = s.failureCode ? FINAL_FAILURES[s.failureCode] : undefined;
  if (final) throw refused(`Recurring payment cannot be resumed: ${final}`);
  return resume(s);
}

async function resume(s: RecurringSchedule) {
  const next = s.processedPayments < s.totalPayments ? new Date(s.dueTimes[s.processedPayments]! * 1000) : new Date();
  const moved = await db().recurringSchedule.updateMany({
    where: { id: s.id, status: "paused" },
    // A fresh grace period: the past-due payment is tried at once, then retried on the policy.
    data: { status: "active", failureCode: null, failureReason: null, nextDueAt: next, pastDueIndex: null, pastDueSince: null },
  });
  if (moved.count !== 1) throw new AppError("conflict", "The recurring payment changed meanwhile; read it again");
  return {
    id: s.id,
    status: "active" as const,
    metadata: { processedPayments: s.processedPayments, totalPayments: s.totalPayments, nextPaymentDate: next.toISOString() },
  };
}

const STOPPED = "recurrence_stopped";

/**
 * PATCH /v2/request/{requestId} `{isRecurrenceStopped}` (the reference's recurring-request switch).
 * On any request of a recurring request's series, true stops the series (no period is created
 * after it) and false resumes it (lib/recurring/request-recurrence.ts). On a request of a recurring
 * payout, true pauses the schedule (reason `recurrence_stopped`), false resumes it and catches up
 * what was missed.
 */
export async function setRecurrenceStopped(principal: Principal, requestId: string, stopped: boolean) {
  return stopOrResume(principal, { id: requestId }, stopped, "requestId");
}

/**
 * PATCH /v1/request/{paymentReference}/stop-recurrence (the reference's v1 route, 200 with an empty
 * body): isRecurrenceStopped true on the account's request with that payment reference.
 */
export async function stopRecurrenceByPaymentReference(principal: Principal, paymentReference: string): Promise<void> {
  if (!/^0x[0-9a-fA-F]{16}$/.test(paymentReference)) throw notFound("Request not found");
  await stopOrResume(principal, { paymentReference: paymentReference.toLowerCase() }, true, "paymentReference");
}

async function stopOrResume(principal: Principal, where: { id: string } | { paymentReference: string }, stopped: boolean, field: string) {
  const request = await db().paymentRequest.findFirst({
    where: { ...where, accountId: principal.accountId },
    select: { id: true, network: true, recurringScheduleId: true, recurrenceId: true },
  });
  if (!request) throw notFound("Request not found");
  if (request.recurrenceId) return setSeriesStoppedOf({ ...request, recurrenceId: request.recurrenceId }, stopped);
  if (!request.recurringScheduleId)
    throw invalidField(field, "is neither a recurring request nor part of a recurring payout; nothing to stop or resume");
  const requestId = request.id;
  const s = await ownSchedule(principal, request.recurringScheduleId);
  const view = (status: string) => ({ requestId, recurringPaymentId: s.id, isRecurrenceStopped: stopped, status });
  if (stopped) {
    if (s.status === "paused" && s.failureCode === STOPPED) return view("paused");
    if (s.status !== "active" && s.status !== "paused")
      throw invalidField("isRecurrenceStopped", `the recurring payout is ${s.status}; only an active or paused one can be stopped`);
    const moved = await db().recurringSchedule.updateMany({
      where: { id: s.id, status: s.status },
      data: { status: "paused", failureCode: STOPPED, failureReason: "Stopped by the payee (isRecurrenceStopped)" },
    });
    if (moved.count !== 1) throw new AppError("conflict", "The recurring payout changed meanwhile; read it again");
    return view("paused");
  }
  if (s.status === "active") return view("active");
  if (s.status !== "paused") throw invalidField("isRecurrenceStopped", `the recurring payout is ${s.status} and cannot be resumed`);
  const final = s.failureCode ? FINAL_FAILURES[s.failureCode] : undefined;
  if (final) throw invalidField("isRecurrenceStopped", `the recurring payout cannot be resumed: ${final}`);
  await resume(s);
  return view("active");
}
