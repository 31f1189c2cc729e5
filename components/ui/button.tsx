import type { ComponentPropsWithoutRef } from "react";
import { cx } from "./cx";

const base =
  "inline-flex min-h-11 w-full items-center justify-center rounded-xl px-4 py-2.5 text-base font-semibold shadow-sm transition focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-60 sm:w-auto";

const VARIANTS = {
  /** The one action of a card (pay, connect, sign in, create). */
  primary: `${base} bg-indigo-600 text-white hover:bg-indigo-500`,
  /** Alternatives and retries beside or below a primary action. */
  secondary: `${base} bg-white text-slate-900 ring-1 ring-inset ring-slate-300 hover:bg-slate-50`,
  /** The dashboard's form buttons: smaller, in dense settings panels. */
  compact: "rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-500 disabled:opacity-60",
} as const;

export type ButtonVariant = keyof typeof VARIANTS;

export interface ButtonStyle {
  variant?: ButtonVariant;
  /** Full width from the `sm` breakpoint up too (it is always full width on phones). */
  block?: boolean;
  className?: string;
}

/** The class string of a button variant, for elements that only look like a button. */
export function buttonClass({ variant = "primary", block = false, className }: ButtonStyle = {}): string {
  return cx(VARIANTS[variant], block && "sm:w-full", className);
}

export function Button({
  variant,
  block,
  className,
  type = "button",
  ...props
}: ComponentPropsWithoutRef<"button"> & ButtonStyle & { type?: "button" | "submit" | "reset" }) {
  return <button type={type} className={buttonClass({ variant, block, className })} {...props} />;
}

/** A link styled as a button (redirects, wallet-app URIs). */
export function ButtonLink({ variant, block, className, ...props }: ComponentPropsWithoutRef<"a"> & ButtonStyle) {
  return <a className={buttonClass({ variant, block, className })} {...props} />;
}
