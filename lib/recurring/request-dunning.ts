import { type Address, getAddress, isAddress, type PublicClient, zeroAddress } from "viem";
import { FIAT_PATH_DECIMALS } from "@/lib/chain/conversion";
import { publicClientFor } from "@/lib/chain/reader";
import { tokenOf } from "@/lib/chain/stored";
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { requestPastDueEvent, requestUpcomingEvent } from "@/lib/events/request-dunning";
import { ulid } from "@/lib/ids";
import { log } from "@/lib/log";
import { formatAmount } from "@/lib/money";
import { type DunningPolicy, MAX_LEAD_SECONDS, mergePolicy } from "@/lib/recurring/dunning-policy";
import { plan } from "@/lib/recurring/lookahead";
import { positionKey, readPositions } from "@/lib/recurring/lookahead-reads";
import { periodLinkUrl } from "@/lib/recurring/period-link";
import { networkClock } from "@/lib/recurring/request-periods";
import { dueDateAt, type Frequency } from "@/lib/recurring/schedule";

/**
 * Dunning for recurring requests (issue 32 item 5). A recurring request has no pull: each period is
 * a request issued on its calendar date (request-periods.ts), which the payer pays by its link
 * whenever it likes. So there is no allowance to check, no transaction to hold back and nothing to
 * retry on chain; what a merchant needs is to hear of it, and the integrator owns the payer:
 *
 * - request.upcoming, at each of the account's reminder lead times (the dunning policy's, default
 *   3 days and 1 day) before a period is issued, once per (series, period, lead time). Where the
 *   request names its payer and the network is read here, the payer's token balance is read
 *   (batched, as the payouts' look-ahead) and a short one says `insufficient_balance` with the amount
 *   missing; otherwise `period_upcoming`.
 * - request.past_due, once per period request still not paid in full when the account's grace period
 *   (graceSeconds, default 7 days) after its due date is over: the payment terms of the invoice.
 *   Nothing is retried or paused (the request stays payable, a late payment is still detected and
 *   confirmed; the series goes on unless the merchant stops it). retryIntervals do not apply.
 *
 * Both run on the network's clock (as the periods) and are set-based: the reminders track their
 * progress on the series (reminderDue / reminderNextAt, as the payouts' lookaheadDue / lookaheadNextAt),
 * and the past-due events' dedupe key (the outbox's unique index) is their guard.
 */
export interface RequestDunningResult {
  reminders: number;
  pastDue: number;
}

const BATCH = 1_000;

/** Per network: the network time and the process time dunning last ran at (lead times are hours to days). */
const lastRun = new Map<string, { at: number; ms: number }>();

/**
 * One pass per network with a recurring request (the worker's `recurring` job and /api/cron/recurring,
 * after the periods are created), at most every 30 s of process time or minute of network time.
 */
export async function sweepRequestDunning(opts: { force?: boolean } = {}): Promise<Record<string, RequestDunningResult>> {
  const out: Record<string, RequestDunningResult> = {};
  const networks = await db().$queryRaw<{ network: string }[]>`
    SELECT DISTINCT o."network" FROM "RequestRecurrence" r JOIN "PaymentRequest" o ON o."id" = r."originalRequestId"`;
  for (const { network } of networks) {
    const at = await networkClock(network).catch(() => null);
    if (!at) continue; // without the network's time nothing is known to be due
    const last = lastRun.get(network);
    if (!opts.force && last && at.getTime() - last.at < 60_000 && Date.now() - last.ms < 30_000) continue;
    lastRun.set(network, { at: at.getTime(), ms: Date.now() });
    const client = publicClientFor(network as Parameters<typeof publicClientFor>[0]) ?? null;
    out[network] = await requestDunning(network, at, client).catch((err: unknown) => {
      log.warn("recurring requests: dunning failed", { network, err });
      return { reminders: 0, pastDue: 0 };
    });
  }
  return out;
}

interface SeriesRow {
  id: string;
  accountId: string;
  clientId: string | null;
  originalRequestId: string;
  nextIndex: number;
  nextDueAt: Date;
  amount: string;
  expectedAmount: string;
  isConversion: boolean;
  tokenAddress: string;
  payer: string | null;
  paymentCurrency: string;
  network: string;
}

export async function requestDunning(network: string, at: Date, client: PublicClient | null): Promise<RequestDunningResult> {
  const policies = new Map<string, Promise<DunningPolicy>>();
  const policy = (accountId: string) => {
    if (!policies.has(accountId))
      policies.set(
        accountId,
        db()
          .dunningSettings.findUnique({ where: { accountId } })
          .then((s) => mergePolicy(s, null)),
      );
    return policies.get(accountId)!;
  };
  return { reminders: await upcoming(network, at, client, policy), pastDue: await pastDue(network, at, policy) };
}

