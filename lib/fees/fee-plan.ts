import { sameAddress } from "@/lib/chain/address";
import type { Token } from "@/lib/chain/tokens";
import { db } from "@/lib/db";
import type { FeeFlow } from "@/lib/generated/prisma/enums";
import { formatAmount } from "@/lib/money";

/**
 * The immutable fee plan snapshot of a secure payment (interface "Fee plan object"), resolved
 * from the account's active fee configuration for the flow at creation. Amounts are in USD,
 * so a plan exists only for a dollar stablecoin; null otherwise (or with no configuration).
 * Each entry names its own destination; the first configuration's address is the plan's fee address
 * (the fee leg of the payment transaction; further destinations get fee-only transfers: lib/payments/fee-legs.ts).
 */
export interface FeeEntry {
  type: string;
  label: string;
  feeBearer: "payer" | "payee";
  feeBearerSource: "fee_config" | "payment_default_override" | "flow_default" | "forced_fee_policy";
  percentageBps: number;
  capUsd: string | null;
  calculatedAmountUsd: string;
  destinationResolver: string;
  destinationRef: { evmAddress?: string; tronAddress?: string };
  configSource: string;
  fixedAmountUsd?: string | null;
}

export interface FeePlan {
  version: 1;
  flow: FeeFlow;
  defaultFeeBearer: "payer" | "payee";
  grossAmountUsd: string;
  netRecipientAmountUsd: string;
  payerTotalAmountUsd: string;
  totalFeesUsd: string;
  payeeBorneFeesUsd: string;
  payerBorneFeesUsd: string;
  fees: FeeEntry[];
}

/** How the plan splits one payment, in token base units. */
export interface FeeSplit {
  /** What the payee receives (the request's expected amount). */
  toPayee: bigint;
  /** All fees of the payment: the sum of `legs`. */
  fee: bigint;
  /** The first leg's address (the fee proxy's fee leg of the payment transaction). */
  feeAddress: string | null;
  /** What each fee address receives: the plan's entries by destination (entries to one address add up), in plan order. */
  legs: { address: string; amount: bigint }[];
}

const CENTS = 2;

/**
 * The fee configuration that applies: the account's own defaults (clientId null) — or, for a link
 * an orchestrator makes for its linked client ID (`accountId` = the orchestrator), its per-client
 * override, else its default; none → no platform fee (the protocol's own fee only).
 */
async function feeConfigsFor(accountId: string, flow: FeeFlow, linkedClientId: string | null) {
  if (linkedClientId) {
    const override = await db().feeConfig.findMany({
      where: { accountId, flow, active: true, clientId: linkedClientId },
      orderBy: { createdAt: "asc" },
    });
    if (override.length > 0) return override;
  }
  return db().feeConfig.findMany({ where: { accountId, flow, active: true, clientId: null }, orderBy: { createdAt: "asc" } });
}

export async function resolveFeePlan(
  accountId: string,
  flow: FeeFlow,
  token: Token,
  grossUnits: bigint,
  linkedClientId: string | null = null,
): Promise<{ plan: FeePlan; feeAddress: string | null } | null> {
  if (!token.usdPegged) return null;
  const configs = await feeConfigsFor(accountId, flow, linkedClientId);
  if (configs.length === 0) return null;
  // Work in cents: stablecoin amounts are USD amounts.
  const grossCents = (grossUnits * 10n ** BigInt(CENTS)) / 10n ** BigInt(token.decimals);
  let payer = 0n;
  let payee = 0n;
  const fees: FeeEntry[] = configs.map((c) => {
    let cents = (grossCents * BigInt(c.percentageBps)) / 10_000n;
    const cap = c.capUsd === null ? null : BigInt(c.capUsd.mul(100).toFixed(0));
    if (cap !== null && cents > cap) cents = cap;
    if (c.feeBearer === "payer") payer += cents;
    else payee += cents;
    return {
      type: "platform",
      label: c.label,
      feeBearer: c.feeBearer,
      feeBearerSource: "fee_config",
      percentageBps: c.percentageBps,
      capUsd: c.capUsd === null ? null : c.capUsd.toFixed(2),
      calculatedAmountUsd: formatUsd(cents),
      destinationResolver: "fee_config",
      destinationRef: { ...(c.evmAddress ? { evmAddress: c.evmAddress } : {}), ...(c.tronAddress ? { tronAddress: c.tronAddress } : {}) },
      configSource: `fee_config:${c.id}`,
      fixedAmountUsd: null,
    };
  });
  const first = configs[0]!;
  const feeAddress = token.network === "tron" ? first.tronAddress : first.evmAddress;
  const plan: FeePlan = {
    version: 1,
    flow,
    defaultFeeBearer: first.feeBearer,
    grossAmountUsd: formatUsd(grossCents),
    netRecipientAmountUsd: formatUsd(grossCents - payee),
    payerTotalAmountUsd: formatUsd(grossCents + payer),
    totalFeesUsd: formatUsd(payer + payee),
    payeeBorneFeesUsd: formatUsd(payee),
    payerBorneFeesUsd: formatUsd(payer),
    fees,
  };
  return { plan, feeAddress };
}

function formatUsd(cents: bigint): string {
  const s = formatAmount(cents, CENTS);
  const [whole, frac = ""] = s.split(".");
  return `${whole}.${frac.padEnd(2, "0")}`;
}

/**
 * Splits one request's gross amount by the plan: each fee entry takes its share of the request
 * (its USD amount over the plan's gross, rounded down) and is owed to its own destination — on
 * the request's chain (`tron`: the entry's Tron address, else its EVM address; the plan's first
 * address when the entry has none there). Payee-borne entries come out of what the payee gets.
 */
export function splitByPlan(plan: FeePlan | null, feeAddress: string | null, grossUnits: bigint, chain: "evm" | "tron" = "evm"): FeeSplit {
  const none = { toPayee: grossUnits, fee: 0n, feeAddress: null, legs: [] };
  if (!plan || !feeAddress) return none;
  const gross = toCents(plan.grossAmountUsd);
  if (gross === 0n) return none;
  const legs: { address: string; amount: bigint }[] = [];
  let payeeBorne = 0n;
  for (const entry of plan.fees) {
    const amount = (grossUnits * toCents(entry.calculatedAmountUsd)) / gross;
    if (entry.feeBearer === "payee") payeeBorne += amount;
    const address = (chain === "tron" ? entry.destinationRef.tronAddress : entry.destinationRef.evmAddress) ?? feeAddress;
    const same = legs.find((l) => sameAddress(l.address, address));
    if (same) same.amount += amount;
    else legs.push({ address, amount });
  }
  const paying = legs.filter((l) => l.amount > 0n);
  const fee = paying.reduce((a, l) => a + l.amount, 0n);
  return { toPayee: grossUnits - payeeBorne, fee, feeAddress: paying[0]?.address ?? feeAddress, legs: paying };
}

const toCents = (usd: string) => BigInt(usd.replace(".", ""));
