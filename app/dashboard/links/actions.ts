"use server";

import { revalidatePath } from "next/cache";
import { findTokenCurrency } from "@/lib/currencies/registry";
import { getActiveDestination } from "@/lib/destinations/destinations";
import { toFormState } from "@/lib/errors";
import { checkForm, type FormState, formValues, refusedState } from "@/lib/forms/form-state";
import { LINK_FORM_FIELDS, linkFormBody, linkFormSchema } from "@/lib/forms/link-form";
import { userForAction } from "@/lib/http/page-session";
import { parseWith } from "@/lib/http/parse";
import { cancelSecurePayment } from "@/lib/secure-payments/cancel";
import { createSecurePayment } from "@/lib/secure-payments/create-secure-payment";

export interface LinkFormState extends FormState {
  created?: { url: string; token: string };
}

/**
 * Creates a link from the dashboard: the browser's schema (linkFormSchema: POST /v2/secure-payments'
 * body, the amount bounded by the destination currency's decimals, as the page gives the form) and
 * the API's domain function, as the signed-in account (identity mode manual_dashboard). A refusal
 * names the form's field in words and gives back what was typed.
 */
export async function createLinkAction(_prev: LinkFormState, form: FormData): Promise<LinkFormState> {
  const values = formValues(form, Object.keys(LINK_FORM_FIELDS));
  try {
    const me = await userForAction();
    const body = linkFormBody(values);
    const destination = await getActiveDestination(me.account.id);
    const decimals = destination ? findTokenCurrency(`${destination.tokenSymbol}-${destination.network}`)?.token.decimals : undefined;
    const schema = linkFormSchema(decimals);
    const checked = checkForm(schema, body, LINK_FORM_FIELDS);
    if (!checked.ok) return refusedState(checked.fieldErrors, values);
    // parseWith adds the checks every API body gets (no NUL, no lone surrogates) to the same schema.
    const link = await createSecurePayment(me.session, parseWith(schema, body));
    revalidatePath("/dashboard/links");
    return { error: null, created: { url: link.securePaymentUrl, token: link.token } };
  } catch (err) {
    return { ...toFormState(err, LINK_FORM_FIELDS), values };
  }
}

export interface CancelLinkState {
  error: string | null;
  /** The token of the link just cancelled. */
  cancelled?: string;
}

/**
 * Cancels one of the account's links (lib/secure-payments/cancel.ts): it becomes expired at once
 * and its hosted page refuses payment. Another account's token reads as not found.
 */
export async function cancelLinkAction(_prev: CancelLinkState, form: FormData): Promise<CancelLinkState> {
  try {
    const me = await userForAction();
    const token = String(form.get("token") ?? "").slice(0, 64);
    const actor = `user:${me.user.id} ${me.user.email ?? me.user.walletAddress ?? ""}`.trim();
    await cancelSecurePayment(me.account.id, token, actor);
    revalidatePath("/dashboard/links");
    return { error: null, cancelled: token };
  } catch (err) {
    return toFormState(err);
  }
}
