import { formatNumber } from "~/utils/format";

export type Series = { key: string; label: string; color: string };

/**
 * A server-rendered SVG bar chart: grouped bars per category, an axis with three ticks, and a
 * text alternative (title + description) since the table beside it carries the exact numbers.
 */
export function BarChart({
  title,
  description,
  categories,
  series,
  values,
  height = 220,
  format = (v: number) => formatNumber(v),
  stacked = false,
}: {
  title: string;
  description: string;
  categories: string[];
  series: Series[];
  values: Record<string, number[]>;
  height?: number;
  format?: (v: number) => string;
  stacked?: boolean;
}) {
  const width = Math.max(320, categories.length * (stacked ? 48 : 24 * series.length + 24) + 60);
  const top = 16;
  const bottom = 40;
  const left = 56;
  const plot = height - top - bottom;
  const totals = categories.map((_, i) =>
    stacked
      ? series.reduce((s, se) => s + Math.max(0, values[se.key][i] ?? 0), 0)
      : Math.max(...series.map((se) => values[se.key][i] ?? 0)),
  );
  const step = niceStep(
    Math.max(1, ...totals),
    Object.values(values).every((vs) => vs.every(Number.isInteger)),
  );
  const max = Math.max(step, Math.ceil(Math.max(1, ...totals) / step) * step);
  const ticks = Array.from({ length: Math.round(max / step) + 1 }, (_, i) => i * step);
  const band = (width - left - 8) / Math.max(1, categories.length);
  const barWidth = stacked ? Math.min(32, band - 10) : Math.min(18, (band - 10) / series.length);
  const y = (v: number) => top + plot - (v / max) * plot;
  const id = title.replace(/\W+/g, "-").toLowerCase();
  return (
    <figure className="overflow-x-auto">
      <svg
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="xMinYMin meet"
        className="h-auto w-full text-slate-500"
        style={{ maxWidth: width, maxHeight: height * 1.6 }}
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={left} x2={width - 8} y1={y(t)} y2={y(t)} stroke="currentColor" strokeOpacity={0.2} />
            <text x={left - 6} y={y(t) + 4} textAnchor="end" fontSize={12} fill="currentColor">
              {format(t)}
            </text>
          </g>
        ))}
        {categories.map((category, i) => {
          const x0 = left + i * band + (band - (stacked ? barWidth : barWidth * series.length)) / 2;
          let stackBase = 0;
          return (
            <g key={category}>
              {series.map((se, k) => {
                const v = Math.max(0, values[se.key][i] ?? 0);
                const x = stacked ? x0 : x0 + k * barWidth;
                const yTop = stacked ? y(stackBase + v) : y(v);
                const h = stacked ? y(stackBase) - y(stackBase + v) : top + plot - y(v);
                if (stacked) stackBase += v;
                return (
                  <rect key={se.key} x={x} y={yTop} width={Math.max(1, barWidth - 2)} height={Math.max(0, h)} fill={se.color}>
                    <title>{`${category}, ${se.label}: ${format(values[se.key][i] ?? 0)}`}</title>
                  </rect>
                );
              })}
              <text x={left + i * band + band / 2} y={height - bottom + 14} textAnchor="middle" fontSize={12} fill="currentColor">
                {category.length > 12 ? `${category.slice(0, 11)}…` : category}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="mt-1 flex flex-wrap gap-3 text-xs text-slate-600 dark:text-slate-300">
        {series.map((se) => (
          <span key={se.key} className="inline-flex items-center gap-1">
            <svg width="10" height="10" aria-hidden="true">
              <rect width="10" height="10" fill={se.color} />
            </svg>
            {se.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/**
 * A tick step of 1, 2 or 5 times a power of ten giving about four steps up to `max` ($10,000,
 * $20,000 … rather than $35,066); whole numbers for counts.
 */
export function niceStep(max: number, whole: boolean) {
  const raw = max / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const scaled = raw / power;
  const step = (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10) * power;
  return whole ? Math.max(1, Math.round(step)) : step;
}
