"use client";

import type { AdminFormState } from "@/app/admin/actions";
import { useCheckedForm } from "@/components/shared/use-checked-form";
import { Alert } from "@/components/ui/alert";
import { Field } from "@/components/ui/field";
import { checkForm } from "@/lib/forms/form-state";
import { CREDENTIAL_NAME_MAX, credentialNameSchema, ORCHESTRATOR_KEY_FORM_FIELDS } from "@/lib/forms/key-forms";

/** Issues an orchestrator key to the account; the secret appears once, to hand over securely. */
export function IssueKeyForm({
  accountId,
  action,
}: {
  accountId: string;
  action: (p: AdminFormState, f: FormData) => Promise<AdminFormState>;
}) {
  const form = useCheckedForm({
    action,
    initial: { name: "" },
    check: (v) => checkForm(credentialNameSchema, { name: v.name ?? "" }, ORCHESTRATOR_KEY_FORM_FIELDS),
    clearOnSuccess: (s) => Boolean(s.secret),
  });
  const { state } = form;
  return (
    <form ref={form.formRef} action={form.formAction} onSubmit={form.onSubmit} noValidate className="space-y-2">
      <input type="hidden" name="accountId" value={accountId} />
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1 basis-56">
          <Field
            id="orchestrator-key-name"
            size="sm"
            label="Key name"
            placeholder="orchestrator"
            maxLength={CREDENTIAL_NAME_MAX}
            {...form.field("name")}
          />
        </div>
        <button
          type="submit"
          disabled={form.pending}
          className="rounded-lg bg-slate-900 px-4 py-2 text-sm font-semibold text-white hover:bg-slate-700 disabled:opacity-60"
        >
          Issue orchestrator key
        </button>
      </div>
      {form.formError ? (
        <Alert as="p" role="alert">
          {form.formError}
        </Alert>
      ) : null}
      {state.secret && !state.error ? (
        <Alert role="status" tone="warning">
          <p className="font-medium">Hand this key over now: it is shown only once.</p>
          <p className="mt-1 break-all font-mono text-[13px]" data-testid="new-orchestrator-key">
            {state.secret}
          </p>
        </Alert>
      ) : null}
    </form>
  );
}
