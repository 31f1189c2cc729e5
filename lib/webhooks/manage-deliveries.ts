import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import type { WebhookAttempt, WebhookDelivery } from "@/lib/generated/prisma/client";
import { createTestDelivery, redeliver, type TestEventType } from "@/lib/webhooks/deliveries";
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
      .map((a) => ({ attempt: a.attempt, startedAt: a.startedAt.toISOString(), latencyMs: a.latencyMs, statusCode: a.statusCode, error: a.error })),
  };
}

/** POST /v1/webhook/test: one test delivery per active webhook of the owner; 404 when none. */
export async function sendTestDeliveries(owner: Owner, eventType: TestEventType): Promise<number> {
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
