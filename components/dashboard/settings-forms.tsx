"use client";

import type { SettingsFormState } from "@/app/dashboard/settings/actions";
import { FeeFields } from "@/components/shared/fee-fields";
import { useCheckedForm } from "@/components/shared/use-checked-form";
import { buttonClass } from "@/components/ui/button";
import { FormOutcome } from "@/components/ui/form-outcome";
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
