"use client";

import type { AccountFormState } from "@/app/admin/accounts/[id]/actions";
import { FeeFields } from "@/components/shared/fee-fields";
import { useCheckedForm } from "@/components/shared/use-checked-form";
import { buttonClass } from "@/components/ui/button";
import { Field, SelectField } from "@/components/ui/field";
import { FormOutcome } from "@/components/ui/form-outcome";
import { BRAND_FORM_FIELDS, BRAND_MAX_LENGTHS, brandFormBody, brandFormSchema } from "@/lib/forms/brand-form";
import { ADMIN_FEE_FORM_FIELDS, adminFeeFormBody, adminFeeFormSchema } from "@/lib/forms/fee-form";
import { checkForm } from "@/lib/forms/form-state";

type Action = (prev: AccountFormState, form: FormData) => Promise<AccountFormState>;
const button = buttonClass({ variant: "compact" });

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
      <FeeFields idPrefix="admin-fee" field={form.field} />
      <div className="min-w-0 space-y-3 sm:col-span-2">
        <button type="submit" disabled={form.pending} className={button}>
          Save fee
        </button>
        <FormOutcome error={form.formError} done={form.state.error ? null : form.state.done} />
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
        <FormOutcome error={form.formError} done={form.state.error ? null : form.state.done} />
      </div>
    </form>
  );
}
