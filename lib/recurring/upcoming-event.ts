import { randomBytes } from "node:crypto";
import { formatEther } from "viem";
import { tokenOf } from "@/lib/chain/stored";
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { upcomingFailureEvent } from "@/lib/events/upcoming-failure";
import { ulid } from "@/lib/ids";
import { formatAmount } from "@/lib/money";
import type { LookaheadRow } from "@/lib/recurring/lookahead";

/** Why an upcoming payment would fail (the look-ahead's machine-readable reasons). */
export const UPCOMING_REASONS = ["insufficient_balance", "insufficient_allowance", "permit_expiring", "relayer_unfunded"] as const;
export type UpcomingReason = (typeof UPCOMING_REASONS)[number];

export interface Shortfall {
  schedule: LookaheadRow;
  index: number;
  /** The lead time (seconds before the due time) this warning is for. */
  lead: number;
  due: Date;
  reason: UpcomingReason;
  /** Token base units missing; wei of the network's gas token for relayer_unfunded; 0 for permit_expiring. */
  missing: bigint;
}

/** The payer's hosted page for a schedule (app/subscriptions/[token]). */
export const payerPageUrl = (token: string) => `${env().APP_URL.replace(/\/$/, "")}/subscriptions/${token}`;

/**
 * One `payment.upcoming_failure` per (schedule, period, lead time, reason), with its reminder row
 * (what the dashboard and the payer's page show), in one transaction per batch: the reminder rows
 * are inserted ON CONFLICT DO NOTHING and only those really inserted get their outbox event (whose
 * dedupe key is the same tuple), so concurrent or repeated look-aheads write each warning once.
 * Sent to the schedule's client ID's webhooks (else the account's), as payment.failed. Returns how
 * many were new. Set-based, so a look-ahead over 100 000 schedules is a few statements per batch.
 */
export async function writeUpcomingFailures(shortfalls: readonly Shortfall[]): Promise<number> {
  let written = 0;
  // Short transactions (2 000 warnings each): a mass shortfall never holds one transaction for long.
  for (let i = 0; i < shortfalls.length; i += CHUNK) written += await writeChunk(shortfalls.slice(i, i + CHUNK));
  return written;
}

const CHUNK = 2_000;

/**
 * One chunk: the payer tokens and the requests read in one statement each, then one transaction of
 * two statements (the reminder rows, then the outbox events of those really inserted), both
 * `INSERT … SELECT FROM unnest(…)`: the cost per warning is building its JSON, not a round trip.
 */
