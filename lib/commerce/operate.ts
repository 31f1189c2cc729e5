import { encodeFunctionData, type Hex } from "viem";
import { commerceEscrowAbi } from "@/contracts/generated/abis.generated";
import { networkOf, tokenOf } from "@/lib/chain/stored";
import { invalidField } from "@/lib/errors";
import type { CommercePayment, PaymentRequest } from "@/lib/generated/prisma/client";
import { parseAmount } from "@/lib/money";
import { relay } from "@/lib/relayer";
import { afterRelay } from "./authorize";
import { canReadChain, chainHead, relayerAddress } from "./chain";
import { amountsOf, capturableOf } from "./state";
import { commercePaymentOrThrow, infoOf } from "./store";
import { syncCommercePayment } from "./sync";
import { commerceView } from "./view";

const ZERO_VALUE = { type: "BigNumber" as const, hex: "0x0" as Hex };
type Mode = "relay" | "calldata";

/** The request's payment brought up to date from the chain first, so the checks below see what the contract sees. */
export async function load(accountId: string, requestId: string) {
  const { request, cp } = await commercePaymentOrThrow(accountId, requestId);
  return { request, cp: canReadChain(networkOf(cp)) ? await syncCommercePayment(cp) : cp };
}

/** The relayed variants need Duebill's relayer to be the payment's operator (the contract checks msg.sender). */
function relayerMustOperate(cp: CommercePayment, action: string) {
  const relayer = relayerAddress();
  if (!relayer || relayer.toLowerCase() !== cp.operator.toLowerCase())
    throw invalidField(
      "operatorWalletAddress",
      `This payment's operator is ${cp.operator}, not Duebill's relayer: sign the transaction of POST …/${action}/calldata with that wallet`,
    );
}

export async function send(cp: CommercePayment, request: PaymentRequest, data: Hex, key: string, purpose: string, field: string) {
  const result = await relay({
    network: networkOf(cp),
    to: cp.escrowAddress as Hex,
    data,
    idempotencyKey: key,
    purpose,
    accountId: cp.accountId,
    subjectId: cp.id,
  });
  return commerceView(request, await afterRelay(cp, result, field));
}

export const calldata = (request: PaymentRequest, cp: CommercePayment, from: string, txs: { to: string; data: Hex }[]) => ({
  ...commerceView(request, cp),
  from,
  transactions: txs.map((t) => ({ ...t, value: ZERO_VALUE })),
});

/** Capture: `amount` (payee's part and its pro-rata fee) out of the escrow, through the fee proxy, before the deadline. */
export async function capture(accountId: string, requestId: string, body: { amount?: string }, mode: Mode) {
  const { request, cp } = await load(accountId, requestId);
  const token = tokenOf(request);
  const a = amountsOf(cp);
  const held = capturableOf(a);
  if (a.authorized === 0n) throw invalidField("requestId", "Nothing is authorized yet");
  const head = await chainHead(networkOf(cp));
  if (head.time >= Math.floor(cp.authorizationExpiry.getTime() / 1000))
    throw invalidField(
      "authorizationExpiry",
      `The capture deadline (${cp.authorizationExpiry.toISOString()}) has passed: the payer may reclaim`,
    );
  const amount = body.amount === undefined ? held : parseAmount(body.amount, token.decimals, "amount");
  if (held === 0n) throw invalidField("amount", "Nothing is left to capture");
  if (amount > held) throw invalidField("amount", `exceeds what can still be captured (${held} base units)`);
  const info = infoOf(cp);
  // The fee is the request's, pro rata: floor(amount × fee / (amount + fee of the request)).
  const fee = (amount * BigInt(request.feeAmount.toFixed())) / info.maxAmount;
  const data = encodeFunctionData({ abi: commerceEscrowAbi, functionName: "capture", args: [info, amount, fee] });
  if (mode === "calldata") return calldata(request, cp, cp.operator, [{ to: cp.escrowAddress, data }]);
  relayerMustOperate(cp, "capture");
  // The same capture asked again (a retry) is the same transaction; after it, the state differs and so does the key.
  return send(cp, request, data, `escrow:capture:${cp.paymentId}:${a.captured}:${amount}`, "escrow_capture", "amount");
}

/** Void: everything still capturable back to the payer. */
export async function voidPayment(accountId: string, requestId: string, mode: Mode) {
  const { request, cp } = await load(accountId, requestId);
  const a = amountsOf(cp);
  if (a.authorized === 0n) throw invalidField("requestId", "Nothing is authorized yet");
  if (capturableOf(a) === 0n) throw invalidField("requestId", "Nothing is left to void");
  const data = encodeFunctionData({ abi: commerceEscrowAbi, functionName: "void", args: [infoOf(cp)] });
  if (mode === "calldata") return calldata(request, cp, cp.operator, [{ to: cp.escrowAddress, data }]);
  relayerMustOperate(cp, "void");
  return send(cp, request, data, `escrow:void:${cp.paymentId}`, "escrow_void", "requestId");
}

/** GET …/status: the payment, synced from the chain. */
export async function commerceStatus(accountId: string, requestId: string) {
  const { request, cp } = await load(accountId, requestId);
  if (!canReadChain(networkOf(cp))) return commerceView(request, cp);
  return commerceView(request, cp, (await chainHead(networkOf(cp))).time);
}
