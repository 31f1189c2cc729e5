import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { invalidField, notFound } from "@/lib/errors";
import type { WebhookEndpoint } from "@/lib/generated/prisma/client";
import type { WebhookScope } from "@/lib/generated/prisma/enums";
import { ulid } from "@/lib/ids";
import { localUrlWarning, webhookUrlPolicy } from "@/lib/webhooks/policy";
import { webhookResolver } from "@/lib/webhooks/resolver";
import { encryptSecret } from "@/lib/webhooks/secret-box";
import { generateWebhookSecret } from "@/lib/webhooks/sign";
import { checkWebhookUrl, isForbiddenIp, isIpLiteral, isLoopbackIp } from "@/lib/webhooks/url-policy";

/**
 * Webhook endpoints belong to an account and a client ID. A client-ID caller sees only that
 * client ID's endpoints; a session sees its account's (and names the client ID on create).
 * Another owner's endpoint answers 404, like a missing one.
 */
export interface Owner {
  accountId: string;
  clientId: string | null;
  /** integrator (default): /v1/webhook endpoints; orchestrator: /v2/orchestrators/webhooks endpoints. */
  scope?: WebhookScope;
}

export async function ownerFor(principal: Principal, clientId: string | undefined): Promise<Owner> {
  if (principal.kind === "clientId") {
    if (clientId !== undefined && clientId !== principal.clientId) throw invalidField("clientId", "must be the x-client-id of the request");
    return { accountId: principal.accountId, clientId: principal.clientId };
  }
  if (clientId === undefined) return { accountId: principal.accountId, clientId: null };
  const found = await db().clientId.findFirst({ where: { id: clientId, accountId: principal.accountId }, select: { id: true } });
  if (!found) throw notFound("Client ID not found");
  return { accountId: principal.accountId, clientId: found.id };
}

const ownerWhere = (o: Owner) => ({
  accountId: o.accountId,
  scope: o.scope ?? ("integrator" as const),
  ...(o.clientId ? { clientId: o.clientId } : {}),
});

/** URL policy at registration: the URL's form, then every address its host resolves to. */
export async function assertDeliverableUrl(url: string): Promise<string> {
  return (await checkRegistrableUrl(url)).url;
}

/**
 * assertDeliverableUrl, and — when only a local-development policy (lib/webhooks/policy.ts)
 * accepts the URL — the warning the 201 carries, so the developer knows production would refuse it.
 */
export async function checkRegistrableUrl(url: string): Promise<{ url: string; warning?: string }> {
  const policy = webhookUrlPolicy();
  const checked = checkWebhookUrl(url, policy);
  if (!checked.ok) throw invalidField("url", checked.reason);
  let local = !checkWebhookUrl(url, { allowPrivate: false }).ok;
  const host = checked.url.hostname.replace(/^\[|\]$/g, "");
  if (!policy.allowPrivate && !isIpLiteral(host)) {
    let addresses: { address: string }[];
    try {
      addresses = await webhookResolver()(host);
    } catch {
      throw invalidField("url", `host ${host} does not resolve`);
    }
    if (addresses.length === 0) throw invalidField("url", `host ${host} does not resolve`);
    // Under `npm run dev` a name may resolve to this machine (localhost, a *.localhost name): never to another private address.
    const refused = addresses.filter((a) => isForbiddenIp(a.address) && !(policy.allowLoopback && isLoopbackIp(a.address)));
    if (refused.length > 0) throw invalidField("url", `host ${host} resolves to a private or reserved address`);
    local ||= addresses.some((a) => isForbiddenIp(a.address));
  }
  return { url: checked.url.toString(), ...(local ? { warning: localUrlWarning(policy) } : {}) };
}

export function toWebhookDto(row: WebhookEndpoint) {
  return { id: row.id, url: row.url, active: row.active, clientId: row.clientId, createdAt: row.createdAt.toISOString() };
}

export async function createWebhook(
  owner: Owner,
  url: string,
): Promise<{ id: string; secret: string; warning?: string } & ReturnType<typeof toWebhookDto>> {
  if (!owner.clientId) throw invalidField("clientId", "is required when signed in with a session");
  const { url: normalized, warning } = await checkRegistrableUrl(url);
  // As the reference: one registration per URL and client ID (a second would double every delivery).
  const existing = await db().webhookEndpoint.findFirst({
    where: { accountId: owner.accountId, clientId: owner.clientId, url: normalized },
    select: { id: true },
  });
  if (existing) throw invalidField("url", `a webhook with this URL is already registered (${existing.id})`);
  const secret = generateWebhookSecret();
  const row = await db().webhookEndpoint.create({
    data: { id: ulid(), accountId: owner.accountId, clientId: owner.clientId, url: normalized, secretEnc: encryptSecret(secret) },
  });
  return { ...toWebhookDto(row), secret, ...(warning ? { warning } : {}) };
}

export async function listWebhooks(owner: Owner) {
  const rows = await db().webhookEndpoint.findMany({ where: ownerWhere(owner), orderBy: { createdAt: "asc" } });
  return { webhooks: rows.map(toWebhookDto) };
}

export async function getWebhookOrThrow(owner: Owner, id: string): Promise<WebhookEndpoint> {
  const row = await db().webhookEndpoint.findFirst({ where: { id, ...ownerWhere(owner) } });
  if (!row) throw notFound("Webhook not found");
  return row;
}

/** PUT /v1/webhook/{id}: sets `active`, or toggles it when the body omits it. */
export async function setWebhookActive(owner: Owner, id: string, active: boolean | undefined) {
  const row = await getWebhookOrThrow(owner, id);
  const updated = await db().webhookEndpoint.update({ where: { id: row.id }, data: { active: active ?? !row.active } });
  return toWebhookDto(updated);
}

export async function deleteWebhook(owner: Owner, id: string) {
  const row = await getWebhookOrThrow(owner, id);
  await db().webhookEndpoint.delete({ where: { id: row.id } });
  return { id: row.id, deleted: true };
}

export async function activeWebhooks(owner: Owner): Promise<WebhookEndpoint[]> {
  return db().webhookEndpoint.findMany({ where: { ...ownerWhere(owner), active: true } });
}
