import { niceStep } from "~/components/bar-chart";
import { formatNumber } from "~/utils/format";

type Bucket = { key: number; label: string; count: number };

/** Server-rendered SVG bar chart (no script needed): an axis in 1-2-5 steps, the same figures in a table below. */
export function UsageChart({ title, buckets, caption }: { title: string; buckets: Bucket[]; caption: string }) {
  // Drawn at 600 units wide and never narrower on screen, so its 12-unit labels never read smaller
  // than 12 px; on a phone the table below says the same in full, and the chart is left out.
  const width = 600;
  const height = 200;
  const left = 36;
  const padBottom = 24;
  const padTop = 12;
  const plot = height - padBottom - padTop;
  const step = niceStep(Math.max(1, ...buckets.map((b) => b.count)), true);
  const max = Math.max(step, Math.ceil(Math.max(1, ...buckets.map((b) => b.count)) / step) * step);
  const ticks = Array.from({ length: Math.round(max / step) + 1 }, (_, i) => i * step);
  const y = (v: number) => padTop + plot - (v / max) * plot;
  const slot = (width - left) / Math.max(1, buckets.length);
  const barWidth = Math.max(4, slot * 0.6);
  const showEvery = buckets.length > 16 ? 5 : 1;
  return (
    <figure className="space-y-3">
      <div className="hidden overflow-x-auto md:block">
        <svg
          viewBox={`0 0 ${width} ${height}`}
          role="img"
          aria-label={title}
          className="h-52 w-full min-w-[600px] max-w-3xl text-slate-500"
          data-testid="usage-chart"
        >
          <title>{title}</title>
          {ticks.map((t) => (
            <g key={t}>
              <line x1={left} x2={width} y1={y(t)} y2={y(t)} stroke="currentColor" strokeOpacity={0.2} />
              <text x={left - 6} y={y(t) + 4} textAnchor="end" fontSize={12} fill="currentColor">
                {formatNumber(t)}
              </text>
            </g>
          ))}
          {buckets.map((b, i) => {
            const x = left + i * slot + (slot - barWidth) / 2;
            return (
              <g key={b.key}>
                <rect x={x} y={y(b.count)} width={barWidth} height={padTop + plot - y(b.count)} rx={2} className="fill-brand-600">
                  <title>{`${b.label}: ${formatNumber(b.count)}`}</title>
                </rect>
                {i % showEvery === 0 || i === buckets.length - 1 ? (
                  <text x={x + barWidth / 2} y={height - 6} textAnchor="middle" fontSize={12} fill="currentColor">
                    {b.label}
                  </text>
                ) : null}
              </g>
            );
          })}
        </svg>
      </div>
      <figcaption className="text-sm text-slate-600 dark:text-slate-300">{caption}</figcaption>
      <table className="w-full max-w-md text-left text-sm" data-testid="usage-table">
        <thead className="border-b border-slate-200 text-slate-500 dark:border-slate-700">
          <tr>
            <th className="py-1">{buckets.length > 12 ? "Day" : "Month"}</th>
            <th className="text-right">Re-markets</th>
          </tr>
        </thead>
        <tbody>
          {buckets.map((b) => (
            <tr key={b.key} className="border-b border-slate-100 dark:border-slate-800">
              <td className="py-1">{b.label}</td>
              <td className="text-right tabular-nums">{formatNumber(b.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
