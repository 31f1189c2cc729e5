import type { ComponentPropsWithoutRef } from "react";
import { cx } from "./cx";

const TONES = {
  slate: "ring-slate-200",
  emerald: "ring-emerald-200",
  sky: "ring-sky-200",
  rose: "ring-rose-200",
} as const;

const PADDING = {
  /** Cards of the pay, onboarding and sign-in pages. */
  normal: "p-5 sm:p-6",
  /** Dashboard panels and tiles: the same at every width. */
  tight: "p-5",
  /** A page's only card (not found). */
  roomy: "p-6 sm:p-8",
  none: "",
} as const;

export type CardTone = keyof typeof TONES;

export interface CardStyle {
  /** The ring's colour: slate, or the outcome's (paid, received, refused). */
  tone?: CardTone;
  padding?: keyof typeof PADDING;
  className?: string;
}

/** The class string of a card, for elements other than a section (details, div). */
export function cardClass({ tone = "slate", padding = "normal", className }: CardStyle = {}): string {
  return cx("rounded-2xl bg-white", PADDING[padding], "shadow-sm ring-1", TONES[tone], className);
}

/** A white rounded panel on the page's slate background: a `<section>`, labelled by its caller. */
export function Card({ tone, padding, className, ...props }: ComponentPropsWithoutRef<"section"> & CardStyle) {
  return <section className={cardClass({ tone, padding, className })} {...props} />;
}
