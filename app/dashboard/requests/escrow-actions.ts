"use server";

import { revalidatePath } from "next/cache";
import { capture, voidPayment } from "@/lib/commerce/operate";
import { refundCalldata, refundWithSignature } from "@/lib/commerce/refund";
import { toFormState } from "@/lib/errors";
import { userForAction } from "@/lib/http/page-session";

/**
 * The request page's escrow actions (lib/commerce), on the API's own functions: capture and void are
 * the relayed variants (Duebill's relayer is the payment's operator); a refund is signed by the payee's
 * wallet (EIP-3009, no gas) and relayed. Another account's request is "not found", as in the API.
 */
export interface EscrowFormState {
  error: string | null;
  done?: string;
}

const pagePath = (requestId: string) => `/dashboard/requests/${encodeURIComponent(requestId)}`;
const field = (form: FormData, name: string) => String(form.get(name) ?? "").slice(0, 100);

export async function escrowAction(_prev: EscrowFormState, form: FormData): Promise<EscrowFormState> {
  const requestId = field(form, "requestId");
  try {
    const me = await userForAction();
    if (field(form, "action") === "void") {
      const out = await voidPayment(me.account.id, requestId, "relay");
      revalidatePath(pagePath(requestId));
      return { error: null, done: `Voided: ${out.voidedAmount} returned to the payer` };
    }
    const amount = field(form, "amount").trim();
    const out = await capture(me.account.id, requestId, amount ? { amount } : {}, "relay");
    revalidatePath(pagePath(requestId));
    return { error: null, done: `Captured: ${out.capturedAmount} so far` };
  } catch (err) {
    return toFormState(err);
  }
}

/** The payee's refund to sign: the typed data of POST …/refund/calldata. */
export async function prepareEscrowRefundAction(input: { requestId: string; amount: string }) {
  try {
    const me = await userForAction();
    const out = await refundCalldata(me.account.id, input.requestId, { amount: input.amount });
    if (!("typedData" in out))
      return { error: "This token has no EIP-3009: send the refund transactions from the payee's wallet (POST …/refund/calldata)" };
    return { error: null, typedData: out.typedData, refundSalt: out.refundSalt, payee: out.from };
  } catch (err) {
    return { ...toFormState(err), typedData: undefined };
  }
}

/** The signed refund, submitted by Duebill's relayer. */
export async function submitEscrowRefundAction(input: {
  requestId: string;
  amount: string;
  validBefore: string;
  refundSalt: string;
  signature: string;
}) {
  try {
    const me = await userForAction();
    const { requestId, ...body } = input;
    const out = await refundWithSignature(me.account.id, requestId, body);
    revalidatePath(pagePath(requestId));
    return { error: null, refunded: out.refundedAmount };
  } catch (err) {
    return toFormState(err);
  }
}
