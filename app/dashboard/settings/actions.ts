"use server";

import { revalidatePath } from "next/cache";
import { setAccountExcessPolicy } from "@/lib/accounts/excess-policy";
import { createDestination, deactivateDestination } from "@/lib/destinations/destinations";
import { createSigningData, createTronSigningData } from "@/lib/destinations/proof";
import { receivingCurrency } from "@/lib/destinations/receiving";
import { invalidField, toFormState } from "@/lib/errors";
import { clearFeeConfig, setFeeConfig } from "@/lib/fees/fee-config";
import { EXCESS_POLICY_FORM_FIELDS, excessPolicyFormBody, excessPolicyFormSchema } from "@/lib/forms/excess-policy-form";
import { FEE_FORM_FIELDS, feeFormBody, feeFormSchema } from "@/lib/forms/fee-form";
import { checkForm, type FormState, formValues, refusedState } from "@/lib/forms/form-state";
import { userForAction } from "@/lib/http/page-session";
import { parseWith } from "@/lib/http/parse";
import { createDestinationOp, destinationSigningDataOp } from "@/lib/operations/destinations";

export interface SettingsFormState extends FormState {
  done?: string;
}

/**
 * POST /v2/payee-destination from the dashboard, for a wallet session's own address (no proof:
 * the session proved the wallet): the same schema and rules as the API.
 */
export async function setDestinationAction(_prev: SettingsFormState, form: FormData): Promise<SettingsFormState> {
  const values = { currency: String(form.get("currency") ?? "") };
  try {
    const me = await userForAction();
    const body = parseWith(createDestinationOp.body!, { currency: values.currency });
    const d = await createDestination(me.session, body);
    revalidatePath("/dashboard", "layout");
    return { error: null, done: `Payments now go to ${d.walletAddress} (${d.currency})` };
  } catch (err) {
    return { ...toFormState(err), values };
  }
}

/**
 * GET /v2/payee-destination/signing-data's query (same schema) for a Settings currency and wallet:
 * action `add`, the currency's token and chain. Both wallet kinds' step 1 start here.
 */
function signingQuery(input: { currency: string; walletAddress: string }) {
  const currency = receivingCurrency(String(input.currency ?? ""));
  const query = parseWith(destinationSigningDataOp.query!, {
    walletAddress: String(input.walletAddress ?? ""),
    action: "add",
    tokenAddress: currency.token.address,
    chainId: String(currency.dto.chainId),
  });
  return { currency, query };
}

/** The EIP-712 data the connected wallet signs (GET /v2/payee-destination/signing-data's, action `add`). */
export interface DestinationSigningData {
  domain: { name: string; version: string; chainId: number };
  types: Record<string, { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, string>;
  nonce: string;
}

/**
 * Step 1 of registering a connected wallet from Settings: the signing data of GET
 * /v2/payee-destination/signing-data for the chosen currency's token and chain (same query
 * schema, same lib function: one nonce, five minutes, single use).
 */
export async function destinationSigningDataAction(input: {
  currency: string;
  walletAddress: string;
}): Promise<{ error: string | null; field?: string; data?: DestinationSigningData }> {
  try {
    const me = await userForAction();
    const { query } = signingQuery(input);
    const { domain, types, primaryType, message, nonce } = await createSigningData(me.account.id, query);
    return { error: null, data: { domain, types: types as unknown as DestinationSigningData["types"], primaryType, message, nonce } };
  } catch (err) {
    return toFormState(err);
  }
}

/** The text a Tron wallet signs (TRON message v2) to become the destination, and its single-use nonce. */
export interface TronDestinationMessage {
  message: string;
  nonce: string;
  expiresAt: string;
}

/**
 * Step 1 for a Tron wallet (TronLink cannot sign EIP-712): the same signing data — the account,
 * action `add`, the wallet, the currency's token and chain, one nonce, five minutes, single use —
 * as a text the wallet signs with TRON message v2. Step 2 is saveSignedDestinationAction: the
 * same POST /v2/payee-destination rules, the signer recovered as Tron sign-in recovers it.
 */
export async function tronDestinationMessageAction(input: {
  currency: string;
  walletAddress: string;
}): Promise<{ error: string | null; field?: string; data?: TronDestinationMessage }> {
  try {
    const me = await userForAction();
    const { currency, query } = signingQuery(input);
    if (currency.token.network !== "tron") throw invalidField("currency", `${currency.id} is not received on Tron`);
    return { error: null, data: await createTronSigningData(me.account.id, query) };
  } catch (err) {
    return toFormState(err);
  }
}

/**
 * Step 2: POST /v2/payee-destination with the wallet's signature of that data (same body schema,
 * same lib function, which checks the nonce and the signature).
 */
export async function saveSignedDestinationAction(input: {
  currency: string;
  walletAddress: string;
  nonce: string;
  signature: string;
}): Promise<SettingsFormState> {
  try {
    const me = await userForAction();
    const body = parseWith(createDestinationOp.body!, {
      currency: String(input.currency ?? ""),
      walletAddress: String(input.walletAddress ?? ""),
      nonce: String(input.nonce ?? ""),
      signature: String(input.signature ?? ""),
    });
    const d = await createDestination(me.session, body);
    revalidatePath("/dashboard", "layout");
    return { error: null, done: `Payments now go to ${d.walletAddress} (${d.currency})` };
  } catch (err) {
    return toFormState(err);
  }
}

/** Deactivates the account's destination (a session needs no proof, as DELETE /v2/payee-destination/{id}). */
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

/** What the account's links do with an excess, an underpaid or a late payment (lib/refunds/policy.ts); a link may choose its own. */
export async function setExcessPolicyAction(_prev: SettingsFormState, form: FormData): Promise<SettingsFormState> {
  const values = formValues(form, Object.keys(EXCESS_POLICY_FORM_FIELDS));
  try {
    const me = await userForAction();
    const checked = checkForm(excessPolicyFormSchema, excessPolicyFormBody(values), EXCESS_POLICY_FORM_FIELDS);
    if (!checked.ok) return refusedState(checked.fieldErrors, values);
    const actor = `user:${me.user.id} ${me.user.email ?? me.user.walletAddress ?? ""}`.trim();
    await setAccountExcessPolicy(me.account.id, checked.data.policy, actor);
    revalidatePath("/dashboard/settings");
    return { error: null, done: "Saved: it applies to your links without a policy of their own." };
  } catch (err) {
    return { ...toFormState(err, EXCESS_POLICY_FORM_FIELDS), values };
  }
}
