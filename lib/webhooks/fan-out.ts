import { now as clockNow } from "@/lib/clock";
import { db } from "@/lib/db";
import { ORCHESTRATOR_EVENTS } from "@/lib/events/catalog";
import { ulid } from "@/lib/ids";

/**
 * Fan-out, step 1 of delivery: outbox events become one WebhookDelivery per matching active
 * endpoint. Events are claimed with FOR UPDATE SKIP LOCKED and marked in the same transaction,
 * and (endpointId, eventId) is unique, so any number of workers can run it at once.
 */
interface OutboxRow {
  id: string;
  accountId: string;
  clientId: string | null;
  type: string;
  /** The body, serialised once when the event was written (lib/events/outbox.ts). */
  payload: string;
}

/** Claims up to `limit` unfanned outbox events and creates their deliveries, in one transaction. */
export async function fanOutEvents(limit = 100, now: Date = clockNow()): Promise<{ events: number; deliveries: number }> {
  return db().$transaction(async (tx) => {
    const events = await tx.$queryRaw<OutboxRow[]>`
      UPDATE "OutboxEvent" SET "fannedOutAt" = ${now}
      WHERE id IN (
        SELECT id FROM "OutboxEvent" WHERE "fannedOutAt" IS NULL
        ORDER BY "createdAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING id, "accountId", "clientId", type, payload`;
    if (events.length === 0) return { events: 0, deliveries: 0 };
    const endpoints = await tx.webhookEndpoint.findMany({
      where: { active: true, accountId: { in: [...new Set(events.map((e) => e.accountId))] } },
      select: { id: true, accountId: true, clientId: true, scope: true },
    });
    const rows = events.flatMap((ev) => {
      // Orchestrator events (client_id.linked) go to the orchestrator's endpoints only; payment events to
      // the account's integrator endpoints: a client-scoped event to that client's, an account-wide one to all.
      const scope = (ORCHESTRATOR_EVENTS as readonly string[]).includes(ev.type) ? "orchestrator" : "integrator";
      const targets = endpoints.filter(
        (ep) => ep.accountId === ev.accountId && ep.scope === scope && (ev.clientId === null || ep.clientId === ev.clientId),
      );
      const body = ev.payload;
      return targets.map((ep) => ({ id: ulid(), endpointId: ep.id, eventId: ev.id, eventType: ev.type, body, nextAttemptAt: now }));
    });
    // skipDuplicates on (endpointId, eventId): a re-run never creates a second delivery.
    const created = rows.length > 0 ? (await tx.webhookDelivery.createMany({ data: rows, skipDuplicates: true })).count : 0;
    return { events: events.length, deliveries: created };
  });
}
