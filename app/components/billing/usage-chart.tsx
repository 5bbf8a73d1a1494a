import { formatNumber } from "~/utils/format";

type Bucket = { key: number; label: string; count: number };

/** Server-rendered SVG bar chart (no script needed) with the same figures in a table below. */
export function UsageChart({ title, buckets, caption }: { title: string; buckets: Bucket[]; caption: string }) {
  const width = 720;
  const height = 200;
  const padBottom = 24;
  const padTop = 16;
  const max = Math.max(1, ...buckets.map((b) => b.count));
  const slot = width / Math.max(1, buckets.length);
  const barWidth = Math.max(4, slot * 0.6);
  const plot = height - padBottom - padTop;
  const showEvery = buckets.length > 16 ? 5 : 1;
  return (
    <figure className="space-y-3">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={title} className="h-52 w-full" data-testid="usage-chart">
        <title>{title}</title>
        <line x1={0} x2={width} y1={height - padBottom} y2={height - padBottom} className="stroke-slate-300" strokeWidth={1} />
        {buckets.map((b, i) => {
          const h = (b.count / max) * plot;
          const x = i * slot + (slot - barWidth) / 2;
          const y = height - padBottom - h;
          return (
            <g key={b.key}>
              <rect x={x} y={y} width={barWidth} height={h} rx={2} className="fill-brand-600">
                <title>{`${b.label}: ${b.count}`}</title>
              </rect>
              {b.count > 0 ? (
                <text x={x + barWidth / 2} y={y - 4} textAnchor="middle" className="fill-slate-600 text-[10px]">
                  {b.count}
                </text>
              ) : null}
              {i % showEvery === 0 || i === buckets.length - 1 ? (
                <text x={x + barWidth / 2} y={height - 8} textAnchor="middle" className="fill-slate-500 text-[11px]">
                  {b.label}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
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
