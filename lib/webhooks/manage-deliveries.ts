import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError, notFound } from "@/lib/errors";
import { TEST_EVENT_TYPES, type TestEventType } from "@/lib/events/catalog";
import { sampleEvent } from "@/lib/events/samples";
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from "@/lib/generated/prisma/client";
import { ulid } from "@/lib/ids";
import { RETRY_DELAYS_MS } from "@/lib/webhooks/deliver";
import { activeWebhooks, getWebhookOrThrow, type Owner } from "@/lib/webhooks/endpoints";
import { type PostResult, postWebhook } from "@/lib/webhooks/http-post";
import { attemptExchange } from "@/lib/webhooks/redact";
import { webhookResolver } from "@/lib/webhooks/resolver";
import { decryptSecret } from "@/lib/webhooks/secret-box";
import { deliveryHeaders } from "@/lib/webhooks/sign";

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

/**
 * The dashboard's "Send test event" beside one endpoint: one test delivery to it, attempted at once
 * (sendTestDeliveriesNow), so the answer says what the receiver did. Another owner's endpoint: 404;
 * a disabled one: 409 (its deliveries would fail without being sent).
 */
export async function sendTestToEndpoint(owner: Owner, endpointId: string, eventType: TestEventType): Promise<ImmediateAttempt> {
  const endpoint = await getWebhookOrThrow(owner, endpointId);
  if (!endpoint.active) throw new AppError("conflict", "This webhook is disabled: enable it to send a test event");
  const [attempt] = await sendTestDeliveriesNow([endpoint], eventType);
  return attempt!;
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

/**
 * A test delivery (x-duebill-test: true), sent by the next sweep like any other; created with a
 * `leaseUntil`, no sweep claims it before then (sendTestDeliveriesNow attempts it itself).
 */
export async function createTestDelivery(
  endpointId: string,
  eventType: TestEventType,
  at: Date = now(),
  leaseUntil: Date | null = null,
): Promise<WebhookDelivery> {
  if (!TEST_EVENT_TYPES.includes(eventType)) throw new Error(`Unsupported test event type ${eventType}`);
  return db().webhookDelivery.create({
    data: {
      id: ulid(),
      endpointId,
      eventId: null,
      eventType,
      isTest: true,
      body: JSON.stringify(sampleEvent(eventType, at)),
      nextAttemptAt: at,
      leaseUntil,
    },
  });
}

/** The lease of a delivery attempted in the request outlives the HTTP deadline by this much. */
const IMMEDIATE_LEASE_MARGIN_MS = 30_000;

export interface ImmediateAttempt {
  deliveryId: string;
  endpointId: string;
  /** The receiver answered 2xx. */
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/**
 * One test delivery per endpoint, attempted before returning (POST /v2/orchestrators/webhooks/test
 * answers with what happened). Each delivery is created already leased, so no sweep sends it
 * while this attempt is in flight; it is POSTed with the headers lib/webhooks/deliver.ts sends
 * (same signatures, same SSRF-safe postWebhook) and the attempt is recorded as a sweep records
 * one: an attempt row, and succeeded, or pending with the first retry delay (the engine then
 * retries it like any delivery). A process that dies mid-attempt leaves a lease that runs out,
 * after which a sweep sends the same delivery (at-least-once).
 */
export async function sendTestDeliveriesNow(endpoints: WebhookEndpoint[], eventType: TestEventType): Promise<ImmediateAttempt[]> {
  const { WEBHOOK_TIMEOUT_MS: timeoutMs, WEBHOOK_ALLOW_PRIVATE: allowPrivate, SERVICE_NAME: service } = env();
  const resolve = webhookResolver();
  return Promise.all(
    endpoints.map(async (endpoint): Promise<ImmediateAttempt> => {
      const at = now();
      const leaseUntil = new Date(at.getTime() + timeoutMs + IMMEDIATE_LEASE_MARGIN_MS);
      const delivery = await createTestDelivery(endpoint.id, eventType, at, leaseUntil);
      const startedAt = now();
      const t0 = performance.now();
      let outcome: PostResult;
      let secret: string | null = null;
      let headers: Record<string, string> | null = null;
      try {
        secret = decryptSecret(endpoint.secretEnc);
        const bytes = Buffer.from(delivery.body, "utf8");
        headers = deliveryHeaders({
          service,
          secret,
          body: bytes,
          deliveryId: delivery.id,
          retryCount: 0,
          isTest: true,
          at: startedAt,
          referenceHeaders: env().WEBHOOK_REFERENCE_HEADERS,
        });
        outcome = await postWebhook({ url: endpoint.url, body: bytes, headers, timeoutMs, allowPrivate, resolve });
      } catch (err) {
        outcome = {
          statusCode: null,
          latencyMs: Math.round(performance.now() - t0),
          error: err instanceof Error ? err.message : String(err),
        };
      }
      const ok = outcome.error === null;
      const error = outcome.error?.slice(0, 500) ?? null;
      const exchange = attemptExchange(headers, outcome.responseBytes, secret);
      const done = now();
      await db().$transaction(async (tx) => {
        const { count } = await tx.webhookDelivery.updateMany({
          where: { id: delivery.id, leaseUntil, attempts: 0 },
          data: {
            status: ok ? "succeeded" : "pending",
            attempts: 1,
            nextAttemptAt: ok ? done : new Date(done.getTime() + RETRY_DELAYS_MS[0]),
            leaseUntil: null,
            lastStatus: outcome.statusCode,
            lastError: error,
          },
        });
        if (count === 0) return; // the lease ran out and a sweep took the delivery over
        await tx.webhookAttempt.create({
          data: {
            id: ulid(),
            deliveryId: delivery.id,
            attempt: 1,
            startedAt,
            latencyMs: outcome.latencyMs,
            statusCode: outcome.statusCode,
            error,
            ...exchange,
            requestHeaders: exchange.requestHeaders ?? undefined,
          },
        });
      });
      return { deliveryId: delivery.id, endpointId: endpoint.id, ok, statusCode: outcome.statusCode, error };
    }),
  );
}
