import { groupAmount } from "@/components/shared/format";
import type { OverviewTotals } from "@/lib/requests/account-overview";

/** One direction's totals per currency and network (never one sum across tokens). */
export function MoneyTotals({ totals, empty, testId }: { totals: OverviewTotals[]; empty: string; testId: string }) {
  if (totals.length === 0)
    return (
      <p className="text-sm text-slate-600" data-testid={testId}>
        {empty}
      </p>
    );
  return (
    <table className="w-full text-sm" data-testid={testId}>
      <thead className="text-left text-xs text-slate-500">
        <tr>
          <th scope="col" className="pb-2 font-medium">
            Currency
          </th>
          <th scope="col" className="pb-2 text-right font-medium">
            Payments
          </th>
          <th scope="col" className="pb-2 text-right font-medium">
            Total
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {totals.map((t) => (
          <tr key={t.currency}>
            <td className="py-2">
              {t.symbol} <span className="text-slate-500">on {t.networkName}</span>
            </td>
            <td className="py-2 text-right tabular-nums">{t.count}</td>
            <td className="py-2 text-right font-medium tabular-nums">{groupAmount(t.amount)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
