import { formatUtc, groupAmount } from "@/components/shared/format";
import { Card } from "@/components/ui/card";

/**
 * A link paid by authorization (lib/commerce): the money is held in Duebill's escrow contract, not yet
 * charged. The merchant charges all or part of it before the deadline; the rest goes back to the payer
 * (and after the deadline the payer can take it back from the contract without anyone's help).
 */
export function AuthorizedPanel({
  held,
  charged,
  captureDeadline,
  symbol,
}: {
  held: string;
  charged: string;
  captureDeadline: string;
  symbol: string;
}) {
  return (
    <Card tone="sky" aria-label="Authorized" data-testid="authorized-panel">
      <p className="text-xs font-semibold uppercase tracking-wide text-sky-700">Authorized — not yet charged</p>
      <p className="mt-2 text-2xl font-semibold text-slate-900">
        {groupAmount(held)} {symbol}
        <span className="ml-2 text-sm font-normal text-slate-500">held for this payment</span>
      </p>
      {charged !== "0" ? (
        <p className="mt-1 text-sm text-slate-600">
          Already charged: {groupAmount(charged)} {symbol}
        </p>
      ) : null}
      <dl className="mt-4 space-y-2 text-sm">
        <div className="flex flex-wrap justify-between gap-x-4">
          <dt className="text-slate-500">Merchant may charge until</dt>
          <dd className="font-medium text-slate-900">{formatUtc(captureDeadline)}</dd>
        </div>
      </dl>
      <p className="mt-4 text-sm text-slate-600">
        Nothing more to do. You are charged only what the merchant captures; anything not charged returns to your wallet — and after the
        deadline you can reclaim it from the escrow contract yourself.
      </p>
    </Card>
  );
}
