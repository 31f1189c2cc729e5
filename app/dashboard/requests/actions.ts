"use server";

import { revalidatePath } from "next/cache";
import type { UnsignedTx } from "@/lib/chain/calldata";
import { toFormState } from "@/lib/errors";
import { checkForm, type FormState, formValues, refusedState } from "@/lib/forms/form-state";
import { REFUND_FORM_FIELDS, refundFormBody, refundFormSchema } from "@/lib/forms/refund-form";
import { userForAction } from "@/lib/http/page-session";
import { parseWith } from "@/lib/http/parse";
import type { PayMetadata } from "@/lib/payments/plan";
import { cancelRefund, getRefund, markRefundSent, prepareRefund } from "@/lib/refunds";
import { refundFormContext } from "@/lib/requests/request-detail";

/**
 * The request page's refunds (issue 28), on the API's own functions and schemas: POST
 * /v2/request/{id}/refunds (prepare), GET …/refunds/{refundId} (the transactions of a prepared or
 * offered refund), POST …/sent (the wallet's transaction hash) and POST …/cancel. The wallet that
 * sends is always the request's payee (the default of the API): another wallet is refused in the page.
 * Another account's request or refund is "not found", as in the API.
 */

export interface RefundFormState extends FormState {
  /** The refund just prepared: the page sends it from the payee's wallet next. */
  prepared?: { refundId: string; amount: string; toAddress: string; warning: string | null; feeKept: string; refundable: string };
}

const pagePath = (requestId: string) => `/dashboard/requests/${encodeURIComponent(requestId)}`;
const idOf = (form: FormData, name: string) => String(form.get(name) ?? "").slice(0, 100);

/** Prepares a refund (status prepared): the amount (default: everything refundable) to the payer, or to the address typed. */
export async function prepareRefundAction(_prev: RefundFormState, form: FormData): Promise<RefundFormState> {
  const values = formValues(form, Object.keys(REFUND_FORM_FIELDS));
  const requestId = idOf(form, "requestId");
  try {
    const me = await userForAction();
    // The schema the browser checked with: the amount bounded by the request's token decimals.
    const { decimals } = await refundFormContext(me.account.id, requestId);
    const schema = refundFormSchema(decimals);
    const body = refundFormBody(values);
    const checked = checkForm(schema, body, REFUND_FORM_FIELDS);
    if (!checked.ok) return refusedState(checked.fieldErrors, values);
    const prepared = await prepareRefund(me.account.id, requestId, parseWith(schema, body));
    revalidatePath(pagePath(requestId));
    const { refund, metadata } = prepared;
    return {
      error: null,
      prepared: {
        refundId: refund.id,
        amount: refund.amount,
        toAddress: refund.toAddress,
        warning: metadata.warning,
        feeKept: metadata.feeKept,
        refundable: metadata.refundable,
      },
    };
  } catch (err) {
    return { ...toFormState(err, REFUND_FORM_FIELDS), values };
  }
}

/** The transactions a prepared (or offered) refund's payee wallet sends now: read fresh, so a confirmed approval is not asked again. */
export interface RefundPlanState {
  error: string | null;
  plan?: { transactions: UnsignedTx[]; metadata: PayMetadata };
}

export async function refundPlanAction(input: { requestId: string; refundId: string }): Promise<RefundPlanState> {
  try {
    const me = await userForAction();
    const { refund, transactions, metadata } = await getRefund(me.account.id, String(input.requestId), String(input.refundId));
    if (!metadata || transactions.length === 0)
      return { error: `This refund is ${refund.status}: there is nothing to send. Reload the page to see where it stands.` };
    return { error: null, plan: { transactions, metadata } };
  } catch (err) {
    return toFormState(err);
  }
}

/** The payee's wallet returned the refund transfer's hash: status sent; detection confirms it from the chain. */
export async function markRefundSentAction(input: { requestId: string; refundId: string; txHash: string }): Promise<{
  error: string | null;
  status?: string;
}> {
  try {
    const me = await userForAction();
    const refund = await markRefundSent(me.account.id, String(input.requestId), String(input.refundId), String(input.txHash));
    revalidatePath(pagePath(refund.requestId));
    return { error: null, status: refund.status };
  } catch (err) {
    return toFormState(err);
  }
}

export interface CancelRefundState {
  error: string | null;
  /** The refund just cancelled (a withdrawn refund, or an offered one the payee keeps). */
  cancelled?: string;
}

/** Cancels a prepared refund (its amount can be refunded again), or declines an offered one: the payee keeps the money. */
export async function cancelRefundAction(_prev: CancelRefundState, form: FormData): Promise<CancelRefundState> {
  try {
    const me = await userForAction();
    const refund = await cancelRefund(me.account.id, idOf(form, "requestId"), idOf(form, "refundId"));
    revalidatePath(pagePath(refund.requestId));
    return { error: null, cancelled: refund.id };
  } catch (err) {
    return toFormState(err);
  }
}
