import { TOKENS, type Token } from "@/lib/chain/tokens";
import { findTokenCurrency } from "@/lib/currencies/registry";
import { invalidField } from "@/lib/errors";
import { type FeePlan, resolveFeePlan } from "@/lib/fees/fee-plan";
import type { FeeFlow } from "@/lib/generated/prisma/enums";
import { parseAmount } from "@/lib/money";

export interface FeePreviewInput {
  amount: string;
  currency: string;
  flow: FeeFlow;
  defaultFeeBearer?: "payer" | "payee";
}

/** A currency symbol (`USDC`) or ID (`USDC-base`) that names a dollar stablecoin; 400 naming `currency` otherwise. */
function stablecoin(currency: string): Token {
  const byId = findTokenCurrency(currency)?.token;
  const token = byId ?? TOKENS.find((t) => t.symbol.toLowerCase() === currency.toLowerCase() && !t.paymentAliasOf);
  if (!token) throw invalidField("currency", "Token not found");
  if (!token.usdPegged) throw invalidField("currency", `${token.symbol} is not a supported stablecoin: fee plans are in USD`);
  return token;
}

/**
 * POST /v2/secure-payments/fees/preview: the fee plan a link of `amount` would get now, from the
 * account's active fee configuration for the flow (the same resolution as link creation). With no
 * configuration the plan has no fees. `defaultFeeBearer` overrides the flow's default; a fee
 * configuration's own bearer still wins for its fee.
 */
export async function previewFeePlan(
  accountId: string,
  input: FeePreviewInput,
  orchestrated: { orchestratorId: string; clientId: string } | null = null,
): Promise<FeePlan> {
  const token = stablecoin(input.currency);
  const units = parseAmount(input.amount, token.decimals, "amount");
  if (units <= 0n) throw invalidField("amount", "must be greater than 0");
  const resolved = orchestrated
    ? await resolveFeePlan(orchestrated.orchestratorId, input.flow, token, units, orchestrated.clientId)
    : await resolveFeePlan(accountId, input.flow, token, units);
  const flowDefault = input.flow === "pay" ? "payer" : "payee";
  if (resolved) {
    const plan = resolved.plan;
    if (!input.defaultFeeBearer) return plan;
    return { ...plan, defaultFeeBearer: input.defaultFeeBearer };
  }
  const gross = usd(units, token.decimals);
  return {
    version: 1,
    flow: input.flow,
    defaultFeeBearer: input.defaultFeeBearer ?? flowDefault,
    grossAmountUsd: gross,
    netRecipientAmountUsd: gross,
    payerTotalAmountUsd: gross,
    totalFeesUsd: "0.00",
    payeeBorneFeesUsd: "0.00",
    payerBorneFeesUsd: "0.00",
    fees: [],
  };
}

/** Token units as USD with cents (a stablecoin's amount is its dollar value), rounded down. */
function usd(units: bigint, decimals: number): string {
  const cents = (units * 100n) / 10n ** BigInt(decimals);
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, "0")}`;
}
