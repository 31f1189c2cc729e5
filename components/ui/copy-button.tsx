"use client";

import { useEffect, useRef, useState } from "react";
import { cx } from "./cx";

/** Copies through a selected text area: for browsers without the async clipboard (an http:// page that is not localhost). */
function copyBySelection(text: string): boolean {
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand("copy");
  } finally {
    area.remove();
  }
}

const SIZES = { xs: "text-xs", sm: "text-sm" } as const;

/**
 * The one copy button (links list, a new link, the pay page's deposit panel): writes `text` to the
 * clipboard (or, without the async clipboard, through a selection) and says "Copied" for two
 * seconds, or "Copy failed". `label` is its text ("Copy", "Copy link"); `name` its accessible name
 * while idle ("Copy address", "Copy link: Invoice 42"), the text itself once it says what happened.
 */
export function CopyButton({
  text,
  label = "Copy",
  name,
  size = "sm",
}: {
  text: string;
  label?: string;
  name?: string;
  size?: keyof typeof SIZES;
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    let ok = false;
    try {
      await navigator.clipboard.writeText(text);
      ok = true;
    } catch {
      ok = copyBySelection(text);
    }
    setState(ok ? "copied" : "failed");
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState("idle"), 2000);
  };
  return (
    <button
      type="button"
      onClick={() => void copy()}
      aria-label={state === "idle" ? name : undefined}
      className={cx(
        "shrink-0 rounded-md px-2 py-1 font-medium ring-1 ring-inset focus-visible:outline-2 focus-visible:outline-indigo-600",
        SIZES[size],
        state === "copied" ? "bg-emerald-50 text-emerald-800 ring-emerald-300" : "text-indigo-700 ring-indigo-200 hover:bg-indigo-50",
      )}
    >
      <span aria-live="polite">{state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : label}</span>
    </button>
  );
}
