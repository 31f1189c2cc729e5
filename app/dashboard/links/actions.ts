"use server";

import { revalidatePath } from "next/cache";
import { toFormState } from "@/lib/errors";
import { checkForm, type FormState, formValues, refusedState } from "@/lib/forms/form-state";
import { LINK_FORM_FIELDS, linkFormBody } from "@/lib/forms/link-form";
import { userForAction } from "@/lib/http/page-session";
import { parseWith } from "@/lib/http/parse";
import { createSecurePaymentBodySchema } from "@/lib/operations/secure-payments-schemas";
import { createSecurePayment } from "@/lib/secure-payments/create-secure-payment";

export interface LinkFormState extends FormState {
  created?: { url: string; token: string };
}

/**
 * Creates a link from the dashboard: the same zod schema and domain function as
 * POST /v2/secure-payments, as the signed-in account (identity mode manual_dashboard). A refusal
 * names the form's field in words and gives back what was typed.
 */
export async function createLinkAction(_prev: LinkFormState, form: FormData): Promise<LinkFormState> {
  const values = formValues(form, Object.keys(LINK_FORM_FIELDS));
  try {
    const me = await userForAction();
    const body = linkFormBody(values);
    const checked = checkForm(createSecurePaymentBodySchema, body, LINK_FORM_FIELDS);
    if (!checked.ok) return refusedState(checked.fieldErrors, values);
    // parseWith adds the checks every API body gets (no NUL, no lone surrogates) to the same schema.
    const link = await createSecurePayment(me.session, parseWith(createSecurePaymentBodySchema, body));
    revalidatePath("/dashboard/links");
    return { error: null, created: { url: link.securePaymentUrl, token: link.token } };
  } catch (err) {
    return { ...toFormState(err, LINK_FORM_FIELDS), values };
  }
}