async function upcoming(network: string, at: Date, client: PublicClient | null, policy: (a: string) => Promise<DunningPolicy>) {
  let written = 0;
  let after = { due: at, id: "" };
  const until = new Date(at.getTime() + MAX_LEAD_SECONDS * 1000);
  for (;;) {
    const rows = await db().$queryRaw<SeriesRow[]>`
      SELECT r."id", r."accountId", r."clientId", r."originalRequestId", r."nextIndex", r."nextDueAt", o."amount",
        o."expectedAmount"::text AS "expectedAmount", o."isConversion", o."tokenAddress", o."payer", o."paymentCurrency", o."network"
      FROM "RequestRecurrence" r JOIN "PaymentRequest" o ON o."id" = r."originalRequestId"
      WHERE o."network" = ${network} AND r."stoppedAt" IS NULL AND r."nextDueAt" > ${at} AND r."nextDueAt" <= ${until}
        AND (r."nextDueAt", r."id") > (${after.due}, ${after.id})
        AND (r."reminderDue" IS DISTINCT FROM r."nextDueAt" OR r."reminderNextAt" <= ${at})
      ORDER BY r."nextDueAt", r."id" LIMIT ${BATCH}`;
    if (rows.length === 0) break;
    after = { due: rows[rows.length - 1]!.nextDueAt, id: rows[rows.length - 1]!.id };
    const chainTime = Math.floor(at.getTime() / 1000);
    const plans = await Promise.all(rows.map(async (r) => ({ r, ...plan(r, await policy(r.accountId), chainTime) })));
    const due = plans.filter((p) => p.lead !== null);
    const balances = await payerBalances(
      client,
      due.map((p) => p.r),
    );
    const events = due.map(({ r, lead }) => {
      const decimals = tokenOf(r).decimals;
      const balance = r.payer ? balances.get(positionKey(r.tokenAddress, r.payer)) : undefined;
      const owed = BigInt(r.expectedAmount);
      const short = balance !== undefined && !r.isConversion && balance < owed;
      return {
        id: ulid(),
        accountId: r.accountId,
        clientId: r.clientId,
        type: "request.upcoming",
        dedupeKey: `request.upcoming:${r.id}:${r.nextIndex}:${lead}`,
        requestId: null,
        payload: JSON.stringify(
          requestUpcomingEvent({
            recurringPaymentId: r.id,
            paymentIndex: r.nextIndex,
            originalRequestId: r.originalRequestId,
            reason: short ? "insufficient_balance" : "period_upcoming",
            amountMissing: short ? formatAmount(owed - balance!, decimals) : "0",
            amount: r.amount,
            paymentCurrency: r.paymentCurrency,
            network: r.network,
            payer: r.payer,
            dueDate: r.nextDueAt.toISOString(),
            leadTimeSeconds: lead!,
            timestamp: now().toISOString(),
          }),
        ),
      };
    });
    written += await insertEvents(events);
    // Progress after the events (a crash re-reads the batch; the dedupe key keeps each reminder single).
    await db().$executeRaw`
      UPDATE "RequestRecurrence" AS s SET "reminderDue" = s."nextDueAt", "reminderNextAt" = to_timestamp(v.next_at / 1000.0) AT TIME ZONE 'UTC'
      FROM unnest(${plans.map((p) => p.r.id)}::text[], ${plans.map((p) => p.r.nextDueAt.getTime())}::bigint[], ${plans.map((p) => p.nextAt.getTime())}::bigint[])
        AS v(id, due, next_at)
      WHERE s."id" = v.id AND s."nextDueAt" = to_timestamp(v.due / 1000.0) AT TIME ZONE 'UTC'`;
    if (rows.length < BATCH) break;
  }
  return written;
}

/** The payers' token balances, batched (Multicall3 or deployless); empty where the network is not read here. */
async function payerBalances(client: PublicClient | null, rows: SeriesRow[]) {
  if (!client) return new Map<string, bigint>();
  const pairs = rows
    .filter(
      (r) =>
        r.payer &&
        isAddress(r.payer, { strict: false }) &&
        !r.isConversion &&
        isAddress(r.tokenAddress, { strict: false }) &&
        getAddress(r.tokenAddress) !== zeroAddress,
    )
    .map((r) => ({ token: r.tokenAddress, owner: r.payer! }));
  if (pairs.length === 0) return new Map<string, bigint>();
  // The spender does not matter here (a request is paid by a transfer the payer signs): only balances are used.
  const read = await readPositions(client, zeroAddress as Address, pairs).catch(() => null);
  return new Map([...(read?.positions ?? new Map())].map(([k, v]) => [k, v.balance as bigint]));
}

