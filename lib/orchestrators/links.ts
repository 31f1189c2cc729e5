import { recordAudit } from "@/lib/audit";
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { AppError, invalidField, notFound } from "@/lib/errors";
import type { ClientIdLink, Prisma } from "@/lib/generated/prisma/client";
import { ulid } from "@/lib/ids";

/**
 * Client-ID links (interface "Client ID link": none → active → unlinked, never active again).
 * One row per client ID, ever (a unique index): the database, not a read-then-write, decides
 * which of several concurrent link attempts wins, and an unlinked row keeps the client ID from
 * being linked again.
 */
export function toLinkDto(l: Pick<ClientIdLink, "id" | "clientId" | "status" | "createdAt">) {
  return { clientId: l.clientId, status: l.status, linkId: l.id, linkedAt: l.createdAt.toISOString() };
}

const UNLINKED = "This client ID was unlinked from its orchestrator and can never be linked again";

/**
 * POST /v2/orchestrators/client-ids: 201 a new link, 200 `alreadyLinked` when it is this orchestrator's; 409 otherwise.
 * Client IDs are public, so any orchestrator can link one it learns (the interface's direct link):
 * the owning platform sees every link of its client IDs and can end it (platformLinks,
 * endLinkByPlatform), and the link is recorded in the audit log under the platform's account.
 */
export async function linkClientId(orchestratorId: string, clientId: string, actor = `orchestrator:${orchestratorId}`) {
  const client = await db().clientId.findUnique({ where: { id: clientId }, select: { id: true, accountId: true, status: true } });
  if (!client) throw notFound("Client ID not found");
  if (client.status !== "active") throw invalidField("clientId", `is ${client.status}; only an active client ID can be linked`);
  if (client.accountId === orchestratorId) throw invalidField("clientId", "is the orchestrator's own client ID");
  const linkId = ulid();
  const inserted = await db().$transaction(async (tx) => {
    const n = await tx.$executeRaw`
      INSERT INTO "ClientIdLink" ("id", "clientId", "orchestratorAccountId", "status", "createdAt")
      VALUES (${linkId}, ${clientId}, ${orchestratorId}, 'active', ${now()})
      ON CONFLICT ("clientId") DO NOTHING`;
    if (n === 1)
      await recordAudit(
        {
          actor,
          action: "client_id.orchestrator_link",
          target: clientId,
          accountId: client.accountId,
          details: { linkId, orchestratorId, via: "direct" },
        },
        tx,
      );
    return n;
  });
  const link = await db().clientIdLink.findUniqueOrThrow({ where: { clientId } });
  if (link.status === "unlinked") throw new AppError("conflict", UNLINKED);
  if (link.orchestratorAccountId !== orchestratorId)
    throw new AppError("conflict", "This client ID is already linked to another orchestrator");
  return { status: inserted === 1 ? 201 : 200, body: { link: toLinkDto(link), alreadyLinked: inserted !== 1 } };
}

/** GET /v2/orchestrators/client-ids: the orchestrator's active links, oldest first. */
export async function listLinks(orchestratorId: string, page: number, limit: number) {
  const where = { orchestratorAccountId: orchestratorId, status: "active" as const };
  const [links, total] = await Promise.all([
    db().clientIdLink.findMany({ where, orderBy: [{ createdAt: "asc" }, { id: "asc" }], skip: (page - 1) * limit, take: limit }),
    db().clientIdLink.count({ where }),
  ]);
  return { links: links.map(toLinkDto), total, page, limit };
}

/** DELETE /v2/orchestrators/client-ids/{clientId}: ends the association for good; the client ID itself stays. */
export async function unlinkClientId(orchestratorId: string, clientId: string, actor = `orchestrator:${orchestratorId}`) {
  const link = await endLink({ clientId, orchestratorAccountId: orchestratorId }, actor, "orchestrator");
  if (!link) throw notFound("No active link to this client ID");
  return { link: toLinkDto(link), unlinked: true };
}

