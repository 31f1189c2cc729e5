import { db } from "@/lib/db";
import { AppError, notFound } from "@/lib/errors";
import type { EventType } from "@/lib/events/catalog";
import type { WebhookEndpoint } from "@/lib/generated/prisma/client";
import { ulid } from "@/lib/ids";
import { activeWebhooks, checkRegistrableUrl, getWebhookOrThrow, type Owner } from "@/lib/webhooks/endpoints";
import { sendTestDeliveriesNow } from "@/lib/webhooks/manage-deliveries";
import { encryptSecret } from "@/lib/webhooks/secret-box";
import { generateWebhookSecret } from "@/lib/webhooks/sign";

/**
 * An orchestrator's webhooks (/v2/orchestrators/webhooks): WebhookEndpoint rows of its account
 * with scope "orchestrator" and no client ID, so the fan-out sends them the orchestrator events
 * (client_id.linked) and never an integrator's payment events. Same URL policy, secrets,
 * signatures and delivery engine as /v1/webhook. Deleting deactivates: the row stays listed
 * and PATCH reactivates it.
 */
const ownerOf = (orchestratorId: string): Owner => ({ accountId: orchestratorId, clientId: null, scope: "orchestrator" });

export function toOrchestratorWebhookDto(row: WebhookEndpoint) {
  return { id: row.id, url: row.url, isActive: row.active, createdAt: row.createdAt.toISOString() };
}

/** Registers `url`; the same URL twice for one orchestrator (active or not) is 409. */
export async function createOrchestratorWebhook(orchestratorId: string, url: string) {
  const { url: normalized, warning } = await checkRegistrableUrl(url);
  const secret = generateWebhookSecret();
  const row = await db().$transaction(async (tx) => {
    // One registration of a URL per orchestrator: concurrent registrations of it queue here.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`orchestrator-webhook:${orchestratorId}:${normalized}`}, 0))`;
    const existing = await tx.webhookEndpoint.findFirst({
      where: { accountId: orchestratorId, scope: "orchestrator", url: normalized },
      select: { id: true, active: true },
    });
    if (existing) {
      throw new AppError(
        "conflict",
        existing.active
          ? `This URL is already registered (webhook ${existing.id})`
          : `This URL is already registered (webhook ${existing.id}, inactive: PATCH /v2/orchestrators/webhooks/${existing.id} reactivates it)`,
      );
    }
    return tx.webhookEndpoint.create({
      data: {
        id: ulid(),
        accountId: orchestratorId,
        clientId: null,
        scope: "orchestrator",
        url: normalized,
        secretEnc: encryptSecret(secret),
      },
    });
  });
  return { webhook: toOrchestratorWebhookDto(row), secret, ...(warning ? { warning } : {}) };
}

export async function listOrchestratorWebhooks(orchestratorId: string) {
  const rows = await db().webhookEndpoint.findMany({
    where: { accountId: orchestratorId, scope: "orchestrator" },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return { webhooks: rows.map(toOrchestratorWebhookDto) };
}

/** DELETE deactivates (false), PATCH reactivates (true); either is idempotent. */
export async function setOrchestratorWebhookActive(orchestratorId: string, id: string, active: boolean) {
  const row = await getWebhookOrThrow(ownerOf(orchestratorId), id);
  const updated = row.active === active ? row : await db().webhookEndpoint.update({ where: { id: row.id }, data: { active } });
  return toOrchestratorWebhookDto(updated);
}

/** One test delivery per active webhook, attempted now: `sent` answered 2xx, `failed` did not. */
export async function testOrchestratorWebhooks(orchestratorId: string, eventType: EventType) {
  const endpoints = await activeWebhooks(ownerOf(orchestratorId));
  if (endpoints.length === 0) throw notFound("No active webhook");
  const attempts = await sendTestDeliveriesNow(endpoints, eventType);
  const sent = attempts.filter((a) => a.ok).length;
  return { sent, failed: attempts.length - sent };
}
