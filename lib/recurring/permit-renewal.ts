import { asHex } from "@/lib/chain/address";
import { publicClientFor } from "@/lib/chain/reader";
import { networkOf } from "@/lib/chain/stored";
import { now as clockNow } from "@/lib/clock";
import { db } from "@/lib/db";
import { AppError, invalidField, notFound } from "@/lib/errors";
import type { RecurringSchedule } from "@/lib/generated/prisma/client";
import { DEADLINE_GRACE_S } from "@/lib/recurring/create";
import { signatureValid } from "@/lib/recurring/manage";
import { schedulePermitTypedData } from "@/lib/recurring/permit";
import { permitOf, scheduleReferences } from "@/lib/recurring/stored";

/**
 * Renewing a schedule's permit from the payer's page (issue 32 item 3). The contract keys a
 * schedule's state by (subscriber, scheduleId) only, not by nonce or deadline
 * (contracts/src/DuebillRecurringPayments.sol), so the same permit re-signed with a later deadline
 * continues the schedule: payments already made stay made, the next index stays next. Only the
 * deadline changes; every other value of the permit is the one the payer signed first.
 */

const NOT_FOUND = "Subscription not found";
/** Offered when the permit ends within this long, or before a payment that is still due. */
export const RENEW_WINDOW_S = 7 * 86_400;
/** A renewed deadline may not reach further than this past the last due time. */
const MAX_EXTENSION_S = 366 * 86_400;

type Row = Pick<
  RecurringSchedule,
  "status" | "failureCode" | "processedPayments" | "totalPayments" | "dueTimes" | "deadline" | "nextDueAt" | "permitSignature"
>;

/** Unix seconds now on the app's clock (the devnet's when it is moved). */
const nowSec = () => Math.floor(clockNow().getTime() / 1000);

/**
 * Whether the permit ends before the schedule is done with it: a payment still due (or its next
 * retry) falls after the deadline, or the deadline is within RENEW_WINDOW_S while payments remain.
 */
export function permitNeedsRenewal(s: Row, at = nowSec()): boolean {
  if (!s.permitSignature || (s.status !== "active" && s.status !== "paused")) return false;
  if (s.processedPayments >= s.totalPayments) return false;
  if (s.status === "paused" && s.failureCode === "deadline_passed") return true;
  const lastDue = s.dueTimes[s.totalPayments - 1] ?? 0;
  const nextTry = s.nextDueAt ? Math.floor(s.nextDueAt.getTime() / 1000) : 0;
  return s.deadline < Math.max(lastDue, nextTry) || s.deadline - at < RENEW_WINDOW_S;
}

/** The deadline a renewal proposes: 30 days past the later of the last due time, the next try and now (and past the current one). */
export function renewedDeadline(s: Row, at = nowSec()): number {
  const lastDue = s.dueTimes[s.totalPayments - 1] ?? 0;
  const nextTry = s.nextDueAt ? Math.floor(s.nextDueAt.getTime() / 1000) : 0;
  return Math.max(Math.max(lastDue, nextTry, at) + DEADLINE_GRACE_S, s.deadline + DEADLINE_GRACE_S);
}

/** Now, as the later of the app's clock and the chain's (the contract checks the deadline against its block time). */
async function chainNowSec(s: RecurringSchedule): Promise<number> {
  const client = publicClientFor(networkOf(s));
  const block = client ? await client.getBlock({ blockTag: "latest" }).catch(() => null) : null;
  return Math.max(nowSec(), block ? Number(block.timestamp) : 0);
}

async function scheduleByToken(token: string): Promise<RecurringSchedule> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) throw notFound(NOT_FOUND);
  const s = await db().recurringSchedule.findUnique({ where: { payerToken: token } });
  if (!s) throw notFound(NOT_FOUND);
  return s;
}

