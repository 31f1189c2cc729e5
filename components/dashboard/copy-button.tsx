"use client";

import { useEffect, useRef, useState } from "react";

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

/** "Copy link": writes `text` to the clipboard and says "Copied" for two seconds (or that it could not). */
export function CopyButton({ text, label = "Copy link", what }: { text: string; label?: string; what: string }) {
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
      aria-label={state === "idle" ? `${label}: ${what}` : undefined}
      className={
        state === "copied"
          ? "rounded-md px-2 py-1 text-xs font-medium text-emerald-800 ring-1 ring-inset ring-emerald-300 bg-emerald-50"
          : "rounded-md px-2 py-1 text-xs font-medium text-indigo-700 ring-1 ring-inset ring-indigo-200 hover:bg-indigo-50"
      }
    >
      <span aria-live="polite">{state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : label}</span>
    </button>
  );
}
