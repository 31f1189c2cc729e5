"use client";

import { type ChangeEvent, type FormEvent, useActionState, useEffect, useRef, useState } from "react";
import type { FormCheck, FormState } from "@/lib/forms/form-state";

type Values = Record<string, string>;

/** An input's controlled props by name (`useCheckedForm().field`), for field groups shared by forms. */
export type CheckedField = (name: string) => {
  name: string;
  value: string;
  error: string | undefined;
  onChange: (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => void;
};

/**
 * A dashboard form that keeps what was typed and checks it in the browser first, with the schema
 * the server checks it with (`check`, from lib/forms): a refused submit never leaves the page, and the
 * server's answer (its own check, then the domain's) shows under the same fields. Inputs are
 * controlled, so neither an error nor React's reset after an action clears them.
 */
export function useCheckedForm<S extends FormState>({
  action,
  initial,
  check,
  clearOnSuccess,
}: {
  action: (prev: S, form: FormData) => Promise<S>;
  initial: Values;
  check: (values: Values) => FormCheck<unknown>;
  /** Whether a successful answer empties the form (a create form: the next one starts blank). */
  clearOnSuccess?: (state: S) => boolean;
}) {
  const [state, formAction, pending] = useActionState(
    action as (prev: Awaited<S>, form: FormData) => Promise<S>,
    { error: null } as Awaited<S>,
  );
  const [values, setValues] = useState<Values>(initial);
  const [clientErrors, setClientErrors] = useState<Record<string, string> | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const seen = useRef(state);

  useEffect(() => {
    if (seen.current === state) return;
    seen.current = state;
    if (state.values) setValues((v) => ({ ...v, ...state.values }));
    else if (!state.error && clearOnSuccess?.(state)) setValues(initial);
  }, [state, clearOnSuccess, initial]);

  const errors: Record<string, string> = clientErrors ?? state.fieldErrors ?? {};

  // What the browser holds wins over the state: text typed before hydration (a slow phone, a fast
  // test) is in the inputs but never reached onChange. Read once after hydration and at each submit.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, after hydration
  useEffect(() => {
    const dom = formValues(formRef.current, values);
    if (dom) setValues(dom);
  }, []);

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    const dom = formValues(e.currentTarget, values);
    if (dom) setValues(dom);
    const result = check(dom ?? values);
    if (result.ok) {
      setClientErrors(null);
      return;
    }
    e.preventDefault();
    setClientErrors(result.fieldErrors);
    const first = Object.keys(result.fieldErrors)[0];
    if (first) requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus());
  };

  /** An input's controlled props: its name, value, change handler and error. */
  const field: CheckedField = (name) => ({
    name,
    value: values[name] ?? "",
    error: errors[name],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
      const value = e.target.value;
      setValues((v) => ({ ...v, [name]: value }));
    },
  });

  /** The form-level error: the server's, when it names no field shown under an input. */
  const formError = !clientErrors && state.error && !(state.field && state.fieldErrors?.[state.field]) ? state.error : null;

  return { state, formAction, pending, values, errors, formError, onSubmit, field, formRef };
}

/** The form's current values of the fields in `values`, or null when they equal `values`. */
function formValues(form: HTMLFormElement | null, values: Values): Values | null {
  if (!form) return null;
  const data = new FormData(form);
  let changed = false;
  const next: Values = { ...values };
  for (const name of Object.keys(values)) {
    const v = data.get(name);
    if (typeof v === "string" && v !== values[name]) {
      next[name] = v;
      changed = true;
    }
  }
  return changed ? next : null;
}
