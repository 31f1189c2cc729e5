import type { Direction } from "@/lib/payments/direction";

/** Which way money moved, as a short badge in colour: "In" (received: a payment to the account) or "Out" (paid out: a payout it made). */
export function DirectionBadge({ direction }: { direction: Direction }) {
  const incoming = direction === "incoming";
  return (
    <span
      data-testid="direction"
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${
        incoming ? "bg-emerald-50 text-emerald-800 ring-emerald-600/30" : "bg-violet-50 text-violet-800 ring-violet-600/30"
      }`}
    >
      <span aria-hidden="true">{incoming ? "↓" : "↑"}</span>
      <span className="ml-1">{incoming ? "In" : "Out"}</span>
    </span>
  );
}
