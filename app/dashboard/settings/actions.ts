"use server";

import { revalidatePath } from "next/cache";
import { createDestination, deactivateDestination } from "@/lib/destinations/destinations";
import { toFormState } from "@/lib/errors";
import { clearFeeConfig, setFeeConfig } from "@/lib/fees/fee-config";
import { userForAction } from "@/lib/http/page-session";
import { parseWith } from "@/lib/http/parse";
import { createDestinationOp } from "@/lib/operations/destinations";

export interface SettingsFormState {
  error: string | null;
  field?: string;
  done?: string;
  values?: Record<string, string>;
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

/** The account's platform fee on its payment links (what the admin CLI's fee:set does). */
export async function setFeeAction(_prev: SettingsFormState, form: FormData): Promise<SettingsFormState> {
  const get = (k: string) => String(form.get(k) ?? "").trim();
  const values = { bps: get("bps"), cap: get("cap"), bearer: get("bearer"), evm: get("evm"), tron: get("tron"), label: get("label") };
  try {
    const me = await userForAction();
    if (!/^\d{1,5}$/.test(values.bps)) return { error: "bps: must be an integer from 0 to 10000", values };
    if (values.bearer !== "payer" && values.bearer !== "payee") return { error: "bearer: must be payer or payee", values };
    if (values.label.length > 60) return { error: "label: must be at most 60 characters", values };
    await setFeeConfig({
      accountId: me.account.id,
      flow: "get_paid",
      percentageBps: Number(values.bps),
      capUsd: values.cap || undefined,
      feeBearer: values.bearer,
      evmAddress: values.evm || undefined,
      tronAddress: values.tron || undefined,
      label: values.label || undefined,
    });
    revalidatePath("/dashboard/settings");
    return { error: null, done: "Fee saved; new links use it." };
  } catch (err) {
    return { ...toFormState(err), values };
  }
}

export async function clearFeeAction(): Promise<void> {
  const me = await userForAction();
  await clearFeeConfig(me.account.id, "get_paid");
  revalidatePath("/dashboard/settings");
}
