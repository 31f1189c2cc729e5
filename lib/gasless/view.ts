import { erc20Abi } from "viem";
import { publicClientFor } from "@/lib/chain/reader";
import { formatAmount } from "@/lib/money";
import { type GaslessPlan, gaslessPlan } from "./plan";
import { totalOf } from "./terms";

/** The plan as JSON (base units as integer strings): `GET /v2/secure-payments/{token}/gasless`. */
export function planView(plan: GaslessPlan, balance: bigint | null = null) {
  const p = plan.payment;
  const m = plan.typedData.message;
  return {
    requestId: plan.requestId,
    network: plan.network,
    token: plan.token,
    contract: plan.contract,
    amounts: plan.amounts,
    payment: {
      ...p,
      amount: p.amount.toString(),
      feeAmount: p.feeAmount.toString(),
      relayerFee: p.relayerFee.toString(),
    },
    /** The wallet's balance of the token now (null: the node could not be read) and whether it covers the total. */
    balance: balance === null ? null : formatAmount(balance, plan.token.decimals),
    hasEnoughBalance: balance === null ? null : balance >= totalOf(plan.payment),
    validBefore: plan.authorization.validBefore.toString(),
    expiresAt: plan.expiresAt.toISOString(),
    typedData: {
      ...plan.typedData,
      message: { ...m, value: m.value.toString(), validAfter: m.validAfter.toString(), validBefore: m.validBefore.toString() },
    },
  };
}

export async function gaslessPlanView(linkToken: string, wallet: string) {
  const plan = await gaslessPlan(linkToken, wallet);
  const balance = await publicClientFor(plan.network.id)
    ?.readContract({ address: plan.token.address, abi: erc20Abi, functionName: "balanceOf", args: [plan.payment.from] })
    .catch(() => null);
  return planView(plan, balance ?? null);
}
