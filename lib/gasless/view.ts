import { type GaslessPlan, gaslessPlan } from "./plan";

/** The plan as JSON (base units as integer strings): `GET /v2/secure-payments/{token}/gasless`. */
export function planView(plan: GaslessPlan) {
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
    validBefore: plan.authorization.validBefore.toString(),
    expiresAt: plan.expiresAt.toISOString(),
    typedData: {
      ...plan.typedData,
      message: { ...m, value: m.value.toString(), validAfter: m.validAfter.toString(), validBefore: m.validBefore.toString() },
    },
  };
}

export async function gaslessPlanView(linkToken: string, wallet: string) {
  return planView(await gaslessPlan(linkToken, wallet));
}
