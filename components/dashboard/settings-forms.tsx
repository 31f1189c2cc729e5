"use client";

import type { SettingsFormState } from "@/app/dashboard/settings/actions";
import { useCheckedForm } from "@/components/shared/use-checked-form";
import { Alert } from "@/components/ui/alert";
import { buttonClass } from "@/components/ui/button";
import { Field, SelectField } from "@/components/ui/field";
import { FEE_FORM_FIELDS, FEE_MAX_LENGTHS, feeFormBody, feeFormSchema } from "@/lib/forms/fee-form";
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
      <Field
        id="fee-bps"
        size="sm"
        label="Fee (basis points, 100 = 1%)"
        inputMode="numeric"
        maxLength={FEE_MAX_LENGTHS.bps}
        required
        {...form.field("bps")}
      />
      <Field
        id="fee-cap"
        size="sm"
        label="Cap (USD, optional)"
        inputMode="decimal"
        maxLength={FEE_MAX_LENGTHS.cap}
        {...form.field("cap")}
      />
      <SelectField id="fee-bearer" size="sm" label="Paid by" {...form.field("bearer")}>
        <option value="payer">the payer (added on top)</option>
        <option value="payee">the payee (taken from the amount)</option>
      </SelectField>
      <Field
        id="fee-label"
        size="sm"
        label="Label shown to payers"
        placeholder="Platform fee"
        maxLength={FEE_MAX_LENGTHS.label}
        {...form.field("label")}
      />
      <Field
        id="fee-evm"
        size="sm"
        label="Fee address (EVM)"
        className="font-mono"
        maxLength={FEE_MAX_LENGTHS.evm}
        autoComplete="off"
        {...form.field("evm")}
      />
      <Field
        id="fee-tron"
        size="sm"
        label="Fee address (Tron)"
        className="font-mono"
        maxLength={FEE_MAX_LENGTHS.tron}
        autoComplete="off"
        {...form.field("tron")}
      />
      <div className="min-w-0 space-y-3 sm:col-span-2">
        <button type="submit" disabled={form.pending} className={button}>
          Save fee
        </button>
        {form.formError ? (
          <Alert as="p" role="alert">
            {form.formError}
          </Alert>
        ) : state.done && !state.error ? (
          <p role="status" className="break-words text-sm text-emerald-800">
            {state.done}
          </p>
        ) : null}
      </div>
    </form>
  );
}
