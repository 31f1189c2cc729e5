"use client";

import { useActionState } from "react";
import type { AdminFormState } from "@/app/admin/actions";
import { Alert } from "@/components/ui/alert";

/** Issues an orchestrator key to the account; the secret appears once, to hand over securely. */
export function IssueKeyForm({
  accountId,
  action,
}: {
  accountId: string;
  action: (p: AdminFormState, f: FormData) => Promise<AdminFormState>;
}) {
  const [state, formAction, pending] = useActionState(action, { error: null });
  return (
    <form action={formAction} className="space-y-2">
      <input type="hidden" name="accountId" value={accountId} />
      <div className="flex flex-wrap gap-2">
        <input
          name="name"
          aria-label="Key name"
          placeholder="orchestrator"
          maxLength={100}
          className="min-h-10 min-w-0 flex-1 rounded-lg border-0 px-2.5 py-1.5 text-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600"
        />
        <button
          type="submit"
          disabled={pending}
          className="rounded-lg bg-slate-900 px-4 py-2 text-sm font-semibold text-white hover:bg-slate-700 disabled:opacity-60"
        >
          Issue orchestrator key
        </button>
      </div>
      {state.error ? (
        <Alert as="p" role="alert">
          {state.error}
        </Alert>
      ) : null}
      {state.secret ? (
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
