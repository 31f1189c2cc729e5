import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { AppError, invalidField, notFound } from "@/lib/errors";
import type { ClientIdLink } from "@/lib/generated/prisma/client";
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

/** POST /v2/orchestrators/client-ids: 201 a new link, 200 `alreadyLinked` when it is this orchestrator's; 409 otherwise. */
export async function linkClientId(orchestratorId: string, clientId: string) {
  const client = await db().clientId.findUnique({ where: { id: clientId }, select: { id: true, accountId: true, status: true } });
  if (!client) throw notFound("Client ID not found");
  if (client.status !== "active") throw invalidField("clientId", `is ${client.status}; only an active client ID can be linked`);
  if (client.accountId === orchestratorId) throw invalidField("clientId", "is the orchestrator's own client ID");
  const inserted = await db().$executeRaw`
    INSERT INTO "ClientIdLink" ("id", "clientId", "orchestratorAccountId", "status", "createdAt")
    VALUES (${ulid()}, ${clientId}, ${orchestratorId}, 'active', ${now()})
    ON CONFLICT ("clientId") DO NOTHING`;
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
export async function unlinkClientId(orchestratorId: string, clientId: string) {
  const ended = await db().clientIdLink.updateMany({
    where: { clientId, orchestratorAccountId: orchestratorId, status: "active" },
    data: { status: "unlinked", unlinkedAt: now() },
  });
  if (ended.count !== 1) throw notFound("No active link to this client ID");
  const link = await db().clientIdLink.findUniqueOrThrow({ where: { clientId } });
  return { link: toLinkDto(link), unlinked: true };
}

/** The active link of a client ID, if any (secure-payment creation checks it). */
export async function activeLinkOf(clientId: string) {
  return db().clientIdLink.findFirst({ where: { clientId, status: "active" } });
}
