import type { Direction } from "@/lib/payments/direction";

interface ChartDay {
  day: string;
  incoming: { count: number };
  outgoing: { count: number };
}

const IN = "#059669";
const OUT = "#7c3aed";
const plural = (n: number) => `${n} payment${n === 1 ? "" : "s"}`;

/**
 * Payments per day, money in and money out side by side, as an SVG bar chart rendered on the
 * server: no chart library, no JavaScript. Each day has a <title> (hover) and the chart a text
 * summary for screen readers; the legend names the two colours in the pages' words (`labels`:
 * lib/payments/direction.ts DIRECTION_LABELS, "Received" / "Paid out").
 */
export function BarChart({ days, labels }: { days: ChartDay[]; labels: Record<Direction, string> }) {
  const max = Math.max(1, ...days.flatMap((d) => [d.incoming.count, d.outgoing.count]));
  const w = 600;
  const h = 120;
  const slot = w / Math.max(1, days.length);
  const bw = Math.max(1, (slot - 3) / 2);
  const totalIn = days.reduce((s, d) => s + d.incoming.count, 0);
  const totalOut = days.reduce((s, d) => s + d.outgoing.count, 0);
  const bar = (count: number) => Math.round((count / max) * (h - 8));
  if (totalIn + totalOut === 0)
    return <p className="text-sm text-slate-600">Nothing received or paid out in the last {days.length} days.</p>;
  return (
    <figure>
      <svg viewBox={`0 0 ${w} ${h + 20}`} className="h-auto w-full" role="img" aria-labelledby="chart-summary">
        <title id="chart-summary">{`Last ${days.length} days: ${labels.incoming} ${plural(totalIn)}, ${labels.outgoing} ${plural(totalOut)}; at most ${max} in a day`}</title>
        <line x1={0} x2={w} y1={h} y2={h} stroke="#e2e8f0" />
        {days.map((d, i) => {
          const x = i * slot;
          const hin = bar(d.incoming.count);
          const hout = bar(d.outgoing.count);
          return (
            <g key={d.day}>
              <title>{`${d.day}: ${labels.incoming} ${plural(d.incoming.count)}, ${labels.outgoing} ${plural(d.outgoing.count)}`}</title>
              <rect x={x} y={h - hin} width={bw} height={hin} rx={1.5} fill={IN} />
              <rect x={x + bw + 1} y={h - hout} width={bw} height={hout} rx={1.5} fill={OUT} />
            </g>
          );
        })}
        <text x={0} y={h + 16} fontSize={11} fill="#64748b">
          {days[0]?.day}
        </text>
        <text x={w} y={h + 16} fontSize={11} fill="#64748b" textAnchor="end">
          {days.at(-1)?.day}
        </text>
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-4 text-xs text-slate-600">
        <span className="flex items-center gap-1.5">
          <span aria-hidden="true" className="size-2.5 rounded-sm" style={{ background: IN }} />
          {labels.incoming} ({totalIn})
        </span>
        <span className="flex items-center gap-1.5">
          <span aria-hidden="true" className="size-2.5 rounded-sm" style={{ background: OUT }} />
          {labels.outgoing} ({totalOut})
        </span>
      </figcaption>
    </figure>
  );
}
