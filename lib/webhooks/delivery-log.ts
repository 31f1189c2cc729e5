import { db } from "@/lib/db";
import { getWebhookOrThrow, type Owner } from "@/lib/webhooks/endpoints";
import { redactKnownSecrets } from "@/lib/webhooks/redact";
import { decryptSecret } from "@/lib/webhooks/secret-box";

/** One attempt as the dashboard's webhook log shows it: what was sent and what came back, secrets masked. */
export interface LogAttempt {
  attempt: number;
  startedAt: string;
  latencyMs: number | null;
  statusCode: number | null;
  error: string | null;
  /** The headers sent, signature values masked; null for attempts recorded before headers were kept. */
  requestHeaders: Record<string, string> | null;
  responseBody: string | null;
  responseTruncated: boolean;
}

export interface LogDelivery {
  id: string;
  eventType: string;
  isTest: boolean;
  status: string;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  /** The exact body sent on every attempt (the request body). */
  requestBody: string;
  attemptLog: LogAttempt[];
}

export interface DeliveryLogPage {
  deliveries: LogDelivery[];
  page: number;
  pageSize: number;
  total: number;
  pageCount: number;
}

export const LOG_PAGE_SIZE = 10;

/**
 * One page of an endpoint's deliveries, newest first, with every attempt's request and response.
 * The stored response bodies were masked when written. The request body is Duebill's own event
 * (no credentials, shown as signed) but may carry text the merchant typed (its `reference`), so the
 * signing secret and `whsec_…` values are masked there too: nothing the log shows can hold a secret. A page past the end is
 * the last page. Another owner's endpoint: 404.
 */
export async function listDeliveryLog(owner: Owner, endpointId: string, page = 1, pageSize = LOG_PAGE_SIZE): Promise<DeliveryLogPage> {
  const endpoint = await getWebhookOrThrow(owner, endpointId);
  const where = { endpointId: endpoint.id };
  const total = await db().webhookDelivery.count({ where });
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pageCount);
  const rows = await db().webhookDelivery.findMany({
    where,
    // Delivery IDs are ULIDs made at creation: the tiebreak keeps pages stable within one millisecond.
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: (current - 1) * pageSize,
    take: pageSize,
    include: { attemptLog: { orderBy: { attempt: "asc" } } },
  });
  let secret: string[] = [];
  try {
    secret = [decryptSecret(endpoint.secretEnc)];
  } catch {
    // An undecryptable secret (APP_SECRET changed) cannot be in a body signed since.
  }
  return {
    page: current,
    pageSize,
    total,
    pageCount,
    deliveries: rows.map((d) => ({
      id: d.id,
      eventType: d.eventType,
      isTest: d.isTest,
      status: d.status,
      attempts: d.attempts,
      nextAttemptAt: d.status === "pending" ? d.nextAttemptAt.toISOString() : null,
      lastStatus: d.lastStatus,
      lastError: d.lastError,
      createdAt: d.createdAt.toISOString(),
      requestBody: redactKnownSecrets(d.body, secret),
      attemptLog: d.attemptLog.map((a) => ({
        attempt: a.attempt,
        startedAt: a.startedAt.toISOString(),
        latencyMs: a.latencyMs,
        statusCode: a.statusCode,
        error: a.error,
        requestHeaders: (a.requestHeaders as Record<string, string> | null) ?? null,
        responseBody: a.responseBody,
        responseTruncated: a.responseTruncated,
      })),
    })),
  };
}
