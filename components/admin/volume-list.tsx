import { groupAmount } from "@/components/shared/format";
import type { VolumeLine } from "@/lib/admin/account-search";

/** Incoming volume per payment currency ("1,250.5 USDC on sepolia · 3 payments"). */
export function VolumeList({ lines, compact = false }: { lines: VolumeLine[]; compact?: boolean }) {
  if (lines.length === 0) return <p className="text-sm text-slate-600">Nothing received yet.</p>;
  return (
    <ul className={compact ? "text-xs text-slate-600" : "space-y-1 text-sm"} data-testid="volume">
      {lines.map((l) => {
        const [symbol, network] = [l.currency.slice(0, l.currency.indexOf("-")), l.currency.slice(l.currency.indexOf("-") + 1)];
        return (
          <li key={l.currency} className="[overflow-wrap:anywhere]">
            <span className="font-medium tabular-nums text-slate-900">
              {groupAmount(l.amount)} {symbol}
            </span>{" "}
            on {network} · {l.payments} payment{l.payments === 1 ? "" : "s"}
          </li>
        );
      })}
    </ul>
  );
}
