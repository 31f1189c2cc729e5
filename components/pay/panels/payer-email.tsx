"use client";

import { type FormEvent, useState } from "react";
import { PageApiError, pageApi, tokenPath } from "@/components/pay/lib/api";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";

const LOOKS_LIKE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * "Email for your receipt", shown before paying when the link asks for it (collectPayerEmail). Optional:
 * the payer may pay without it. Saved with POST /v2/secure-payments/{token}/payer-email; the address is
 * never served back to the page (only that one was given), so after a reload it reads "given".
 */
export function PayerEmail({ token, given }: { token: string; given: boolean }) {
  const [email, setEmail] = useState("");
  const [saved, setSaved] = useState(given);
  const [editing, setEditing] = useState(!given);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const value = email.trim();
    if (!LOOKS_LIKE_EMAIL.test(value)) return setError("Enter an email address such as name@example.com");
    setBusy(true);
    setError(undefined);
    try {
      await pageApi(`${tokenPath(token)}/payer-email`, { method: "POST", json: { email: value } });
      setSaved(true);
      setEditing(false);
    } catch (err) {
      setError(err instanceof PageApiError ? err.message : "Could not save the email. Try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card aria-labelledby="receipt-email-heading" data-testid="payer-email">
      <h2 id="receipt-email-heading" className="text-base font-semibold text-slate-900">
        Receipt by email
      </h2>
      {editing ? (
        <form onSubmit={onSubmit} noValidate className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-start">
          <div className="min-w-0 flex-1">
            <Field
              id="payer-email-input"
              label="Email for your receipt"
              hint="Optional. Once your payment is confirmed, the receipt (PDF) is sent here. Only the merchant sees it."
              type="email"
              inputMode="email"
              autoComplete="email"
              maxLength={254}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              error={error}
            />
          </div>
          <Button type="submit" variant="secondary" disabled={busy} className="sm:mt-6">
            {busy ? "Saving…" : "Save email"}
          </Button>
        </form>
      ) : (
        <div className="mt-2 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-700">
          <p data-testid="payer-email-saved">{saved ? "Your receipt will be emailed once the payment is confirmed." : null}</p>
          <button
            type="button"
            onClick={() => setEditing(true)}
            className="rounded-md px-2 py-1 text-sm font-medium text-indigo-700 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            Change email
          </button>
        </div>
      )}
    </Card>
  );
}
