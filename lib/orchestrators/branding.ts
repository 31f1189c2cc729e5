import { db } from "@/lib/db";
import { AppError, notFound } from "@/lib/errors";
import type { Branding } from "@/lib/generated/prisma/client";
import { prefixedId } from "@/lib/ids";
import { assertLinkedClient } from "@/lib/orchestrators/linked-client";

/**
 * An orchestrator's branding of the hosted pages (/v2/orchestrators/branding): its default
 * (clientId null) or a per-client override for a linked client ID. One of each per orchestrator:
 * the unique (accountId, clientId) and the partial unique index of the default make a second
 * create a 409 however the requests race. GET, PATCH and DELETE select the default, or the
 * override with `?clientId=`; another orchestrator's branding is simply not found.
 */
export interface CreateBrandingInput {
  displayName: string;
  logoUrl?: string;
  accentColor?: string;
  supportUrl?: string;
  clientId?: string;
}

/** PATCH: omitted fields are kept, `null` clears an optional one. */
export interface UpdateBrandingInput {
  displayName?: string;
  logoUrl?: string | null;
  accentColor?: string | null;
  supportUrl?: string | null;
}

export function toBrandingDto(row: Branding) {
  return {
    id: row.id,
    clientId: row.clientId,
    displayName: row.displayName,
    logoUrl: row.logoUrl,
    accentColor: row.accentColor,
    supportUrl: row.supportUrl,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const alreadyExists = (clientId: string | null) =>
  new AppError(
    "conflict",
    clientId ? `Branding for client ID ${clientId} already exists: PATCH updates it` : "Default branding already exists: PATCH updates it",
  );

export async function createBranding(orchestratorId: string, input: CreateBrandingInput) {
  const clientId = input.clientId === undefined ? null : await assertLinkedClient(orchestratorId, input.clientId);
  if (await db().branding.findFirst({ where: { accountId: orchestratorId, clientId }, select: { id: true } }))
    throw alreadyExists(clientId);
  try {
    const row = await db().branding.create({
      data: {
        id: prefixedId("brd_"),
        accountId: orchestratorId,
        clientId,
        displayName: input.displayName,
        logoUrl: input.logoUrl ?? null,
        accentColor: input.accentColor ?? null,
        supportUrl: input.supportUrl ?? null,
      },
    });
    return toBrandingDto(row);
  } catch (err) {
    // A concurrent create won the race (unique (accountId, clientId), or the default's partial index).
    if ((err as { code?: string }).code === "P2002") throw alreadyExists(clientId);
    throw err;
  }
}

async function brandingOrThrow(orchestratorId: string, clientId: string | undefined): Promise<Branding> {
  const row = await db().branding.findFirst({ where: { accountId: orchestratorId, clientId: clientId ?? null } });
  if (!row) throw notFound(clientId === undefined ? "No default branding" : "No branding for this client ID");
  return row;
}

export async function getBranding(orchestratorId: string, clientId: string | undefined) {
  return toBrandingDto(await brandingOrThrow(orchestratorId, clientId));
}

export async function updateBranding(orchestratorId: string, clientId: string | undefined, input: UpdateBrandingInput) {
  const row = await brandingOrThrow(orchestratorId, clientId);
  const updated = await db().branding.update({
    where: { id: row.id },
    data: {
      ...(input.displayName !== undefined ? { displayName: input.displayName } : {}),
      ...(input.logoUrl !== undefined ? { logoUrl: input.logoUrl } : {}),
      ...(input.accentColor !== undefined ? { accentColor: input.accentColor } : {}),
      ...(input.supportUrl !== undefined ? { supportUrl: input.supportUrl } : {}),
    },
  });
  return toBrandingDto(updated);
}

export async function deleteBranding(orchestratorId: string, clientId: string | undefined) {
  const row = await brandingOrThrow(orchestratorId, clientId);
  // deleteMany: a concurrent delete of the same row is not an error (the branding is gone either way).
  await db().branding.deleteMany({ where: { id: row.id } });
  return { deleted: true as const };
}
