import { Card, type CardTone } from "@/components/ui/card";
import type { CheckoutStatus } from "@/lib/operations/checkout-schemas";

type ClosedStatus = Exclude<CheckoutStatus, "pending" | "completed">;

const OUTCOMES: Record<ClosedStatus, { title: string; body: string; tone: CardTone }> = {
  expired: {
    title: "This payment link has expired",
    body: "It can no longer be paid. If you still need to pay, ask the sender for a new link.",
    tone: "slate",
  },
  invalidated: {
    title: "This payment link is no longer valid",
    body: "It was replaced by another link (for example, combined with other payments). Ask the sender for the current link.",
    tone: "slate",
  },
  // Deliberately vague: the screening provider's findings are not for the payer's eyes.
  compliance_failed: {
    title: "This payment could not be accepted",
    body: "The payment cannot be completed through this link. If you think this is a mistake, contact the sender.",
    tone: "rose",
  },
};

/** Headline and explanation of a link that can no longer be paid. No funds move from this state. */
export function LinkOutcome({ status }: { status: ClosedStatus }) {
  const o = OUTCOMES[status];
  return (
    <Card aria-labelledby="outcome-heading" tone={o.tone}>
      <h2 id="outcome-heading" className="text-xl font-semibold text-slate-900">
        {o.title}
      </h2>
      <p className="mt-2 text-sm text-slate-600">{o.body}</p>
    </Card>
  );
}

/** A pending link with nothing left to pay: the payment arrived and is being checked before the link completes. */
export function PaymentReceived() {
  return (
    <Card aria-labelledby="outcome-heading" tone="sky">
      <h2 id="outcome-heading" className="text-xl font-semibold text-slate-900">
        Payment received
      </h2>
      <p className="mt-2 text-sm text-slate-600">
        Nothing is left to pay. The payment is being confirmed; this link completes once the checks are done. Do not pay again.
      </p>
    </Card>
  );
}
