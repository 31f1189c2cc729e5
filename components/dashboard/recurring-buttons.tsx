"use client";

import { useActionState } from "react";
import type { RecurringFormState } from "@/app/dashboard/recurring/actions";

const small = "rounded-md px-2 py-1 text-xs font-medium ring-1 ring-inset disabled:opacity-60";

/** The actions a schedule allows in its state, with the API's error shown beside them. */
export function RecurringButtons({
  id,
  actions,
  action,
}: {
  id: string;
  actions: ("pause" | "resume" | "unpause" | "cancel")[];
  action: (prev: RecurringFormState, form: FormData) => Promise<RecurringFormState>;
}) {
  const [state, formAction, pending] = useActionState(action, { error: null });
  if (actions.length === 0) return null;
  return (
    <form action={formAction} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="id" value={id} />
      {actions.map((a) => (
        <button
          key={a}
          type="submit"
          name="action"
          value={a}
          disabled={pending}
          className={`${small} ${a === "cancel" ? "text-rose-700 ring-rose-200 hover:bg-rose-50" : "text-slate-700 ring-slate-300 hover:bg-slate-50"}`}
        >
          {a === "unpause" ? "Resume after failure" : a[0]!.toUpperCase() + a.slice(1)}
        </button>
      ))}
      {state.error ? (
        <span role="alert" className="basis-full text-xs text-rose-700">
          {state.error}
        </span>
      ) : null}
    </form>
  );
}
