import type { ComponentPropsWithoutRef } from "react";
import { cx } from "./cx";

const TONES = {
  error: "rounded-xl bg-rose-50 p-3 text-sm text-rose-800 ring-1 ring-rose-200",
  warning: "rounded-xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200",
  success: "rounded-xl bg-emerald-50 p-3 text-sm text-emerald-900 ring-1 ring-emerald-200",
} as const;

export type AlertTone = keyof typeof TONES;

type AlertProps = ComponentPropsWithoutRef<"div"> & {
  tone?: AlertTone;
  /** `p` for a single sentence, `div` when it holds paragraphs or a button. */
  as?: "div" | "p";
};

/**
 * A coloured notice inside a card. It sets no role: the caller says whether it interrupts
 * (`role="alert"`), reports (`role="status"`) or is plain text.
 */
export function Alert({ tone = "error", as: Tag = "div", className, ...props }: AlertProps) {
  return <Tag className={cx(TONES[tone], className)} {...props} />;
}
