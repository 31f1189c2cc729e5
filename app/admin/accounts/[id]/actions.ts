"use server";

import { revalidatePath } from "next/cache";
import { setAccountBrand } from "@/lib/accounts/issue-credentials";
import { adminForAction } from "@/lib/admin/access";
import { type AuditInput, audited } from "@/lib/admin/audit";
import { AppError, type FormFields, invalidField, toFormState } from "@/lib/errors";
import { clearFeeConfig, setFeeConfig } from "@/lib/fees/fee-config";
import { BRAND_FORM_FIELDS, brandFormBody, brandFormSchema } from "@/lib/forms/brand-form";
import { ADMIN_FEE_FORM_FIELDS, adminFeeFormBody, adminFeeFormSchema } from "@/lib/forms/fee-form";
import { checkForm, type FormCheck, type FormState, formValues, refusedState } from "@/lib/forms/form-state";
import { parseWith } from "@/lib/http/parse";

/**
 * An operator's fee and branding changes from /admin/accounts/[id]: the admin CLI's `fee:set`,
 * `fee:clear` and `account:brand` (scripts/ops/admin.ts) through the same lib functions, so the
 * same rules refuse the same input, and recorded in the audit log under the CLI's command names.
 */
export interface AccountFormState extends FormState {
  done?: string;
}

const text = (form: FormData, k: string) => String(form.get(k) ?? "").trim();

/**
 * Runs an operator's form change under the audit log: the form's schema first (the one the browser
 * checked with, so a refusal reads the same), then the lib function's own rules. A refused input is
 * logged as `….refused` with its reason and answered in words naming the field, with what was typed.
 */
async function auditedForm(
  audit: Omit<AuditInput, "target"> & { accountId: string },
  checked: FormCheck<unknown>,
  fields: FormFields,
  values: Record<string, string>,
  run: () => Promise<unknown>,
): Promise<AccountFormState | null> {
  try {
    await audited({ ...audit, target: audit.accountId }, async () => {
      if (!checked.ok) throw new AppError("validation_failed", Object.values(checked.fieldErrors)[0] ?? "Check the form");
      return run();
    });
    return null;
  } catch (err) {
    if (!checked.ok) return refusedState(checked.fieldErrors, values);
    return { ...toFormState(err, fields), values };
  }
}

/** Sets the account's fee for a flow (replacing the active one), as `npm run admin -- fee:set`. */
export async function setAccountFeeAction(_prev: AccountFormState, form: FormData): Promise<AccountFormState> {
  const values = formValues(form, Object.keys(ADMIN_FEE_FORM_FIELDS));
  try {
    const admin = await adminForAction();
    const accountId = text(form, "accountId");
    const details = Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ""));
    const body = adminFeeFormBody(values);
    const refused = await auditedForm(
      { actor: admin.actor, action: "fee:set", accountId, details },
      checkForm(adminFeeFormSchema, body, ADMIN_FEE_FORM_FIELDS),
      ADMIN_FEE_FORM_FIELDS,
      values,
      () => {
        // parseWith adds the checks every API body gets (no NUL, no lone surrogates); setFeeConfig checks the rest (EIP-55, base58check).
        const fee = parseWith(adminFeeFormSchema, body);
        return setFeeConfig({
          accountId,
          flow: fee.flow,
          percentageBps: fee.bps,
          capUsd: fee.cap,
          feeBearer: fee.bearer,
          evmAddress: fee.evm,
          tronAddress: fee.tron,
          label: fee.label,
        });
      },
    );
    if (refused) return refused;
    revalidatePath(`/admin/accounts/${accountId}`);
    return { error: null, done: `Fee saved: links created from now on carry it.`, values };
  } catch (err) {
    return { ...toFormState(err), values };
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
  const values = formValues(form, Object.keys(BRAND_FORM_FIELDS));
  try {
    const admin = await adminForAction();
    const accountId = text(form, "accountId");
    const body = brandFormBody(values);
    const refused = await auditedForm(
      { actor: admin.actor, action: "account:brand", accountId, details: { name: values.name?.trim(), logoUrl: values.logoUrl?.trim() } },
      checkForm(brandFormSchema, body, BRAND_FORM_FIELDS),
      BRAND_FORM_FIELDS,
      values,
      () => {
        const brand = parseWith(brandFormSchema, body);
        return setAccountBrand(accountId, { name: brand.name, logoUrl: brand.logoUrl ?? null });
      },
    );
    if (refused) return refused;
    revalidatePath(`/admin/accounts/${accountId}`);
    return { error: null, done: "Branding saved: the account's pay pages show it now.", values };
  } catch (err) {
    return { ...toFormState(err), values };
  }
}
