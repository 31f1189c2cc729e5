"use client";

import type { SettingsFormState } from "@/app/dashboard/settings/actions";
import { FeeFields } from "@/components/shared/fee-fields";
import { useCheckedForm } from "@/components/shared/use-checked-form";
import { buttonClass } from "@/components/ui/button";
import { SelectField } from "@/components/ui/field";
import { FormOutcome } from "@/components/ui/form-outcome";
import { EXCESS_POLICY_FORM_FIELDS, excessPolicyFormBody, excessPolicyFormSchema } from "@/lib/forms/excess-policy-form";
import { FEE_FORM_FIELDS, feeFormBody, feeFormSchema } from "@/lib/forms/fee-form";
import { checkForm } from "@/lib/forms/form-state";

type Action = (prev: SettingsFormState, form: FormData) => Promise<SettingsFormState>;
const button = buttonClass({ variant: "compact" });

/**
 * The account's platform fee on its links: setFeeConfig's schema (the admin CLI's rules), checked in
 * the browser first; a refused value stays in its field with the reason under it.
 */
export function FeeForm({ action, current }: { action: Action; current: Record<string, string> }) {
  const form = useCheckedForm({
    action,
    initial: { bps: "", cap: "", label: "", evm: "", tron: "", ...current, bearer: current.bearer || "payer" },
    check: (v) => checkForm(feeFormSchema, feeFormBody(v), FEE_FORM_FIELDS),
  });
  const { state } = form;
  return (
    <form ref={form.formRef} action={form.formAction} onSubmit={form.onSubmit} noValidate className="grid gap-3 sm:grid-cols-2">
      <FeeFields idPrefix="fee" field={form.field} />
      <div className="min-w-0 space-y-3 sm:col-span-2">
        <button type="submit" disabled={form.pending} className={button}>
          Save fee
        </button>
        <FormOutcome error={form.formError} done={state.error ? null : state.done} />
      </div>
    </form>
  );
}

/**
 * The account's wrong-amount policy (lib/refunds/policy.ts): what its links do with an overpayment's
 * excess and with an underpaid or late payment. One select; a link may choose its own through the API.
 */
export function ExcessPolicyForm({ action, current }: { action: Action; current: string }) {
  const form = useCheckedForm({
    action,
    initial: { policy: current || "offer" },
    check: (v) => checkForm(excessPolicyFormSchema, excessPolicyFormBody(v), EXCESS_POLICY_FORM_FIELDS),
  });
  const { state } = form;
  return (
    <form ref={form.formRef} action={form.formAction} onSubmit={form.onSubmit} noValidate className="space-y-3">
      <SelectField id="excess-policy" size="sm" label={EXCESS_POLICY_FORM_FIELDS.policy.label} {...form.field("policy")}>
        <option value="return">Return it automatically (deposit addresses; otherwise offered to you)</option>
        <option value="offer">Offer it to me as a one-click refund</option>
        <option value="keep">Keep it</option>
      </SelectField>
      <button type="submit" disabled={form.pending} className={button}>
        Save
      </button>
      <FormOutcome error={form.formError} done={state.error ? null : state.done} />
    </form>
  );
}
