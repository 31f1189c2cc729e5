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

/** A labelled input with an optional hint below it. */
export function Field({
  id,
  label,
  hint,
  ...input
}: Omit<ComponentPropsWithoutRef<"input">, "size" | "id"> & { id: string; label: ReactNode; hint?: ReactNode; size?: FieldSize }) {
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <Input id={id} {...input} />
      {hint ? <p className="mt-1 text-xs text-slate-500">{hint}</p> : null}
    </div>
  );
}
