import { createClientId } from "@/lib/accounts/issue-credentials";
import { invalidateCredentialCache } from "@/lib/auth/api-credentials";
import { normaliseAllowedDomains } from "@/lib/auth/origins";
import { db } from "@/lib/db";
import { AppError, invalidField, notFound } from "@/lib/errors";
import type { ClientId } from "@/lib/generated/prisma/client";

/**
 * `/v2/client-ids`: an account manages its own client IDs (the reference's shapes). The domain
 * rules are createClientId's; every read and write names the account in its WHERE, so another
 * account's client ID is "not found", exactly like a missing one.
 */
export interface ClientIdView {
  id: string;
  clientId: string;
  label: string;
  allowedDomains: string[];
  feePercentage: null;
  feeAddress: null;
  operatorWalletAddress: null;
  defaultPreApprovalExpiry: null;
  defaultAuthorizationExpiry: null;
  status: string;
  createdAt: string;
  updatedAt: string;
  lastUsedAt: null;
}

export function toClientIdView(row: ClientId): ClientIdView {
  return {
    id: row.id,
    clientId: row.id,
    label: row.name,
    allowedDomains: row.allowedDomains,
    // Fees are fee configs in Duebill (POST /v2/orchestrators/fee-configs, `npm run admin -- fee:set`), not client-ID fields.
    feePercentage: null,
    feeAddress: null,
    operatorWalletAddress: null,
    defaultPreApprovalExpiry: null,
    defaultAuthorizationExpiry: null,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastUsedAt: null,
  };
}

const MAX_PER_ACCOUNT = 100;

export async function createOwnClientId(accountId: string, input: { label: string; allowedDomains?: string[] }): Promise<ClientIdView> {
  const count = await db().clientId.count({ where: { accountId, status: { not: "revoked" } } });
  if (count >= MAX_PER_ACCOUNT) throw new AppError("conflict", `An account may hold ${MAX_PER_ACCOUNT} client IDs; revoke one first`);
  const created = await createClientId(accountId, { name: input.label, allowedDomains: input.allowedDomains ?? [] }).catch((err) => {
    // createClientId names the field as the admin CLI does; the API calls it `label`.
    if (err instanceof AppError && err.errors?.[0]?.field === "name") throw invalidField("label", err.errors[0].message);
    throw err;
  });
  return toClientIdView(await db().clientId.findUniqueOrThrow({ where: { id: created.clientId } }));
}

export async function listOwnClientIds(accountId: string): Promise<ClientIdView[]> {
  const rows = await db().clientId.findMany({ where: { accountId }, orderBy: { createdAt: "asc" } });
  return rows.map(toClientIdView);
}

async function own(accountId: string, id: string): Promise<ClientId> {
  const row = await db().clientId.findFirst({ where: { id, accountId } });
  if (!row) throw notFound("Client ID not found");
  return row;
}

export async function getOwnClientId(accountId: string, id: string): Promise<ClientIdView> {
  return toClientIdView(await own(accountId, id));
}

export async function updateOwnClientId(
  accountId: string,
  id: string,
  input: { label?: string; allowedDomains?: string[]; status?: "active" | "inactive" | "revoked" },
): Promise<ClientIdView> {
  const row = await own(accountId, id);
  if (row.status === "revoked" && input.status !== "revoked")
    throw invalidField("status", "a revoked client ID cannot be reactivated or changed");
  if (row.status === "restricted" && input.status !== undefined && input.status !== "revoked")
    throw new AppError("forbidden", "This client ID was restricted by an administrator");
  let allowedDomains: string[] | undefined;
  if (input.allowedDomains !== undefined) {
    const domains = normaliseAllowedDomains(input.allowedDomains);
    if ("error" in domains) throw invalidField("allowedDomains", domains.error);
    allowedDomains = domains.domains;
  }
  const updated = await db().clientId.update({
    where: { id: row.id },
    data: { name: input.label?.trim(), allowedDomains, status: input.status },
  });
  invalidateCredentialCache();
  return toClientIdView(updated);
}

export async function revokeOwnClientId(accountId: string, id: string): Promise<{ id: string; status: "revoked" }> {
  const row = await own(accountId, id);
  if (row.status !== "revoked") await db().clientId.update({ where: { id: row.id }, data: { status: "revoked" } });
  invalidateCredentialCache();
  return { id: row.id, status: "revoked" };
}
