import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { EVENT_TYPES, type EventType, sampleEvent } from "@/lib/events/catalog";
import type { WebhookAttempt, WebhookDelivery } from "@/lib/generated/prisma/client";
import { ulid } from "@/lib/ids";
import { activeWebhooks, getWebhookOrThrow, type Owner } from "@/lib/webhooks/endpoints";

/** What integrators see of deliveries: the owner-scoped views behind the /v1/webhook routes. */
export function toDeliveryDto(d: WebhookDelivery & { attemptLog?: WebhookAttempt[] }) {
  return {
    id: d.id,
    eventType: d.eventType,
    eventId: d.eventId,
    isTest: d.isTest,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.status === "pending" ? d.nextAttemptAt.toISOString() : null,
    lastStatus: d.lastStatus,
    lastError: d.lastError,
    createdAt: d.createdAt.toISOString(),
    attemptLog: (d.attemptLog ?? [])
      .sort((a, b) => a.attempt - b.attempt)
      .map((a) => ({
        attempt: a.attempt,
        startedAt: a.startedAt.toISOString(),
        latencyMs: a.latencyMs,
        statusCode: a.statusCode,
        error: a.error,
      })),
  };
}

/** POST /v1/webhook/test: one test delivery per active webhook of the owner; 404 when none. */
export async function sendTestDeliveries(owner: Owner, eventType: EventType): Promise<number> {
  const endpoints = await activeWebhooks(owner);
  if (endpoints.length === 0) throw notFound("No active webhook");
  for (const e of endpoints) await createTestDelivery(e.id, eventType);
  return endpoints.length;
}

export async function listDeliveries(owner: Owner, endpointId: string, limit: number) {
  const endpoint = await getWebhookOrThrow(owner, endpointId);
  const rows = await db().webhookDelivery.findMany({
    where: { endpointId: endpoint.id },
    orderBy: { createdAt: "desc" },
    take: limit,
    include: { attemptLog: true },
  });
  return { deliveries: rows.map(toDeliveryDto) };
}

export async function redeliverForOwner(owner: Owner, endpointId: string, deliveryId: string) {
  const endpoint = await getWebhookOrThrow(owner, endpointId);
  const found = await db().webhookDelivery.findFirst({ where: { id: deliveryId, endpointId: endpoint.id }, select: { id: true } });
  if (!found) throw notFound("Delivery not found");
  const updated = await redeliver(found.id);
  if (!updated) throw notFound("Delivery not found");
  return toDeliveryDto(updated);
}

/**
 * Sends a delivery again, due now, under the same delivery ID. Its attempt count is kept, so
 * x-duebill-retry-count stays truthful and a failure continues the backoff from where it was
 * (an exhausted delivery gets this one attempt). A live lease is left alone so an attempt in
 * flight is not duplicated. Returns null when the delivery does not exist.
 */
export async function redeliver(deliveryId: string, at: Date = now()): Promise<WebhookDelivery | null> {
  const { count } = await db().webhookDelivery.updateMany({ where: { id: deliveryId }, data: { status: "pending", nextAttemptAt: at } });
  return count === 0 ? null : db().webhookDelivery.findUnique({ where: { id: deliveryId } });
}

/** A test delivery (x-duebill-test: true), sent by the next sweep like any other. */
export async function createTestDelivery(endpointId: string, eventType: EventType, at: Date = now()): Promise<WebhookDelivery> {
  if (!EVENT_TYPES.includes(eventType)) throw new Error(`Unsupported test event type ${eventType}`);
  return db().webhookDelivery.create({
    data: {
      id: ulid(),
      endpointId,
      eventId: null,
      eventType,
      isTest: true,
      body: JSON.stringify(sampleEvent(eventType, at)),
      nextAttemptAt: at,
    },
  });
}
