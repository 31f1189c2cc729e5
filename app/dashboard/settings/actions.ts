"use server";

import { revalidatePath } from "next/cache";
import { createDestination, deactivateDestination } from "@/lib/destinations/destinations";
import { toFormState } from "@/lib/errors";
import { clearFeeConfig, setFeeConfig } from "@/lib/fees/fee-config";
import { FEE_FORM_FIELDS, feeFormBody, feeFormSchema } from "@/lib/forms/fee-form";
import { checkForm, type FormState, formValues, refusedState } from "@/lib/forms/form-state";
import { userForAction } from "@/lib/http/page-session";
import { parseWith } from "@/lib/http/parse";
import { createDestinationOp } from "@/lib/operations/destinations";

export interface SettingsFormState extends FormState {
  done?: string;
}

/**
 * POST /v2/payee-destination from the dashboard: the same schema and rules (a wallet session
 * registers its own address; any other address needs the signed proof of the API).
 */
export async function setDestinationAction(_prev: SettingsFormState, form: FormData): Promise<SettingsFormState> {
  const values = { currency: String(form.get("currency") ?? ""), walletAddress: String(form.get("walletAddress") ?? "").trim() };
  try {
    const me = await userForAction();
    const body = parseWith(createDestinationOp.body!, {
      currency: values.currency,
      ...(values.walletAddress ? { walletAddress: values.walletAddress } : {}),
    });
    const d = await createDestination(me.session, body);
    revalidatePath("/dashboard", "layout");
    return { error: null, done: `Payments now go to ${d.walletAddress} (${d.currency})` };
  } catch (err) {
    return { ...toFormState(err), values };
  }
}

export async function deactivateDestinationAction(form: FormData): Promise<void> {
  const me = await userForAction();
  await deactivateDestination(me.account.id, String(form.get("id") ?? ""));
  revalidatePath("/dashboard", "layout");
}

/** The account's platform fee on its payment links (what the admin CLI's fee:set does, with its rules). */
export async function setFeeAction(_prev: SettingsFormState, form: FormData): Promise<SettingsFormState> {
  const values = formValues(form, Object.keys(FEE_FORM_FIELDS));
  try {
    const me = await userForAction();
    const checked = checkForm(feeFormSchema, feeFormBody(values), FEE_FORM_FIELDS);
    if (!checked.ok) return refusedState(checked.fieldErrors, values);
    // parseWith adds the checks every API body gets (no NUL, no lone surrogates) to the same schema.
    const fee = parseWith(feeFormSchema, feeFormBody(values));
    await setFeeConfig({
      accountId: me.account.id,
      flow: "get_paid",
      percentageBps: fee.bps,
      capUsd: fee.cap,
      feeBearer: fee.bearer,
      evmAddress: fee.evm,
      tronAddress: fee.tron,
      label: fee.label,
    });
    revalidatePath("/dashboard/settings");
    return { error: null, done: "Fee saved; new links use it." };
  } catch (err) {
    return { ...toFormState(err, FEE_FORM_FIELDS), values };
  }
}

export async function clearFeeAction(): Promise<void> {
  const me = await userForAction();
  await clearFeeConfig(me.account.id, "get_paid");
  revalidatePath("/dashboard/settings");
}
