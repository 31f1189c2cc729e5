"use client";

import { useId, useMemo, useState } from "react";
import { Input } from "@/components/ui/field";
import { MethodBadge } from "./method-badge";

export interface IndexEntry {
  operationId: string;
  method: string;
  path: string;
  /** Plain-text summary (no Markdown). */
  summary: string;
  tag: string;
}

/** Sections of the page above the operations, listed first in the index. */
const OVERVIEW = [
  { id: "base-url", label: "Base URL" },
  { id: "authentication", label: "Authentication" },
  { id: "errors", label: "Errors and retries" },
];

/** Every word of the query appears in the operation's name, method, path, summary or group. */
export function matches(entry: IndexEntry, query: string): boolean {
  const haystack = `${entry.operationId} ${entry.method} ${entry.path} ${entry.summary} ${entry.tag}`.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

/**
 * The reference's index: a search box that filters the operations by name, path and summary as
 * you type (Enter goes to the first match), then links to the overview sections and to every
 * operation, grouped by tag. On phones the full index folds behind a button; matches always show.
 */
export function DocsIndex({ entries }: { entries: IndexEntry[] }) {
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState(false);
  const id = useId();
  const searching = query.trim() !== "";
  const shown = useMemo(() => (searching ? entries.filter((e) => matches(e, query)) : entries), [entries, query, searching]);
  const tags = [...new Set(shown.map((e) => e.tag))];
  const listId = `${id}-list`;
  return (
    <search aria-label="API reference">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const first = shown[0];
          if (searching && first) window.location.hash = first.operationId;
        }}
      >
        <label htmlFor={`${id}-q`} className="text-sm font-medium text-slate-700">
          Search endpoints
        </label>
        <Input
          id={`${id}-q`}
          size="sm"
          type="search"
          autoComplete="off"
          maxLength={100}
          placeholder="Name, path or summary"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          aria-controls={listId}
          data-testid="docs-search"
        />
      </form>
      <p aria-live="polite" className="mt-2 text-xs text-slate-600" data-testid="docs-search-status">
        {searching ? `${shown.length} of ${entries.length} endpoints match “${query.trim()}”` : `${entries.length} endpoints`}
      </p>
      {searching ? null : (
        <button
          type="button"
          className="mt-2 rounded-md text-sm font-medium text-indigo-700 underline-offset-4 hover:underline lg:hidden"
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? "Hide the index" : "Show the index"}
        </button>
      )}
      <nav id={listId} aria-label="Index" className={`mt-3 ${searching || open ? "block" : "hidden lg:block"}`} data-testid="docs-index">
        <ul className="space-y-4">
          {searching ? null : (
            <li>
              <p className="px-2 text-xs font-semibold tracking-wide text-slate-600 uppercase">Overview</p>
              <ul className="mt-1">
                {OVERVIEW.map((s) => (
                  <li key={s.id}>
                    <a
                      href={`#${s.id}`}
                      className="block rounded-md px-2 py-1 text-sm text-slate-700 hover:bg-slate-100 hover:text-slate-900"
                    >
                      {s.label}
                    </a>
                  </li>
                ))}
              </ul>
            </li>
          )}
          {tags.map((tag) => (
            <li key={tag}>
              <p className="px-2 text-xs font-semibold tracking-wide text-slate-600 uppercase">{tag}</p>
              <ul className="mt-1">
                {shown
                  .filter((e) => e.tag === tag)
                  .map((e) => (
                    <li key={e.operationId}>
                      <a
                        href={`#${e.operationId}`}
                        data-index-entry={e.operationId}
                        className="flex items-start gap-2 rounded-md px-2 py-1 text-sm text-slate-700 hover:bg-slate-100 hover:text-slate-900"
                      >
                        <MethodBadge method={e.method} />
                        <span className="min-w-0 leading-snug break-words">{e.summary}</span>
                      </a>
                    </li>
                  ))}
              </ul>
            </li>
          ))}
        </ul>
        {searching && shown.length === 0 ? (
          <p className="px-2 text-sm text-slate-600">No endpoint matches. Try a path such as /v2/request.</p>
        ) : null}
      </nav>
    </search>
  );
}