/** Ends the active link matching `where` and records who ended it, in one transaction; null when there was none. */
async function endLink(where: Prisma.ClientIdLinkWhereInput, actor: string, by: "orchestrator" | "platform") {
  return db().$transaction(async (tx) => {
    const link = await tx.clientIdLink.findFirst({
      where: { ...where, status: "active" },
      include: { client: { select: { accountId: true } } },
    });
    if (!link) return null;
    const ended = await tx.clientIdLink.updateMany({
      where: { id: link.id, status: "active" },
      data: { status: "unlinked", unlinkedAt: now() },
    });
    if (ended.count !== 1) return null;
    await recordAudit(
      {
        actor,
        action: "client_id.orchestrator_unlink",
        target: link.clientId,
        accountId: link.client.accountId,
        details: { linkId: link.id, orchestratorId: link.orchestratorAccountId, by },
      },
      tx,
    );
    return tx.clientIdLink.findUniqueOrThrow({ where: { id: link.id } });
  });
}

/**
 * The platform's view of one orchestrator link of its client IDs: who linked it (the
 * orchestrator's account and name), how (onboarding or a direct link), since when, and whether
 * it was ended.
 */
export function toPlatformLinkDto(l: ClientIdLink & { orchestrator: { id: string; name: string }; client: { id: string; name: string } }) {
  return {
    clientId: l.clientId,
    clientIdLabel: l.client.name,
    linkId: l.id,
    status: l.status,
    orchestratorId: l.orchestrator.id,
    orchestratorName: l.orchestrator.name,
    via: l.intentId ? ("onboarding" as const) : ("direct" as const),
    linkedAt: l.createdAt.toISOString(),
    unlinkedAt: l.unlinkedAt?.toISOString() ?? null,
  };
}

const platformInclude = { orchestrator: { select: { id: true, name: true } }, client: { select: { id: true, name: true } } } as const;

/** GET /v2/client-ids/orchestrator-links: every orchestrator link of the account's client IDs, active and ended, newest first. */
export async function platformLinks(accountId: string) {
  const links = await db().clientIdLink.findMany({
    where: { client: { accountId } },
    include: platformInclude,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return { links: links.map(toPlatformLinkDto) };
}

/** The account's own client ID, else 404 (another account's client ID is as unknown as a missing one). */
async function ownClientId(accountId: string, clientId: string) {
  const client = await db().clientId.findUnique({ where: { id: clientId }, select: { accountId: true } });
  if (!client || client.accountId !== accountId) throw notFound("Client ID not found");
}

/** GET /v2/client-ids/{id}/orchestrator-link: the client ID's orchestrator link (null: never linked). */
export async function platformLinkOf(accountId: string, clientId: string) {
  await ownClientId(accountId, clientId);
  const link = await db().clientIdLink.findUnique({ where: { clientId }, include: platformInclude });
  return { clientId, link: link ? toPlatformLinkDto(link) : null };
}

/**
 * DELETE /v2/client-ids/{id}/orchestrator-link: the platform ends its client ID's orchestrator
 * link. As the orchestrator's unlink: for good (the client ID can never be linked again, so the
 * same orchestrator cannot simply link it back), and its own x-client-id creates links again.
 */
export async function endLinkByPlatform(accountId: string, clientId: string, actor: string) {
  await ownClientId(accountId, clientId);
  const ended = await endLink({ clientId }, actor, "platform");
  if (!ended) throw notFound("No active orchestrator link to this client ID");
  const link = await db().clientIdLink.findUniqueOrThrow({ where: { id: ended.id }, include: platformInclude });
  return { link: toPlatformLinkDto(link), unlinked: true };
}

/** The active link of a client ID, if any (secure-payment creation checks it). */
export async function activeLinkOf(clientId: string) {
  return db().clientIdLink.findFirst({ where: { clientId, status: "active" } });
}