interface OpenPeriod {
  id: string;
  paymentReference: string;
  recurrenceIndex: number;
  status: string;
  amount: string;
  expectedAmount: string;
  amountPaid: string;
  isConversion: boolean;
  payer: string | null;
  paymentCurrency: string;
  network: string;
  accountId: string;
  clientId: string | null;
  seriesId: string;
  startDate: Date;
  frequency: string;
  originalRequestId: string;
  linkToken: string | null;
}

async function pastDue(network: string, at: Date, policy: (a: string) => Promise<DunningPolicy>) {
  let written = 0;
  let after = "";
  for (;;) {
    // Period requests not paid in full and not yet reported (the outbox's unique dedupe key is the guard).
    const rows = await db().$queryRaw<OpenPeriod[]>`
      SELECT p."id", p."paymentReference", p."recurrenceIndex", p."status"::text AS "status", p."amount",
        p."expectedAmount"::text AS "expectedAmount", p."amountPaid"::text AS "amountPaid", p."isConversion", p."payer", p."paymentCurrency", p."network",
        p."accountId", p."clientId", r."id" AS "seriesId", r."startDate", r."frequency", r."originalRequestId",
        (SELECT l."securePaymentToken" FROM "SecurePaymentRequest" l WHERE l."requestId" = p."id" LIMIT 1) AS "linkToken"
      FROM "PaymentRequest" p JOIN "RequestRecurrence" r ON r."id" = p."recurrenceId"
      WHERE p."network" = ${network} AND p."status" <> 'paid' AND p."id" > ${after}
        AND NOT EXISTS (SELECT 1 FROM "OutboxEvent" e WHERE e."dedupeKey" = 'request.past_due:' || p."id")
      ORDER BY p."id" LIMIT ${BATCH}`;
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.id;
    const events = [];
    for (const p of rows) {
      const grace = (await policy(p.accountId)).graceSeconds;
      const due = dueDateAt(p.startDate, p.frequency as Frequency, p.recurrenceIndex - 1);
      const ends = new Date(due.getTime() + grace * 1000);
      if (ends.getTime() > at.getTime()) continue;
      // A conversion request's amounts are in the fiat path's decimals (EUR 100 = 10000000000).
      const decimals = p.isConversion ? FIAT_PATH_DECIMALS : tokenOf(p).decimals;
      const owed = BigInt(p.expectedAmount) - BigInt(p.amountPaid);
      events.push({
        id: ulid(),
        accountId: p.accountId,
        clientId: p.clientId,
        type: "request.past_due",
        dedupeKey: `request.past_due:${p.id}`,
        requestId: p.id,
        payload: JSON.stringify(
          requestPastDueEvent({
            requestId: p.id,
            paymentReference: p.paymentReference,
            originalRequestId: p.originalRequestId,
            recurringPaymentId: p.seriesId,
            paymentIndex: p.recurrenceIndex,
            reason: p.status === "partially_paid" ? "partially_paid" : "unpaid",
            amount: p.amount,
            amountMissing: formatAmount(owed > 0n ? owed : 0n, decimals),
            paymentCurrency: p.paymentCurrency,
            network: p.network,
            payer: p.payer,
            dueDate: due.toISOString(),
            gracePeriodEndsAt: ends.toISOString(),
            paymentUrl: periodLinkUrl(p.linkToken).securePaymentUrl ?? null,
            timestamp: now().toISOString(),
          }),
        ),
      });
    }
    written += await insertEvents(events);
    if (rows.length < BATCH) break;
  }
  return written;
}

type EventRow = {
  id: string;
  accountId: string;
  clientId: string | null;
  type: string;
  dedupeKey: string;
  requestId: string | null;
  payload: string;
};

/** The events in one statement; one already written (same dedupe key) is left as it was. */
async function insertEvents(events: EventRow[]): Promise<number> {
  if (events.length === 0) return 0;
  return db().$executeRaw`
    INSERT INTO "OutboxEvent" ("id", "accountId", "clientId", "type", "dedupeKey", "payload", "requestId")
    SELECT * FROM unnest(${events.map((e) => e.id)}::text[], ${events.map((e) => e.accountId)}::text[], ${events.map((e) => e.clientId)}::text[],
      ${events.map((e) => e.type)}::text[], ${events.map((e) => e.dedupeKey)}::text[], ${events.map((e) => e.payload)}::text[],
      ${events.map((e) => e.requestId)}::text[])
    ON CONFLICT ("dedupeKey") DO NOTHING`;
}
