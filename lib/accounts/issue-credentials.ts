import { brandLogoUrlSchema, brandNameSchema } from "@/lib/accounts/brand-schema";
import { invalidateCredentialCache } from "@/lib/auth/api-credentials";
import { normaliseAllowedDomains } from "@/lib/auth/origins";
import { hashSecret } from "@/lib/auth/secrets";
import { db } from "@/lib/db";
import { AppError, invalidField, notFound } from "@/lib/errors";
import type { ClientIdStatus, RateTier } from "@/lib/generated/prisma/enums";
import { idPrefix, prefixedId, randomToken } from "@/lib/ids";

/**
 * Accounts and their credentials: created by the admin CLI, the seed and (later) the
 * dashboards. Secrets are returned once, here, and stored as sha256 only.
 */
export const RATE_TIERS = ["basic", "default", "premium", "high_volume"] as const satisfies readonly RateTier[];

export async function createAccount(name: string): Promise<{ id: string; name: string }> {
  if (!name.trim() || name.length > 200) throw invalidField("name", "must be 1–200 characters");
  return db().account.create({ data: { id: prefixedId(idPrefix.account), name: name.trim() }, select: { id: true, name: true } });
}

/** How the account appears to payers on its hosted pages: its name and an HTTPS logo (null clears it). */
export async function setAccountBrand(accountId: string, brand: { name?: string; logoUrl?: string | null }) {
  await assertAccount(accountId);
  // The limits of the operators' branding form (lib/accounts/brand-schema.ts, checked in the browser too).
  if (brand.name !== undefined) {
    const name = brandNameSchema.safeParse(brand.name);
    if (!name.success) throw invalidField("name", name.error.issues[0]!.message);
  }
  if (brand.logoUrl != null) {
    const logo = brandLogoUrlSchema.safeParse(brand.logoUrl);
    if (!logo.success) throw invalidField("logoUrl", logo.error.issues[0]!.message);
  }
  return db().account.update({
    where: { id: accountId },
    data: { name: brand.name?.trim(), logoUrl: brand.logoUrl },
    select: { id: true, name: true, logoUrl: true },
  });
}

async function assertAccount(accountId: string): Promise<void> {
  const found = await db().account.findUnique({ where: { id: accountId }, select: { id: true } });
  if (!found) throw notFound(`Account ${accountId} not found`);
}

export interface IssuedSecret {
  id: string;
  accountId: string;
  name: string;
  prefix: string;
  /** Shown once; only its hash is stored. */
  secret: string;
  rateTier: RateTier;
}

export async function createApiKey(accountId: string, name = "default", rateTier: RateTier = "default"): Promise<IssuedSecret> {
  await assertAccount(accountId);
  const secret = `${idPrefix.apiKeySecret}${randomToken(32)}`;
  const row = await db().apiKey.create({
    data: { id: prefixedId(idPrefix.apiKey), accountId, name, prefix: secret.slice(0, 10), keyHash: hashSecret(secret), rateTier },
  });
  return { id: row.id, accountId, name: row.name, prefix: row.prefix, secret, rateTier: row.rateTier };
}

/** Orchestrator keys are issued by an admin only (docs/spec/DECISIONS.md). */
export async function createOrchestratorKey(
  accountId: string,
  name = "orchestrator",
  rateTier: RateTier = "default",
): Promise<IssuedSecret> {
  await assertAccount(accountId);
  const secret = `${idPrefix.orchestratorKeySecret}${randomToken(32)}`;
  const row = await db().orchestratorKey.create({
    data: { id: prefixedId(idPrefix.orchestratorKey), accountId, name, prefix: secret.slice(0, 10), keyHash: hashSecret(secret), rateTier },
  });
  return { id: row.id, accountId, name: row.name, prefix: row.prefix, secret, rateTier: row.rateTier };
}

export interface ClientIdDto {
  clientId: string;
  accountId: string;
  name: string;
  allowedDomains: string[];
  status: ClientIdStatus;
  rateTier: RateTier;
  createdAt: string;
}

function toClientIdDto(row: {
  id: string;
  accountId: string;
  name: string;
  allowedDomains: string[];
  status: ClientIdStatus;
  rateTier: RateTier;
  createdAt: Date;
}): ClientIdDto {
  return {
    clientId: row.id,
    accountId: row.accountId,
    name: row.name,
    allowedDomains: row.allowedDomains,
    status: row.status,
    rateTier: row.rateTier,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function createClientId(
  accountId: string,
  input: { name: string; allowedDomains?: readonly string[]; rateTier?: RateTier; id?: string },
): Promise<ClientIdDto> {
  await assertAccount(accountId);
  if (!input.name.trim() || input.name.length > 200) throw invalidField("name", "must be 1–200 characters");
  const domains = normaliseAllowedDomains(input.allowedDomains ?? []);
  if ("error" in domains) throw invalidField("allowedDomains", domains.error);
  const row = await db().clientId.create({
    data: {
      id: input.id ?? prefixedId(idPrefix.clientId),
      accountId,
      name: input.name.trim(),
      allowedDomains: domains.domains,
      rateTier: input.rateTier ?? "default",
    },
  });
  return toClientIdDto(row);
}

export async function listAccountCredentials(accountId: string) {
  await assertAccount(accountId);
  const select = { id: true, name: true, prefix: true, rateTier: true, createdAt: true, revokedAt: true } as const;
  const [apiKeys, clientIds, orchestratorKeys] = await Promise.all([
    db().apiKey.findMany({ where: { accountId }, select, orderBy: { createdAt: "asc" } }),
    db().clientId.findMany({ where: { accountId }, orderBy: { createdAt: "asc" } }),
    db().orchestratorKey.findMany({ where: { accountId }, select, orderBy: { createdAt: "asc" } }),
  ]);
  return { apiKeys, clientIds: clientIds.map(toClientIdDto), orchestratorKeys };
}

export async function setClientIdStatus(clientId: string, status: ClientIdStatus): Promise<ClientIdDto> {
  const row = await db()
    .clientId.update({ where: { id: clientId }, data: { status } })
    .catch(() => null);
  if (!row) throw notFound(`Client ID ${clientId} not found`);
  invalidateCredentialCache();
  return toClientIdDto(row);
}

export async function revokeApiKey(id: string): Promise<void> {
  const { count } = await db().apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
  if (count === 0) throw notFound(`Active API key ${id} not found`);
  invalidateCredentialCache();
}

export async function revokeOrchestratorKey(id: string): Promise<void> {
  const { count } = await db().orchestratorKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
  if (count === 0) throw notFound(`Active orchestrator key ${id} not found`);
  invalidateCredentialCache();
}

/** Sets the rate-limit tier of an API key (`key_...`), client ID (`cli_...`) or orchestrator key (`okey_...`). */
export async function setRateTier(id: string, rateTier: RateTier): Promise<void> {
  const where = { where: { id }, data: { rateTier } };
  const done = id.startsWith(idPrefix.clientId)
    ? await db().clientId.updateMany(where)
    : id.startsWith(idPrefix.orchestratorKey)
      ? await db().orchestratorKey.updateMany(where)
      : id.startsWith(idPrefix.apiKey)
        ? await db().apiKey.updateMany(where)
        : null;
  if (!done)
    throw new AppError("validation_failed", "Validation failed", {
      errors: [{ field: "id", message: "expected a key_, cli_ or okey_ ID" }],
    });
  if (done.count === 0) throw notFound(`${id} not found`);
  invalidateCredentialCache();
}
