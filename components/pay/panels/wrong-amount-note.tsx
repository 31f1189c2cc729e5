import { Card } from "@/components/ui/card";
import type { Checkout } from "@/lib/operations/checkout-schemas";

type Facts = Pick<
  Checkout,
  "amountLabel" | "excessAmount" | "returnedAmount" | "paidAmount" | "effectiveExcessPolicy" | "returnsToSender"
> & {
  currency: { symbol: string };
};

/**
 * What the payer is told when the link was paid with a wrong amount (docs/guides/refunds.md): what
 * happened (more than asked, short when it expired, after it expired) and what happens to that money
 * under the link's policy. Null when there is nothing to say (nothing paid, or paid exactly).
 */
export function wrongAmountText(f: Facts): { title: string; body: string } | null {
  const sym = f.currency.symbol;
  const returned = f.returnedAmount !== "0" ? `${f.returnedAmount} ${sym} was sent back to the address it came from.` : null;
  const next = (what: string) =>
    returned ??
    // Under `return`, money at the deposit address goes back by itself (lib/deposits/returns.ts): nothing for the merchant to do.
    (f.returnsToSender
      ? `${what[0]!.toUpperCase()}${what.slice(1)} will be sent back automatically to the address it came from.`
      : f.effectiveExcessPolicy === "keep"
        ? `Contact the merchant about ${what}.`
        : `It went to the merchant, who can send ${what} back to the address it came from in one click: contact them if you need it back.`);
  switch (f.amountLabel) {
    case "over":
      return { title: `You sent ${f.excessAmount} ${sym} more than asked`, body: next(`the ${f.excessAmount} ${sym}`) };
    case "under":
      return { title: "This link expired before the whole amount arrived", body: next("what arrived") };
    case "late":
      return { title: "Your payment arrived after this link expired", body: next("it") };
    default:
      return null;
  }
}

export function WrongAmountNote({ facts }: { facts: Facts }) {
  const text = wrongAmountText(facts);
  if (!text) return null;
  return (
    <Card aria-labelledby="wrong-amount-heading" tone="sky" data-testid="wrong-amount">
      <h2 id="wrong-amount-heading" className="text-base font-semibold text-slate-900">
        {text.title}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{text.body}</p>
    </Card>
  );
}
