"use client";

import { useActionState } from "react";
import type { CancelLinkState } from "@/app/dashboard/links/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";

/** Cancel one payment link, after a dialog that says what stops working; a refusal is shown beside the row. */
export function CancelLinkButton({
  action,
  token,
  what,
}: {
  action: (prev: CancelLinkState, form: FormData) => Promise<CancelLinkState>;
  token: string;
  /** The link as the merchant knows it: "25 USDC · INV-1001". */
  what: string;
}) {
  const [state, formAction, pending] = useActionState(action, { error: null });
  return (
    <form action={formAction} className="contents">
      <input type="hidden" name="token" value={token} />
      <ConfirmButton
        title={`Cancel the payment link ${what}?`}
        consequence={
          <p>
            Payers holding this link can no longer pay it: its page says it has expired, and it cannot be reopened. You can create a new
            link at any time.
          </p>
        }
        confirmLabel="Cancel link"
        disabled={pending}
      >
        {pending ? "Cancelling…" : "Cancel"}
      </ConfirmButton>
      {state.error ? (
        <p role="alert" className="basis-full text-xs text-rose-700">
          {state.error}
        </p>
      ) : null}
    </form>
  );
}