function refuseUnlessRenewable(s: RecurringSchedule): void {
  if (s.failureCode === "cancelled_on_chain" || s.status === "cancelled")
    throw new AppError("conflict", "The subscription is cancelled; there is no permit to renew");
  if (s.status === "completed" || s.processedPayments >= s.totalPayments)
    throw new AppError("conflict", "Every payment of the subscription is made; there is no permit to renew");
  if (!s.permitSignature) throw new AppError("conflict", "The subscription is not active yet: sign its permit first");
}

/** JSON-safe typed data (uint values as decimal strings) of the permit with `deadline`. */
async function typedDataWith(s: RecurringSchedule, deadline: number) {
  const permit = permitOf({ ...s, deadline }, await scheduleReferences(s.id));
  const typed = schedulePermitTypedData(s.chainId, asHex(s.contract), permit);
  const message = Object.fromEntries(Object.entries(typed.message).map(([k, v]) => [k, typeof v === "bigint" ? v.toString() : v]));
  return { domain: typed.domain, types: typed.types, primaryType: typed.primaryType, message };
}

/** GET /v2/subscriptions/{token}/permit: the permit to re-sign, with the deadline the renewal proposes. */
export async function permitRenewalView(token: string) {
  const s = await scheduleByToken(token);
  refuseUnlessRenewable(s);
  const deadline = renewedDeadline(s, await chainNowSec(s));
  return {
    currentDeadline: new Date(s.deadline * 1000).toISOString(),
    deadline: String(deadline),
    expiresAt: new Date(deadline * 1000).toISOString(),
    needsRenewal: permitNeedsRenewal(s),
    typedData: await typedDataWith(s, deadline),
  };
}

/**
 * POST /v2/subscriptions/{token}/permit {deadline, signature}: the payer's signature of the same
 * permit with a later deadline replaces the stored pair (deadline, signature) in one update, guarded
 * by the deadline it replaces, so two renewals at once keep one and the executor never pairs a
 * deadline with another deadline's signature. A schedule paused because its deadline passed is
 * active again: the executor resumes it in order from its next unpaid payment.
 */
export async function renewPermit(token: string, body: { deadline: string; signature: string }) {
  const s = await scheduleByToken(token);
  refuseUnlessRenewable(s);
  if (!/^\d{1,12}$/.test(body.deadline)) throw invalidField("deadline", "must be unix seconds (digits)");
  if (!/^0x(?:[0-9a-fA-F]{2})+$/.test(body.signature)) throw invalidField("signature", "must be 0x-prefixed hex");
  const deadline = Number(body.deadline);
  const lastDue = s.dueTimes[s.totalPayments - 1] ?? 0;
  if (!Number.isSafeInteger(deadline) || deadline <= s.deadline)
    throw invalidField("deadline", "must be later than the current permit's deadline");
  const at = await chainNowSec(s);
  if (deadline <= at) throw invalidField("deadline", "must be in the future");
  if (deadline > Math.max(lastDue, at) + MAX_EXTENSION_S)
    throw invalidField("deadline", "must be at most 366 days after the last due time");
  if (!(await signatureValid({ ...s, deadline }, asHex(body.signature))))
    throw invalidField("signature", "is not the payer's signature of this subscription's permit with that deadline");
  const expired = s.status === "paused" && s.failureCode === "deadline_passed";
  const moved = await db().recurringSchedule.updateMany({
    where: { id: s.id, deadline: s.deadline, status: s.status },
    data: {
      deadline,
      permitSignature: body.signature,
      // As an unpause (manage.ts resume): every payment missed meanwhile is due now, caught up in order.
      ...(expired
        ? {
            status: "active",
            failureCode: null,
            failureReason: null,
            nextDueAt: new Date(s.dueTimes[s.processedPayments]! * 1000),
            pastDueIndex: null,
            pastDueSince: null,
          }
        : {}),
    },
  });
  if (moved.count !== 1) throw new AppError("conflict", "The permit was renewed meanwhile; reload the page");
  return { id: s.id, deadline: new Date(deadline * 1000).toISOString(), status: expired ? "active" : s.status };
}
