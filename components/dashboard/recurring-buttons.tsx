"use client";

import { useActionState } from "react";
import type { RecurringFormState } from "@/app/dashboard/recurring/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";

const small = "rounded-md px-2 py-1 text-xs font-medium ring-1 ring-inset disabled:opacity-60";

/**
 * The actions a schedule allows in its state, with the API's error shown beside them. Cancel is
 * final, so it asks first, naming the payments that will not be made.
 */
export function RecurringButtons({
  id,
  actions,
  action,
  summary,
  remaining,
}: {
  id: string;
  actions: ("pause" | "resume" | "unpause" | "cancel")[];
  action: (prev: RecurringFormState, form: FormData) => Promise<RecurringFormState>;
  /** The schedule in words, for the cancel dialog: "12 USDC monthly to 0x3C44…93BC". */
  summary: string;
  /** Payments the schedule has still to make. */
  remaining: number;
}) {
  const [state, formAction, pending] = useActionState(action, { error: null });
  if (actions.length === 0) return null;
  return (
    <form action={formAction} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="id" value={id} />
      {actions.map((a) =>
        a === "cancel" ? (
          <ConfirmButton
            key={a}
            name="action"
            value="cancel"
            disabled={pending}
            title={`Cancel the schedule ${summary}?`}
            confirmLabel="Cancel schedule"
            className={`${small} text-rose-700 ring-rose-200 hover:bg-rose-50`}
            consequence={
              <p>
                {remaining === 1 ? "The 1 payment still due is" : `The ${remaining} payments still due are`} not made: no payment of this
                schedule is triggered any more, and the relayer cancels it on chain. A cancelled schedule cannot be resumed; the payer would
                have to sign a new one.
              </p>
            }
          >
            Cancel
          </ConfirmButton>
        ) : (
          <button
            key={a}
            type="submit"
            name="action"
            value={a}
            disabled={pending}
            className={`${small} text-slate-700 ring-slate-300 hover:bg-slate-50`}
          >
            {a === "unpause" ? "Resume after failure" : a[0]!.toUpperCase() + a.slice(1)}
          </button>
        ),
      )}
      {state.error ? (
        <span role="alert" className="basis-full break-words text-xs text-rose-700">
          {state.error}
        </span>
      ) : null}
    </form>
  );
}
