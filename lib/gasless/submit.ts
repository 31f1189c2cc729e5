import { BaseError, ContractFunctionRevertedError, type Hex, recoverTypedDataAddress } from "viem";
import { gaslessPaymentsAbi } from "@/contracts/generated/abis.generated";
import { sameAddress } from "@/lib/chain/address";
import { publicClientFor } from "@/lib/chain/reader";
import { db } from "@/lib/db";
import { AppError, invalidField } from "@/lib/errors";
import { relay, signatureRelayer } from "@/lib/relayer";
import { type GaslessPlan, gaslessPlan, PLAN_VALIDITY_SECONDS } from "./plan";
import { payCalldata, ruleOf } from "./terms";

/**
 * `POST /v2/secure-payments/{token}/gasless`: the payer's signature over a plan (GET …/gasless) in, the
 * relayed transaction out. The plan is rebuilt from the link (nothing but the signature, the salt and the
 * validity comes from the client), the signature checked against the wallet off-chain, the call simulated
 * (a contract rule refuses by its name, nothing is broadcast), then relayed once.
 *
 * One payment per request state: the idempotency key is the request, how many payments it has recorded
 * and how many earlier attempts failed. Two submissions before detection records the first (a double
 * click, two tabs, a retry with a fresh signature) share the key and get the same answer, one
 * transaction; a failed attempt moves no tokens and frees the next one.
 */
export interface GaslessSubmitInput {
  wallet: string;
  /** 0x + 32 bytes, 0x + 65 bytes (checked by the route's schema). */
  salt: string;
  validBefore: string;
  signature: string;
}

export interface GaslessResult {
  requestId: string;
  status: "confirmed";
  txHash: Hex;
  blockNumber: string;
  gasUsed: string;
  /** True when an earlier submission for this link made the payment: this one sent nothing. */
  replayed: boolean;
  amounts: GaslessPlan["amounts"];
}

export async function submitGasless(linkToken: string, input: GaslessSubmitInput, now = new Date()): Promise<GaslessResult> {
  if (!/^0x[0-9a-fA-F]{64}$/.test(input.salt)) throw invalidField("salt", "must be the plan's payment.salt (0x + 32 bytes)");
  if (!/^\d{1,12}$/.test(input.validBefore)) throw invalidField("validBefore", "must be the plan's validBefore (unix seconds)");
  if (!/^0x[0-9a-fA-F]{130}$/.test(input.signature)) throw invalidField("signature", "must be a 65-byte hex signature");
  const nowSec = BigInt(Math.floor(now.getTime() / 1000));
  const validBefore = BigInt(input.validBefore);
  if (validBefore <= nowSec) throw invalidField("validBefore", "this plan has expired: ask for a new one and sign again");
  if (validBefore > nowSec + BigInt(PLAN_VALIDITY_SECONDS + 60))
    throw invalidField("validBefore", `at most ${PLAN_VALIDITY_SECONDS / 60} minutes ahead: use the plan's own`);
  const plan = await gaslessPlan(linkToken, input.wallet, { salt: input.salt as Hex, validBefore, now });

  const signer = await recoverTypedDataAddress({ ...plan.typedData, signature: input.signature as Hex }).catch(() => null);
  if (!signer || !sameAddress(signer, plan.payment.from))
    throw invalidField("signature", "not the wallet's signature over this plan (the link's amount may have changed: ask for a new plan)");

  const prefix = `gasless:${plan.requestId}:${await db().payment.count({ where: { requestId: plan.requestId } })}:`;
  const attempts = await db().relayedTransaction.count({
    where: { idempotencyKey: { startsWith: prefix }, status: { in: ["failed", "reverted"] } },
  });
  const idempotencyKey = `${prefix}${attempts}`;
  const data = payCalldata(plan.payment, plan.authorization, input.signature as Hex);
  const earlier = await db().relayedTransaction.findUnique({ where: { idempotencyKey }, select: { id: true } });
  // A first submission is simulated with the contract's ABI so a rule refuses by name; a later one joins the first's answer.
  if (!earlier) await simulate(plan, data);
  const result = await relay({
    network: plan.network.id,
    to: plan.contract,
    data,
    idempotencyKey,
    purpose: "gasless_payment",
    accountId: plan.accountId,
    subjectId: plan.requestId,
  });
  if (result.status !== "confirmed" || !result.txHash) {
    const { rule, message } = ruleOf(result.error);
    throw new AppError("conflict", `The gasless payment was not made: ${message}${rule ? ` (${rule})` : ""}`);
  }
  return {
    requestId: plan.requestId,
    status: "confirmed",
    txHash: result.txHash,
    blockNumber: String(result.blockNumber),
    gasUsed: String(result.gasUsed),
    replayed: result.replayed,
    amounts: plan.amounts,
  };
}

async function simulate(plan: GaslessPlan, data: Hex): Promise<void> {
  const client = publicClientFor(plan.network.id);
  if (!client) throw new AppError("upstream_unavailable", `No RPC is configured for ${plan.network.name}`);
  try {
    await client.call({ account: signatureRelayer()!.address, to: plan.contract, data });
  } catch (err) {
    const reverted = err instanceof BaseError ? err.walk((e) => e instanceof ContractFunctionRevertedError) : null;
    const raw = (err as { data?: Hex; cause?: { data?: Hex } }).data ?? (err as { cause?: { data?: Hex } }).cause?.data;
    const name = reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : decodeName(raw);
    const { rule, message } = ruleOf(name ?? (err as Error).message);
    throw new AppError("conflict", `The gasless payment was refused: ${message}${rule ? ` (${rule})` : ""}`);
  }
}

function decodeName(raw: Hex | undefined): string | undefined {
  if (!raw || raw.length < 10) return undefined;
  const e = gaslessPaymentsAbi.find((x) => x.type === "error" && ruleOf(raw.slice(0, 10)).rule === x.name);
  return e && "name" in e ? e.name : undefined;
}
