"use client";

import type { AccountFormState } from "@/app/admin/accounts/[id]/actions";
import { useCheckedForm } from "@/components/shared/use-checked-form";
import { Alert } from "@/components/ui/alert";
import { buttonClass } from "@/components/ui/button";
import { Field, SelectField } from "@/components/ui/field";
import { BRAND_FORM_FIELDS, BRAND_MAX_LENGTHS, brandFormBody, brandFormSchema } from "@/lib/forms/brand-form";
import { ADMIN_FEE_FORM_FIELDS, adminFeeFormBody, adminFeeFormSchema, FEE_MAX_LENGTHS } from "@/lib/forms/fee-form";
import { checkForm } from "@/lib/forms/form-state";

type Action = (prev: AccountFormState, form: FormData) => Promise<AccountFormState>;
const button = buttonClass({ variant: "compact" });

/** The server's answer under the form: its error when no field shows it, else what was saved. */
function Outcome({ formError, state }: { formError: string | null; state: AccountFormState }) {
  if (formError)
    return (
      <Alert as="p" role="alert">
        {formError}
      </Alert>
    );
  if (state.done && !state.error)
    return (
      <p role="status" className="break-words text-sm text-emerald-800">
        {state.done}
      </p>
    );
  return null;
}

/**
 * `npm run admin -- fee:set` as a form: the fee the account's links carry, for one flow. The fields
 * and rules of the merchant's own fee form in Settings (lib/forms/fee-form.ts), plus the flow,
 * checked in the browser first; a refused value stays in its field with the reason under it.
 */
export function AdminFeeForm({ accountId, action }: { accountId: string; action: Action }) {
  const form = useCheckedForm({
    action,
    initial: { flow: "get_paid", bps: "", cap: "", bearer: "payer", label: "", evm: "", tron: "" },
    check: (v) => checkForm(adminFeeFormSchema, adminFeeFormBody(v), ADMIN_FEE_FORM_FIELDS),
  });
  return (
    <form ref={form.formRef} action={form.formAction} onSubmit={form.onSubmit} noValidate className="grid gap-3 sm:grid-cols-2">
      <input type="hidden" name="accountId" value={accountId} />
      <SelectField id="admin-fee-flow" size="sm" label="Flow" {...form.field("flow")}>
        <option value="get_paid">Get paid (payment links)</option>
        <option value="pay">Pay (payout links)</option>
      </SelectField>
      <Field
        id="admin-fee-bps"
        size="sm"
        label="Fee (basis points, 100 = 1%)"
        inputMode="numeric"
        maxLength={FEE_MAX_LENGTHS.bps}
        placeholder="250"
        required
        {...form.field("bps")}
      />
      <Field
        id="admin-fee-cap"
        size="sm"
        label="Cap (USD, optional)"
        inputMode="decimal"
        maxLength={FEE_MAX_LENGTHS.cap}
        placeholder="5.00"
        {...form.field("cap")}
      />
      <SelectField id="admin-fee-bearer" size="sm" label="Paid by" {...form.field("bearer")}>
        <option value="payer">the payer (added on top)</option>
        <option value="payee">the payee (taken from the amount)</option>
      </SelectField>
      <Field
        id="admin-fee-label"
        size="sm"
        label="Label shown to payers"
        placeholder="Platform fee"
        maxLength={FEE_MAX_LENGTHS.label}
        {...form.field("label")}
      />
      <Field
        id="admin-fee-evm"
        size="sm"
        label="Fee address (EVM)"
        className="font-mono"
        maxLength={FEE_MAX_LENGTHS.evm}
        placeholder="0x…"
        autoComplete="off"
        spellCheck={false}
        {...form.field("evm")}
      />
      <Field
        id="admin-fee-tron"
        size="sm"
        label="Fee address (Tron)"
        className="font-mono"
        maxLength={FEE_MAX_LENGTHS.tron}
        placeholder="T…"
        autoComplete="off"
        spellCheck={false}
        {...form.field("tron")}
      />
      <div className="min-w-0 space-y-3 sm:col-span-2">
        <button type="submit" disabled={form.pending} className={button}>
          Save fee
        </button>
        <Outcome formError={form.formError} state={form.state} />
      </div>
    </form>
  );
}

/**
 * `npm run admin -- account:brand` as a form: the name and logo payers see on the account's pay
 * pages, with setAccountBrand's limits (lib/accounts/brand-schema.ts) checked in the browser first.
 */
export function AdminBrandForm({
  accountId,
  current,
  action,
}: {
  accountId: string;
  current: { name: string; logoUrl: string | null };
  action: Action;
}) {
  const form = useCheckedForm({
    action,
    initial: { name: current.name, logoUrl: current.logoUrl ?? "" },
    check: (v) => checkForm(brandFormSchema, brandFormBody(v), BRAND_FORM_FIELDS),
  });
  return (
    <form ref={form.formRef} action={form.formAction} onSubmit={form.onSubmit} noValidate className="grid gap-3">
      <input type="hidden" name="accountId" value={accountId} />
      <Field
        id="admin-brand-name"
        size="sm"
        label="Display name"
        hint="Shown to payers as the merchant on hosted pay pages."
        maxLength={BRAND_MAX_LENGTHS.name}
        required
        {...form.field("name")}
      />
      <Field
        id="admin-brand-logo"
        size="sm"
        label="Logo URL (optional)"
        hint="An https image; empty removes the logo."
        type="url"
        maxLength={BRAND_MAX_LENGTHS.logoUrl}
        placeholder="https://…/logo.png"
        spellCheck={false}
        {...form.field("logoUrl")}
      />
      <div className="min-w-0 space-y-3">
        <button type="submit" disabled={form.pending} className={button}>
          Save branding
        </button>
        <Outcome formError={form.formError} state={form.state} />
      </div>
    </form>
  );
}
