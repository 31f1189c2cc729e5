"use client";

import { type ReactNode, useId, useRef } from "react";
import { cx } from "./cx";

/**
 * A destructive submit button that asks first. It must sit inside the `<form>` it submits: the
 * confirm button of its dialog is that form's submit button (with `name`/`value` when given), so
 * server actions and `useActionState` see the same FormData as from a plain submit button.
 *
 * `consequence` names what stops working ("Integrations using key ‘prod’ get 401 from now on.").
 */
export function ConfirmButton({
  children,
  title,
  consequence,
  confirmLabel,
  name,
  value,
  disabled,
  className,
}: {
  children: ReactNode;
  /** The dialog's heading: "Revoke API key ‘prod’?" */
  title: string;
  consequence: ReactNode;
  /** The confirm button's text; defaults to the trigger's text when that is a string. */
  confirmLabel?: string;
  name?: string;
  value?: string;
  disabled?: boolean;
  className?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  const bodyId = useId();
  return (
    <>
      <button
        type="button"
        disabled={disabled}
        onClick={() => dialog.current?.showModal()}
        className={cx(
          className ??
            "rounded-md px-2 py-1 text-xs font-medium text-rose-700 ring-1 ring-inset ring-rose-200 hover:bg-rose-50 disabled:opacity-60",
        )}
      >
        {children}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={headingId}
        aria-describedby={bodyId}
        className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl p-0 shadow-xl ring-1 ring-slate-200 backdrop:bg-slate-900/40"
      >
        <div className="space-y-3 p-5 text-left">
          <h2 id={headingId} className="break-words text-base font-semibold text-slate-900">
            {title}
          </h2>
          <div id={bodyId} className="break-words text-sm text-slate-700">
            {consequence}
          </div>
          <div className="flex flex-wrap justify-end gap-2 pt-2">
            <button
              type="button"
              onClick={() => dialog.current?.close()}
              className="rounded-lg px-4 py-2 text-sm font-semibold text-slate-900 ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
            >
              Keep it
            </button>
            <button
              type="submit"
              name={name}
              value={value}
              onClick={() => dialog.current?.close()}
              className="rounded-lg bg-rose-700 px-4 py-2 text-sm font-semibold text-white hover:bg-rose-600"
            >
              {confirmLabel ?? (typeof children === "string" ? children : "Confirm")}
            </button>
          </div>
        </div>
      </dialog>
    </>
  );
}
