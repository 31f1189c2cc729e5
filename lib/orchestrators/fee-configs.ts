import { isEvmAddress, isTronAddress, toChecksumAddress } from "@/lib/chain/address";
import { db } from "@/lib/db";
import { invalidField, notFound } from "@/lib/errors";
import { setFeeConfig } from "@/lib/fees/fee-config";
import type { FeeConfig } from "@/lib/generated/prisma/client";
import { assertLinkedClient } from "@/lib/orchestrators/linked-client";

/**
 * An orchestrator's fee configurations (/v2/orchestrators/fee-configs): FeeConfig rows of its
 * account, the default (clientId null) or a per-client override for a linked client ID.
 * lib/fees/fee-plan.ts resolves them for links: override → default → no platform fee.
 * Creation goes through setFeeConfig (the admin CLI's): one active configuration per flow and
 * client ID, a new one disabling the previous. DELETE disables; nothing is ever removed.
 */
export type FeeFlowName = "get_paid" | "pay";
export type FeeBearerName = "payer" | "payee";

export interface CreateFeeConfigInput {
  flow: FeeFlowName;
  percentageBps: number;
  capUsd?: string;
  feeBearer?: FeeBearerName;
  evmAddress?: string;
  tronAddress?: string;
  label?: string;
  clientId?: string;
}

/** PATCH: omitted fields are kept, `null` clears an optional one. */
export interface UpdateFeeConfigInput {
  percentageBps?: number;
  capUsd?: string | null;
  feeBearer?: FeeBearerName;
  evmAddress?: string | null;
  tronAddress?: string | null;
  label?: string;
}

export function toFeeConfigDto(row: FeeConfig) {
  return {
    id: row.id,
    flow: row.flow,
    percentageBps: row.percentageBps,
    capUsd: row.capUsd === null ? null : row.capUsd.toFixed(2),
    feeBearer: row.feeBearer,
    evmAddress: row.evmAddress,
    tronAddress: row.tronAddress,
    label: row.label,
    clientId: row.clientId,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
  };
}

const CAP_USD = /^\d{1,18}(\.\d{1,2})?$/;

function checkRate(percentageBps: number | undefined): void {
  if (percentageBps === undefined) return;
  if (!Number.isInteger(percentageBps) || percentageBps < 0 || percentageBps > 10_000)
    throw invalidField("percentageBps", "must be an integer from 0 to 10000");
}

function checkCap(capUsd: string | null | undefined): void {
  if (capUsd !== undefined && capUsd !== null && !CAP_USD.test(capUsd))
    throw invalidField("capUsd", "must be a USD amount such as 5 or 2.50");
}

/** The receiving addresses, checked (EVM checksum when mixed-case; stored checksummed); at least one. */
function checkAddresses(evmAddress: string | null | undefined, tronAddress: string | null | undefined) {
  if (evmAddress && !isEvmAddress(evmAddress)) throw invalidField("evmAddress", "must be a 0x address (EIP-55 checksum when mixed-case)");
  if (tronAddress && !isTronAddress(tronAddress)) throw invalidField("tronAddress", "must be a Tron base58 address (T…)");
  if (!evmAddress && !tronAddress) throw invalidField("evmAddress", "a fee needs a receiving address: evmAddress and/or tronAddress");
  return { evmAddress: evmAddress ? toChecksumAddress(evmAddress) : null, tronAddress: tronAddress || null };
}

export async function createFeeConfig(orchestratorId: string, input: CreateFeeConfigInput) {
  checkRate(input.percentageBps);
  checkCap(input.capUsd);
  const addresses = checkAddresses(input.evmAddress, input.tronAddress);
  const clientId = input.clientId === undefined ? null : await assertLinkedClient(orchestratorId, input.clientId);
  const row = await setFeeConfig({
    accountId: orchestratorId,
    clientId,
    flow: input.flow,
    percentageBps: input.percentageBps,
    capUsd: input.capUsd,
    feeBearer: input.feeBearer ?? "payer",
    evmAddress: addresses.evmAddress ?? undefined,
    tronAddress: addresses.tronAddress ?? undefined,
    label: input.label,
  });
  return toFeeConfigDto(row);
}

/**
 * Without `clientId`: every configuration of the orchestrator (defaults and overrides, disabled
 * ones too). With it: that client ID's overrides; it must be one the orchestrator linked (404
 * otherwise, so another orchestrator's client IDs look like unknown ones).
 */
export async function listFeeConfigs(orchestratorId: string, clientId: string | undefined) {
  if (clientId !== undefined) await assertLinkedClient(orchestratorId, clientId, { includeUnlinked: true });
  const rows = await db().feeConfig.findMany({
    where: { accountId: orchestratorId, ...(clientId !== undefined ? { clientId } : {}) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return { feeConfigs: rows.map(toFeeConfigDto) };
}

async function feeConfigOrThrow(orchestratorId: string, id: string): Promise<FeeConfig> {
  const row = await db().feeConfig.findFirst({ where: { id, accountId: orchestratorId } });
  if (!row) throw notFound("Fee config not found");
  return row;
}

export async function updateFeeConfig(orchestratorId: string, id: string, input: UpdateFeeConfigInput) {
  checkRate(input.percentageBps);
  checkCap(input.capUsd);
  const row = await feeConfigOrThrow(orchestratorId, id);
  const addresses = checkAddresses(
    input.evmAddress === undefined ? row.evmAddress : input.evmAddress,
    input.tronAddress === undefined ? row.tronAddress : input.tronAddress,
  );
  const updated = await db().feeConfig.update({
    where: { id: row.id },
    data: {
      ...(input.percentageBps !== undefined ? { percentageBps: input.percentageBps } : {}),
      ...(input.capUsd !== undefined ? { capUsd: input.capUsd } : {}),
      ...(input.feeBearer !== undefined ? { feeBearer: input.feeBearer } : {}),
      ...(input.label !== undefined ? { label: input.label } : {}),
      ...addresses,
    },
  });
  return toFeeConfigDto(updated);
}

/** DELETE: the configuration stops applying to new links (links keep their fee plan snapshot). */
export async function disableFeeConfig(orchestratorId: string, id: string) {
  const row = await feeConfigOrThrow(orchestratorId, id);
  const updated = row.active ? await db().feeConfig.update({ where: { id: row.id }, data: { active: false } }) : row;
  return toFeeConfigDto(updated);
}
