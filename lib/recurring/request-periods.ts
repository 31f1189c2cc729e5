import { publicClientFor } from "@/lib/chain/reader";
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { writeOutboxEvent } from "@/lib/events/outbox";
import { requestRecurringEvent } from "@/lib/events/request-recurring";
import type { PaymentRequest, Prisma } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { computePaymentReference, computeRequestId, randomSalt, referenceTopic } from "@/lib/payments/reference";
import { createPeriodLink } from "@/lib/recurring/period-link";
import { dueDateAt, type Frequency } from "@/lib/recurring/schedule";

/**
 * The periods of recurring requests (POST /v2/request with `recurrence`). Period n of a series is
 * due at dueDateAt(startDate, frequency, n - 1): the recurring payouts' calendar (lib/recurring/schedule.ts,
 * docs/spec/DECISIONS.md "Calendar frequencies"). The original request is period 1; the sweep creates
 * each later one when its network's clock reaches its due date, as a normal request with its own
 * payment reference and its hosted payment link (period-link.ts), and writes its request.recurring
 * event in the same transaction.
 *
 * Exactly once, in order, never early, none after stop:
 * - one period per transaction, under the series' row lock (FOR UPDATE SKIP LOCKED): concurrent
 *   sweeps never work on one series at once, and a stop (an UPDATE of the same row) either commits
 *   before the period's transaction reads the row (nothing is created) or waits for it to commit;
 * - the period created is the series' `nextIndex`, which the same transaction advances, so periods
 *   come in calendar order; the unique (recurrenceId, recurrenceIndex) is the last guard;
 * - the due date is recomputed from the calendar and compared with the network's clock read before
 *   the sweep, which only moves forward;
 * - a crash anywhere rolls back the period's transaction whole (request, event, nextIndex): the next
 *   sweep creates that period then.
 */

/** A period's request as it was committed. */
export interface PeriodRef {
  seriesId: string;
  index: number;
  requestId: string;
  dueAt: Date;
}

export interface RequestPeriodSweepOptions {
  /** The network's "now" for due dates (default networkClock). */
  clock?: (network: string) => Promise<Date>;
  /** Series read per network per sweep. */
  limit?: number;
  /** Periods one series gets per sweep at most (after downtime, the rest come on the next sweeps). */
  maxPeriodsPerSeries?: number;
  /** Test hooks around a period's commit: a throw in `beforeCommit` rolls the period back, one in `afterCommit` comes after it. */
  beforeCommit?: (p: PeriodRef) => Promise<void> | void;
  afterCommit?: (p: PeriodRef) => Promise<void> | void;
}

export interface RequestPeriodSweepResult {
  created: number;
  errors: number;
}

/**
 * The calendar's clock for a network: the latest block's time where Duebill reads the chain (as the
 * recurring payouts' executor does, so warping a devnet runs recurring requests too), else the app
 * clock (lib/clock.ts; Tron, or an EVM network without an RPC).
 */
export async function networkClock(network: string): Promise<Date> {
  const client = publicClientFor(network as Parameters<typeof publicClientFor>[0]);
  if (!client) return now();
  const block = await client.getBlock({ blockTag: "latest" });
  return new Date(Number(block.timestamp) * 1000);
}

/** One pass over every network that has a running series (the worker's `recurring` job and /api/cron/recurring). */
export async function sweepRecurringRequests(opts: RequestPeriodSweepOptions = {}): Promise<Record<string, RequestPeriodSweepResult>> {
  const out: Record<string, RequestPeriodSweepResult> = {};
  const networks = await db().$queryRaw<{ network: string }[]>`
    SELECT DISTINCT o."network" FROM "RequestRecurrence" r JOIN "PaymentRequest" o ON o."id" = r."originalRequestId"
    WHERE r."nextDueAt" IS NOT NULL`;
  for (const { network } of networks) {
    let at: Date;
    try {
      at = await (opts.clock ?? networkClock)(network);
    } catch (err) {
      // Without the network's time nothing is known to be due: wait for the next sweep rather than guess.
      log.warn("recurring requests: the network's clock could not be read", { network, err });
      continue;
    }
    out[network] = await sweepNetwork(network, at, opts);
  }
  return out;
}

