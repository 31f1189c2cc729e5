"use server";

import { revalidatePath } from "next/cache";
import { setAccountBrand } from "@/lib/accounts/issue-credentials";
import { adminForAction } from "@/lib/admin/access";
import { audited } from "@/lib/admin/audit";
import { AppError, invalidField } from "@/lib/errors";
import { clearFeeConfig, setFeeConfig } from "@/lib/fees/fee-config";

/**
 * An operator's fee and branding changes from /admin/accounts/[id]: the admin CLI's `fee:set`,
 * `fee:clear` and `account:brand` (scripts/ops/admin.ts) through the same lib functions, so the
 * same rules refuse the same input, and recorded in the audit log under the CLI's command names.
 */
export interface AccountFormState {
  error: string | null;
  /** The field at fault, as the form names its input. */
  field?: string;
  done?: string;
  /** What was typed, given back so a refused form keeps it. */
  values?: Record<string, string>;
}

/** The form's words for each field the lib functions name. */
const LABELS: Record<string, string> = {
  flow: "Flow",
  bps: "Fee (basis points)",
  cap: "Cap (USD)",
  bearer: "Paid by",
  evm: "Fee address (EVM)",
  tron: "Fee address (Tron)",
  label: "Label",
  name: "Display name",
  logoUrl: "Logo URL",
};

/** A refused input in words: "Fee (basis points) must be an integer from 0 to 10000", with the field for the form. */
function refused(err: unknown, values: Record<string, string>): AccountFormState {
  if (!(err instanceof AppError)) throw err;
  const first = err.errors?.[0];
  if (!first) return { error: err.message, values };
  return { error: `${LABELS[first.field] ?? first.field} ${first.message}`, field: first.field, values };
}

const text = (form: FormData, k: string) => String(form.get(k) ?? "").trim();

/** Sets the account's fee for a flow (replacing the active one), as `npm run admin -- fee:set`. */
export async function setAccountFeeAction(_prev: AccountFormState, form: FormData): Promise<AccountFormState> {
  const values = {
    flow: text(form, "flow"),
    bps: text(form, "bps"),
    cap: text(form, "cap"),
    bearer: text(form, "bearer"),
    evm: text(form, "evm"),
    tron: text(form, "tron"),
    label: text(form, "label"),
  };
  try {
    const admin = await adminForAction();
    const accountId = text(form, "accountId");
    const details = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ""));
    await audited({ actor: admin.actor, action: "fee:set", target: accountId, accountId, details }, async () => {
      // The CLI's own checks (flowOf, need): the rest are setFeeConfig's, shared with the CLI and Settings.
      if (values.flow !== "get_paid" && values.flow !== "pay") throw invalidField("flow", "must be get_paid or pay");
      if (!values.bps) throw invalidField("bps", "is required");
      if (values.bearer !== "payer" && values.bearer !== "payee") throw invalidField("bearer", "must be payer or payee");
      return setFeeConfig({
        accountId,
        flow: values.flow,
        percentageBps: Number(values.bps),
        capUsd: values.cap || undefined,
        feeBearer: values.bearer,
        evmAddress: values.evm || undefined,
        tronAddress: values.tron || undefined,
        label: values.label || undefined,
      });
    });
    revalidatePath(`/admin/accounts/${accountId}`);
    return { error: null, done: `Fee saved: links created from now on carry it.`, values };
  } catch (err) {
    return refused(err, values);
  }
}

/** Removes the account's own fee for a flow, as `npm run admin -- fee:clear`. */
export async function clearAccountFeeAction(form: FormData): Promise<void> {
  const admin = await adminForAction();
  const accountId = text(form, "accountId");
  const flow = text(form, "flow");
  if (flow !== "get_paid" && flow !== "pay") throw invalidField("flow", "must be get_paid or pay");
  await audited({ actor: admin.actor, action: "fee:clear", target: accountId, accountId, details: { flow } }, () =>
    clearFeeConfig(accountId, flow),
  );
  revalidatePath(`/admin/accounts/${accountId}`);
}

/**
 * What payers see of the account on its hosted pay pages (its name and logo), as
 * `npm run admin -- account:brand`; an empty logo removes it (the CLI's `--logo none`).
 */
export async function setAccountBrandAction(_prev: AccountFormState, form: FormData): Promise<AccountFormState> {
  const values = { name: text(form, "name"), logoUrl: text(form, "logoUrl") };
  try {
    const admin = await adminForAction();
    const accountId = text(form, "accountId");
    await audited({ actor: admin.actor, action: "account:brand", target: accountId, accountId, details: values }, () =>
      setAccountBrand(accountId, { name: values.name, logoUrl: values.logoUrl || null }),
    );
    revalidatePath(`/admin/accounts/${accountId}`);
    return { error: null, done: "Branding saved: the account's pay pages show it now.", values };
  } catch (err) {
    return refused(err, values);
  }
}