async function writeChunk(shortfalls: readonly Shortfall[]): Promise<number> {
  if (shortfalls.length === 0) return 0;
  const tokens = await ensurePayerTokens(shortfalls.map((f) => f.schedule));
  const requests = await requestsOf(shortfalls);
  const key = (id: string, index: number) => `${id}#${index}`;
  const rows = shortfalls.map((f) => ({ id: ulid(), f }));
  const decimalsOf = new Map<string, number>();
  const decimals = (s: LookaheadRow) => {
    const k = `${s.network}:${s.paymentCurrency}`;
    if (!decimalsOf.has(k)) decimalsOf.set(k, tokenOf(s).decimals);
    return decimalsOf.get(k)!;
  };
  return db().$transaction(
    async (tx) => {
      const inserted = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO "RecurringReminder" ("id", "scheduleId", "index", "leadSeconds", "reason", "missing", "dueAt")
      SELECT v.id, v.schedule_id, v.idx, v.lead, v.reason, v.missing::numeric, to_timestamp(v.due / 1000.0) AT TIME ZONE 'UTC'
      FROM unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.f.schedule.id)}::text[], ${rows.map((r) => r.f.index)}::int[],
        ${rows.map((r) => r.f.lead)}::int[], ${rows.map((r) => r.f.reason)}::text[], ${rows.map((r) => r.f.missing.toString())}::text[],
        ${rows.map((r) => r.f.due.getTime())}::bigint[]) AS v(id, schedule_id, idx, lead, reason, missing, due)
      ON CONFLICT ("scheduleId", "index", "leadSeconds", "reason") DO NOTHING
      RETURNING "id"`;
      const fresh = new Set(inserted.map((r) => r.id));
      const at = now().toISOString();
      const events = rows
        .filter((r) => fresh.has(r.id))
        .map(({ f }) => {
          const s = f.schedule;
          const request = requests.get(key(s.id, f.index));
          const gas = f.reason === "relayer_unfunded";
          return {
            id: ulid(),
            accountId: s.accountId,
            clientId: s.clientId,
            dedupeKey: `recurring:${s.id}:upcoming:${f.index}:${f.lead}:${f.reason}`,
            requestId: request?.id ?? null,
            payload: JSON.stringify(
              upcomingFailureEvent({
                recurringPaymentId: s.id,
                paymentIndex: f.index,
                requestId: request?.id ?? null,
                paymentReference: request?.paymentReference ?? null,
                reason: f.reason,
                amountMissing: gas ? formatEther(f.missing) : formatAmount(f.missing, decimals(s)),
                missingCurrency: gas ? `native-${s.network}` : s.paymentCurrency,
                amount: formatAmount(BigInt(s.cost), decimals(s)),
                paymentCurrency: s.paymentCurrency,
                network: s.network,
                payer: s.payer,
                dueDate: f.due.toISOString(),
                leadTimeSeconds: f.lead,
                payerUrl: payerPageUrl(tokens.get(s.id)!),
                timestamp: at,
              }),
            ),
          };
        });
      if (events.length > 0)
        await tx.$executeRaw`
        INSERT INTO "OutboxEvent" ("id", "accountId", "clientId", "type", "dedupeKey", "payload", "requestId")
        SELECT v.id, v.account_id, v.client_id, 'payment.upcoming_failure', v.dedupe_key, v.payload, v.request_id
        FROM unnest(${events.map((e) => e.id)}::text[], ${events.map((e) => e.accountId)}::text[], ${events.map((e) => e.clientId)}::text[],
          ${events.map((e) => e.dedupeKey)}::text[], ${events.map((e) => e.payload)}::text[], ${events.map((e) => e.requestId)}::text[])
          AS v(id, account_id, client_id, dedupe_key, payload, request_id)
        ON CONFLICT ("dedupeKey") DO NOTHING`;
      return events.length;
    },
    { timeout: 30_000 },
  );
}

/** The payment requests behind the warned payments (none for schedules made outside the API). */
async function requestsOf(shortfalls: readonly Shortfall[]) {
  const rows = await db().$queryRaw<{ id: string; paymentReference: string; recurringScheduleId: string; recurringIndex: number }[]>`
    SELECT r."id", r."paymentReference", r."recurringScheduleId", r."recurringIndex"
    FROM "PaymentRequest" r
    JOIN unnest(${shortfalls.map((f) => f.schedule.id)}::text[], ${shortfalls.map((f) => f.index)}::int[]) AS v(id, idx)
      ON r."recurringScheduleId" = v.id AND r."recurringIndex" = v.idx`;
  return new Map(rows.map((r) => [`${r.recurringScheduleId}#${r.recurringIndex}`, r]));
}

/** Schedules created before payer pages existed get their token with their first reminder. */
async function ensurePayerTokens(schedules: readonly LookaheadRow[]): Promise<Map<string, string>> {
  const out = new Map(schedules.filter((s) => s.payerToken).map((s) => [s.id, s.payerToken!]));
  const missing = [...new Set(schedules.filter((s) => !s.payerToken).map((s) => s.id))];
  if (missing.length > 0) {
    const fresh = missing.map(() => randomBytes(24).toString("base64url"));
    // One statement: a token another sweep set meanwhile is kept (COALESCE) and read back.
    const rows = await db().$queryRaw<{ id: string; payerToken: string }[]>`
      UPDATE "RecurringSchedule" AS s SET "payerToken" = COALESCE(s."payerToken", v.token)
      FROM unnest(${missing}::text[], ${fresh}::text[]) AS v(id, token)
      WHERE s."id" = v.id
      RETURNING s."id", s."payerToken"`;
    for (const r of rows) out.set(r.id, r.payerToken);
  }
  return out;
}