async function sweepNetwork(network: string, at: Date, opts: RequestPeriodSweepOptions): Promise<RequestPeriodSweepResult> {
  const result: RequestPeriodSweepResult = { created: 0, errors: 0 };
  const due = await db().$queryRaw<{ id: string }[]>`
    SELECT r."id" FROM "RequestRecurrence" r JOIN "PaymentRequest" o ON o."id" = r."originalRequestId"
    WHERE r."nextDueAt" <= ${at} AND o."network" = ${network}
    ORDER BY r."nextDueAt" LIMIT ${opts.limit ?? 200}`;
  for (const { id } of due) {
    try {
      for (let k = 0; k < (opts.maxPeriodsPerSeries ?? 50); k++) {
        const made = await createDuePeriod(id, at, opts);
        if (!made) break;
        result.created++;
        await opts.afterCommit?.(made);
      }
    } catch (err) {
      // Left as it was (the period's transaction rolled back): the next sweep tries again.
      result.errors++;
      log.warn("recurring requests: a period could not be created", { seriesId: id, err });
    }
  }
  return result;
}

interface SeriesRow {
  id: string;
  accountId: string;
  clientId: string | null;
  originalRequestId: string;
  frequency: string;
  startDate: Date;
  nextIndex: number;
}

/** Creates the series' next period if it is due at `at` and nobody else holds the series; null otherwise. */
async function createDuePeriod(seriesId: string, at: Date, opts: RequestPeriodSweepOptions): Promise<PeriodRef | null> {
  return db().$transaction(async (tx) => {
    const [s] = await tx.$queryRaw<SeriesRow[]>`
      SELECT "id", "accountId", "clientId", "originalRequestId", "frequency", "startDate", "nextIndex"
      FROM "RequestRecurrence" WHERE "id" = ${seriesId} AND "stoppedAt" IS NULL AND "nextDueAt" <= ${at}
      FOR UPDATE SKIP LOCKED`;
    if (!s) return null;
    const frequency = s.frequency as Frequency;
    const index = s.nextIndex;
    // The calendar decides, not a stored time alone.
    const dueAt = dueDateAt(s.startDate, frequency, index - 1);
    if (dueAt.getTime() > at.getTime()) {
      await tx.requestRecurrence.update({ where: { id: s.id }, data: { nextDueAt: dueAt } });
      return null;
    }
    const original = await tx.paymentRequest.findUniqueOrThrow({ where: { id: s.originalRequestId } });
    const row = periodRow(original, s.id, index, now());
    await tx.paymentRequest.create({ data: row });
    await createPeriodLink(tx, row);
    await writeOutboxEvent(tx, {
      accountId: s.accountId,
      clientId: s.clientId,
      type: "request.recurring",
      dedupeKey: `request.recurring:${s.id}:${index}`,
      requestId: row.id,
      payload: requestRecurringEvent({
        requestId: row.id,
        paymentReference: row.paymentReference,
        originalRequestId: original.id,
        recurringPaymentId: s.id,
        paymentIndex: index,
        amount: original.amount,
        paymentCurrency: original.paymentCurrency,
        network: original.network,
        timestamp: row.createdAt.toISOString(),
      }),
    });
    await tx.requestRecurrence.update({
      where: { id: s.id },
      data: { nextIndex: index + 1, nextDueAt: dueDateAt(s.startDate, frequency, index) },
    });
    const made = { seriesId: s.id, index, requestId: row.id, dueAt };
    await opts.beforeCommit?.(made);
    return made;
  });
}

type RequestRow = Prisma.PaymentRequestUncheckedCreateInput & { id: string; paymentReference: string; createdAt: Date };

/**
 * A period's request: the original's terms (payee, token, amount, fee, payer, reference, customer
 * info) with its own salt, request ID and payment reference, so it is paid and detected on its own.
 */
export function periodRow(original: PaymentRequest, seriesId: string, index: number, createdAt: Date): RequestRow {
  const salt = randomSalt();
  const id = computeRequestId({
    accountId: original.accountId,
    network: original.network,
    token: original.tokenAddress,
    payee: original.payee,
    amount: original.expectedAmount.toFixed(),
    salt,
    createdAt: createdAt.toISOString(),
  });
  const paymentReference = computePaymentReference(id, salt, original.payee);
  return {
    id,
    accountId: original.accountId,
    clientId: original.clientId,
    kind: original.kind,
    network: original.network,
    invoiceCurrency: original.invoiceCurrency,
    paymentCurrency: original.paymentCurrency,
    tokenAddress: original.tokenAddress,
    amount: original.amount,
    expectedAmount: original.expectedAmount,
    isConversion: original.isConversion,
    payee: original.payee,
    payer: original.payer,
    salt,
    paymentReference,
    referenceHash: referenceTopic(paymentReference),
    feePercentage: original.feePercentage,
    feeAddress: original.feeAddress,
    feeAmount: original.feeAmount,
    feeLegs: original.feeLegs ?? undefined,
    reference: original.reference,
    customerInfo: original.customerInfo ?? undefined,
    recurrenceId: seriesId,
    recurrenceIndex: index,
    createdAt,
  };
}
