import type { SecurePaymentStatus } from "@/lib/secure-payments/page-types";

type ClosedStatus = Exclude<SecurePaymentStatus, "pending" | "completed">;

const OUTCOMES: Record<ClosedStatus, { title: string; body: string; tone: string }> = {
  expired: {
    title: "This payment link has expired",
    body: "It can no longer be paid. If you still need to pay, ask the sender for a new link.",
    tone: "ring-slate-200",
  },
  invalidated: {
    title: "This payment link is no longer valid",
    body: "It was replaced by another link (for example, combined with other payments). Ask the sender for the current link.",
    tone: "ring-slate-200",
  },
  // Deliberately vague: the screening provider's findings are not for the payer's eyes.
  compliance_failed: {
    title: "This payment could not be accepted",
    body: "The payment cannot be completed through this link. If you think this is a mistake, contact the sender.",
    tone: "ring-rose-200",
  },
};

/** Headline and explanation of a link that can no longer be paid. No funds move from this state. */
export function LinkOutcome({ status }: { status: ClosedStatus }) {
  const o = OUTCOMES[status];
  return (
    <section aria-labelledby="outcome-heading" className={`rounded-2xl bg-white p-5 shadow-sm ring-1 sm:p-6 ${o.tone}`}>
      <h2 id="outcome-heading" className="text-xl font-semibold text-slate-900">
        {o.title}
      </h2>
      <p className="mt-2 text-sm text-slate-600">{o.body}</p>
    </section>
  );
}

export function isClosedStatus(status: SecurePaymentStatus): status is ClosedStatus {
  return status !== "pending" && status !== "completed";
}

/** A pending link with nothing left to pay: the payment arrived and is being checked before the link completes. */
export function PaymentReceived() {
  return (
    <section aria-labelledby="outcome-heading" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-sky-200 sm:p-6">
      <h2 id="outcome-heading" className="text-xl font-semibold text-slate-900">
        Payment received
      </h2>
      <p className="mt-2 text-sm text-slate-600">
        Nothing is left to pay. The payment is being confirmed; this link completes once the checks are done. Do not pay again.
      </p>
    </section>
  );
}
