import { now as clockNow } from "@/lib/clock";
import { db } from "@/lib/db";
import { ORCHESTRATOR_EVENTS } from "@/lib/events/catalog";
import { ulid } from "@/lib/ids";

/**
 * Fan-out, step 1 of delivery: outbox events become one WebhookDelivery per matching active
 * endpoint. ONE statement claims the events (FOR UPDATE SKIP LOCKED), marks them and inserts
 * their deliveries with INSERT … SELECT joined to the endpoints, so an event with 10 000
 * endpoints costs one round trip and no row passes through this process; (endpointId, eventId)
 * is unique (ON CONFLICT … DO NOTHING), so any number of workers can run it at once and a re-run
 * never creates a second delivery. The statement is atomic: the events are marked if and only if
 * their deliveries exist.
 *
 * Delivery IDs are ULIDs: the first 18 characters (48-bit time, 40 random bits) of one ulid()
 * per call, then the row's number in the statement as 8 Crockford base32 digits, so every ID in
 * a call differs and IDs of different calls differ by their random part. A collision of two calls'
 * prefixes (same millisecond, same 40 random bits) violates the primary key (not the conflict
 * target): the statement fails, nothing is marked, and the next sweep fans the events out again.
 *
 * Routing: orchestrator events (client_id.linked) go to the orchestrator's endpoints only; payment
 * events to the account's integrator endpoints: a client-scoped event to that client's, an
 * account-wide one to all.
 */
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** Claims up to `limit` unfanned outbox events and creates their deliveries, in one statement. */
export async function fanOutEvents(limit = 100, now: Date = clockNow()): Promise<{ events: number; deliveries: number }> {
  const prefix = ulid(now.getTime()).slice(0, 18);
  const orchestratorEvents = [...ORCHESTRATOR_EVENTS] as string[];
  const [row] = await db().$queryRaw<{ events: number; deliveries: number }[]>`
    WITH ev AS (
      UPDATE "OutboxEvent" SET "fannedOutAt" = ${now}
      WHERE id IN (
        SELECT id FROM "OutboxEvent" WHERE "fannedOutAt" IS NULL
        ORDER BY "createdAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING id, "accountId", "clientId", type, payload
    ), t AS (
      SELECT ep.id AS endpoint_id, ev.id AS event_id, ev.type, ev.payload, row_number() OVER () - 1 AS n
      FROM ev JOIN "WebhookEndpoint" ep ON ep."accountId" = ev."accountId" AND ep.active
        AND ep.scope = (CASE WHEN ev.type = ANY(${orchestratorEvents}::text[]) THEN 'orchestrator' ELSE 'integrator' END)::"WebhookScope"
        AND (ev."clientId" IS NULL OR ep."clientId" = ev."clientId")
    ), ins AS (
      INSERT INTO "WebhookDelivery" (id, "endpointId", "eventId", "eventType", body, "nextAttemptAt", "updatedAt")
      SELECT ${prefix} || (SELECT string_agg(substr(${CROCKFORD}, ((t.n >> (35 - 5 * k)) & 31)::int + 1, 1), '' ORDER BY k)
                           FROM generate_series(0, 7) k),
        t.endpoint_id, t.event_id, t.type, t.payload, ${now}, ${clockNow()}
      FROM t
      ON CONFLICT ("endpointId", "eventId") DO NOTHING
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM ev)::int AS events, (SELECT count(*) FROM ins)::int AS deliveries`;
  return { events: row?.events ?? 0, deliveries: row?.deliveries ?? 0 };
}
