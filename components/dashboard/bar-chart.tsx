/**
 * Payments per day as an SVG bar chart, rendered on the server: no chart library, no JavaScript.
 * Each bar has a <title> (hover) and the whole chart a text summary for screen readers.
 */
export function BarChart({ days }: { days: { day: string; count: number }[] }) {
  const max = Math.max(1, ...days.map((d) => d.count));
  const w = 600;
  const h = 160;
  const gap = 2;
  const bw = w / days.length - gap;
  const total = days.reduce((s, d) => s + d.count, 0);
  return (
    <figure>
      <svg viewBox={`0 0 ${w} ${h + 20}`} className="h-auto w-full" role="img" aria-labelledby="chart-summary">
        <title id="chart-summary">{`${total} payments in the last ${days.length} days; at most ${max} in a day`}</title>
        <line x1={0} x2={w} y1={h} y2={h} stroke="#e2e8f0" />
        {days.map((d, i) => {
          const bh = Math.round((d.count / max) * (h - 8));
          return (
            <rect key={d.day} x={i * (bw + gap)} y={h - bh} width={bw} height={bh} rx={2} fill={d.count ? "#6366f1" : "#e2e8f0"}>
              <title>{`${d.day}: ${d.count} payment${d.count === 1 ? "" : "s"}`}</title>
            </rect>
          );
        })}
        <text x={0} y={h + 16} fontSize={11} fill="#64748b">
          {days[0]?.day}
        </text>
        <text x={w} y={h + 16} fontSize={11} fill="#64748b" textAnchor="end">
          {days.at(-1)?.day}
        </text>
      </svg>
    </figure>
  );
}
