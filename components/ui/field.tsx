import type { ComponentPropsWithoutRef, ReactNode } from "react";
import { cx } from "./cx";

const SIZES = {
  /** Sign-in and link forms: 44 px tall, 16 px text on phones (no zoom on focus). */
  md: "mt-1 block min-h-11 w-full rounded-xl border-0 bg-white px-3 py-2 text-base text-slate-900 ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600 sm:text-sm",
  /** The dashboard's dense settings forms. */
  sm: "mt-1 block min-h-10 w-full rounded-lg border-0 bg-white px-2.5 py-1.5 text-sm text-slate-900 ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600",
} as const;

export type FieldSize = keyof typeof SIZES;

/** The class string of a text input or a select. */
export function inputClass(size: FieldSize = "md", className?: string): string {
  return cx(SIZES[size], className);
}

export function Input({ size, className, ...props }: Omit<ComponentPropsWithoutRef<"input">, "size"> & { size?: FieldSize }) {
  return <input className={inputClass(size, className)} {...props} />;
}

export function Select({ size, className, ...props }: Omit<ComponentPropsWithoutRef<"select">, "size"> & { size?: FieldSize }) {
  return <select className={inputClass(size, className)} {...props} />;
}

/** The hint and error lines under a field, and the input's aria attributes that point at them. */
function fieldHelp(id: string, hint: ReactNode, error: string | undefined, describedBy?: string) {
  const ids = [describedBy, hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return {
    aria: { "aria-invalid": error ? true : undefined, "aria-describedby": ids || undefined },
    lines: (
      <>
        {hint ? (
          <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
            {hint}
          </p>
        ) : null}
        {error ? (
          <p id={`${id}-error`} className="mt-1 break-words text-xs font-medium text-rose-700" data-field-error>
            {error}
          </p>
        ) : null}
      </>
    ),
  };
}

type FieldLabels = {
  id: string;
  label: ReactNode;
  hint?: ReactNode /** What is wrong with the value, in words: shown under it and announced with it. */;
  error?: string;
};

/** A labelled input with an optional hint below it, and its error (aria-invalid, aria-describedby). */
export function Field({
  id,
  label,
  hint,
  error,
  className,
  ...input
}: Omit<ComponentPropsWithoutRef<"input">, "size" | "id"> & FieldLabels & { size?: FieldSize }) {
  const help = fieldHelp(id, hint, error, input["aria-describedby"]);
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <Input id={id} {...input} {...help.aria} className={cx(error && "ring-2! ring-rose-600!", className)} />
      {help.lines}
    </div>
  );
}

/** A labelled select, with the same hint and error lines as Field. */
export function SelectField({
  id,
  label,
  hint,
  error,
  className,
  ...select
}: Omit<ComponentPropsWithoutRef<"select">, "size" | "id"> & FieldLabels & { size?: FieldSize }) {
  const help = fieldHelp(id, hint, error, select["aria-describedby"]);
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <Select id={id} {...select} {...help.aria} className={cx(error && "ring-2! ring-rose-600!", className)} />
      {help.lines}
    </div>
  );
}
