import { isEvmAddress, isTronAddress } from "@/lib/chain/address";
import { db } from "@/lib/db";
import { invalidField, notFound } from "@/lib/errors";
import { feeConfigSchema } from "@/lib/fees/fee-config-schema";
import { prefixedId } from "@/lib/ids";

/**
 * Sets the account's fee for a flow (one active configuration per flow: the new one replaces it).
 * With `clientId` (an orchestrator's per-client override for its linked client ID) it is one
 * active configuration per flow and client ID; without, the account's default is replaced.
 */
export async function setFeeConfig(input: {
  accountId: string;
  flow: "get_paid" | "pay";
  percentageBps: number;
  capUsd?: string;
  feeBearer: "payer" | "payee";
  evmAddress?: string;
  tronAddress?: string;
  label?: string;
  clientId?: string | null;
}) {
  const shape = feeConfigSchema.safeParse({
    bps: input.percentageBps,
    cap: input.capUsd,
    bearer: input.feeBearer,
    label: input.label,
    evm: input.evmAddress,
    tron: input.tronAddress,
  });
  const issue = shape.error?.issues[0];
  if (issue) throw invalidField(String(issue.path[0] ?? "bps"), issue.message);
  if (input.evmAddress && !isEvmAddress(input.evmAddress)) throw invalidField("evm", "must be a checksummed 0x address");
  if (input.tronAddress && !isTronAddress(input.tronAddress)) throw invalidField("tron", "must be a Tron base58 address");
  const account = await db().account.findUnique({ where: { id: input.accountId }, select: { id: true } });
  if (!account) throw notFound(`Account ${input.accountId} not found`);
  return db().$transaction(async (tx) => {
    await tx.feeConfig.updateMany({
      where: { accountId: input.accountId, flow: input.flow, clientId: input.clientId ?? null, active: true },
      data: { active: false },
    });
    return tx.feeConfig.create({
      data: {
        id: prefixedId("fee_"),
        accountId: input.accountId,
        clientId: input.clientId ?? null,
        flow: input.flow,
        percentageBps: input.percentageBps,
        capUsd: input.capUsd ?? null,
        feeBearer: input.feeBearer,
        evmAddress: input.evmAddress ?? null,
        tronAddress: input.tronAddress ?? null,
        label: input.label ?? "Platform fee",
      },
    });
  });
}

/** The account's own active fee for a flow (its default, not an orchestrator's per-client override), or null. */
export function activeFeeConfig(accountId: string, flow: "get_paid" | "pay" = "get_paid") {
  return db().feeConfig.findFirst({ where: { accountId, flow, clientId: null, active: true } });
}

/** Removes the account's own fee for a flow: links created afterwards carry none. */
export async function clearFeeConfig(accountId: string, flow: "get_paid" | "pay" = "get_paid"): Promise<void> {
  await db().feeConfig.updateMany({ where: { accountId, flow, clientId: null, active: true }, data: { active: false } });
}
