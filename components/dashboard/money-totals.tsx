import { groupAmount } from "@/components/shared/format";
import type { OverviewTotals } from "@/lib/requests/account-overview";

/**
 * One direction's totals per currency and network (never one sum across tokens). Once anything was
 * refunded the table shows what the payments moved, the refunds, and the net apart, as a card
 * processor's balance does; without refunds the total is both.
 */
export function MoneyTotals({ totals, empty, testId }: { totals: OverviewTotals[]; empty: string; testId: string }) {
  if (totals.length === 0)
    return (
      <p className="text-sm text-slate-600" data-testid={testId}>
        {empty}
      </p>
    );
  const refunds = totals.some((t) => t.refunded !== "0");
  const th = "pb-2 pl-3 text-right font-medium";
  const td = "py-2 pl-3 text-right tabular-nums";
  return (
    <table className="w-full text-sm" data-testid={testId}>
      <thead className="text-left text-xs text-slate-500">
        <tr>
          <th scope="col" className="pb-2 font-medium">
            Currency
          </th>
          <th scope="col" className={th}>
            Payments
          </th>
          {refunds ? (
            <>
              <th scope="col" className={th}>
                Gross
              </th>
              <th scope="col" className={th}>
                Refunded
              </th>
            </>
          ) : null}
          <th scope="col" className={th}>
            {refunds ? "Net" : "Total"}
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {totals.map((t) => (
          <tr key={t.currency} data-currency={t.currency}>
            <td className="py-2">
              {t.symbol} <span className="text-slate-500">on {t.networkName}</span>
            </td>
            <td className={td}>{t.count}</td>
            {refunds ? (
              <>
                <td className={td}>{groupAmount(t.gross)}</td>
                <td className={`${td} text-slate-600`} data-testid="refunded">
                  {t.refunded === "0" ? "0" : `−${groupAmount(t.refunded)}`}
                </td>
              </>
            ) : null}
            <td className={`${td} font-medium`} data-testid="net">
              {groupAmount(t.amount)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
