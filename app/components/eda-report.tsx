import type { ChartBin, ColumnProfile, EdaReport, SheetProfile } from "~/services/files/eda/types";
import { formatCount, formatDate, formatDateTime, formatMoney, formatNumber, formatPercent } from "~/utils/format";

/**
 * The report's own stylesheet: the page and the downloaded HTML file use the same markup and
 * need nothing else (no Tailwind build, no JavaScript) to render.
 */
export const REPORT_CSS = `
.eda{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#0f172a;max-width:1100px;margin:0 auto;padding:24px 16px;line-height:1.4}
.eda h1{font-size:1.5rem;margin:0 0 4px}.eda h2{font-size:1.2rem;margin:32px 0 8px;border-bottom:1px solid #e2e8f0;padding-bottom:4px}
.eda h3{font-size:1rem;margin:0 0 6px;word-break:break-word}.eda .muted{color:#475569;font-size:.85rem}
.eda .summary{display:flex;flex-wrap:wrap;gap:12px;margin:12px 0}.eda .stat{background:#f1f5f9;border-radius:8px;padding:8px 12px;min-width:110px}
.eda .stat b{display:block;font-size:1.2rem}.eda .warn{background:#fffbeb;color:#92400e;border-radius:6px;padding:2px 8px;font-size:.8rem;display:inline-block;margin:2px 4px 2px 0}
.eda .scroll{overflow-x:auto;position:relative}.eda .col{min-width:0;overflow-wrap:anywhere}
.eda .cols{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(320px,100%),1fr));gap:16px}
.eda .col{border:1px solid #e2e8f0;border-radius:10px;padding:14px;background:#fff}
.eda .type{font-size:.75rem;background:#e0e7ff;color:#3730a3;border-radius:999px;padding:1px 8px;margin-left:6px;vertical-align:middle}
.eda table{border-collapse:collapse;width:100%;font-size:.85rem;margin:6px 0}.eda td,.eda th{text-align:left;padding:2px 6px;border-bottom:1px solid #f1f5f9}
.eda td.n{text-align:right;font-variant-numeric:tabular-nums}.eda svg{display:block;margin-top:8px;max-width:100%}
.eda svg text{font-size:13px;fill:#475569}.eda .overview td,.eda .overview th{border-bottom:1px solid #e2e8f0;padding:4px 8px}
`;

const fmt = (n: number | null | undefined, decimals = 0) =>
  n === null || n === undefined || !Number.isFinite(n) ? "" : formatNumber(n, decimals);
const smart = (n: number) => fmt(n, Number.isInteger(n) ? 0 : Math.abs(n) < 100 ? 2 : 1);

/** The whole EDA report (seed files/eda-report), rendered on the server. */
export function EdaReportView({ report, timeZone = "UTC" }: { report: EdaReport; timeZone?: string }) {
  const totalRows = report.sheets.reduce((n, s) => n + s.rows, 0);
  return (
    <div className="eda" data-testid="eda-report">
      <h1>{report.fileName}</h1>
      <p className="muted">
        Exploratory data analysis · {report.format.toUpperCase()}
        {report.encoding ? ` · ${report.encoding}` : ""}
        {report.delimiter ? ` · delimiter ${report.delimiter === "\t" ? "tab" : `“${report.delimiter}”`}` : ""} · generated{" "}
        {formatDateTime(report.generatedAt, timeZone)}
        {timeZone === "UTC" ? " UTC" : ""} in {fmt(report.durationMs)} ms
      </p>
      {report.warnings.map((w) => (
        <span key={w} className="warn">
          {w}
        </span>
      ))}
      {report.sheets.length > 1 ? (
        <p>
          {formatCount(report.sheets.length, "sheet")}, {formatCount(totalRows, "row")} in all.
        </p>
      ) : null}
      {report.sheets.map((sheet) => (
        <SheetSection key={sheet.name} sheet={sheet} showName={report.sheets.length > 1} />
      ))}
    </div>
  );
}

function SheetSection({ sheet, showName }: { sheet: SheetProfile; showName: boolean }) {
  return (
    <section aria-label={`Sheet ${sheet.name}`}>
      {showName ? <h2>Sheet: {sheet.name}</h2> : <h2>Overview</h2>}
      <div className="summary">
        <Stat label="Rows" value={fmt(sheet.rows)} testId="report-rows" />
        <Stat label="Columns" value={fmt(sheet.columns)} testId="report-columns" />
        <Stat label="Duplicate rows" value={`${sheet.duplicateRowsExact ? "" : "≥ "}${fmt(sheet.duplicateRows)}`} />
        <Stat label="Warnings" value={fmt(sheet.profiles.reduce((n, p) => n + p.warnings.length, 0) + sheet.warnings.length)} />
      </div>
      {sheet.warnings.map((w) => (
        <span key={w} className="warn">
          {w}
        </span>
      ))}
      <div className="scroll">
        <table className="overview">
          <thead>
            <tr>
              <th>Column</th>
              <th>Type</th>
              <th>Missing</th>
              <th>Distinct</th>
              <th>Warnings</th>
            </tr>
          </thead>
          <tbody>
            {sheet.profiles.map((p) => (
              <tr key={p.name}>
                <td>{p.name}</td>
                <td>{p.type}</td>
                <td className="n">
                  {fmt(p.missing)} ({formatPercent(p.missingPct)})
                </td>
                <td className="n">
                  {p.distinctExact ? "" : "≈ "}
                  {fmt(p.distinct)}
                </td>
                <td>{p.warnings.length ? p.warnings.map((w) => w.split(":")[0]).join(", ") : ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>Columns</h2>
      <div className="cols">
        {sheet.profiles.map((p) => (
          <ColumnCard key={p.name} column={p} />
        ))}
      </div>
    </section>
  );
}

function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="stat">
      <span className="muted">{label}</span>
      <b data-testid={testId}>{value}</b>
    </div>
  );
}

function ColumnCard({ column: c }: { column: ColumnProfile }) {
  // A money column reads as money ($1,823.30), any other as a number.
  const num = c.type === "currency" ? (n: number) => formatMoney(n, Number.isInteger(n) ? 0 : 2) : smart;
  return (
    <article className="col" data-testid="report-column">
      <h3>
        {c.name}
        <span className="type">{c.type}</span>
      </h3>
      <table>
        <tbody>
          <Row label="Values" value={fmt(c.count)} />
          <Row label="Missing" value={`${fmt(c.missing)} (${formatPercent(c.missingPct)})`} />
          <Row label="Distinct" value={`${c.distinctExact ? "" : "≈ "}${fmt(c.distinct)}`} />
          {c.numeric ? (
            <>
              <Row label="Min / max" value={`${num(c.numeric.min)} / ${num(c.numeric.max)}`} />
              <Row label="Mean" value={num(c.numeric.mean)} />
              <Row label={`Median${c.numeric.exact ? "" : " (sampled)"}`} value={num(c.numeric.median)} />
              <Row label="Std deviation" value={num(c.numeric.stddev)} />
              <Row
                label="Quantiles 5 / 25 / 75 / 95%"
                value={[c.numeric.p05, c.numeric.q1, c.numeric.q3, c.numeric.p95].map(num).join(" / ")}
              />
            </>
          ) : null}
          {c.dates ? <Row label="Date range" value={`${formatDate(c.dates.min)} – ${formatDate(c.dates.max)}`} /> : null}
        </tbody>
      </table>
      {c.warnings.map((w) => (
        <span key={w} className="warn">
          {w}
        </span>
      ))}
      {c.chart ? (
        <Chart
          kind={c.chart.kind}
          bins={c.chart.bins}
          title={`${c.chart.kind === "histogram" ? "Histogram" : "Top values"} of ${c.name}`}
          range={
            c.dates ? [formatDate(c.dates.min), formatDate(c.dates.max)] : c.numeric ? [num(c.numeric.min), num(c.numeric.max)] : undefined
          }
        />
      ) : null}
      {c.top.length > 0 && c.chart?.kind !== "bar" && !c.numeric ? <TopValues column={c} /> : null}
    </article>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <tr>
      <td>{label}</td>
      <td className="n">{value}</td>
    </tr>
  );
}

function TopValues({ column }: { column: ColumnProfile }) {
  return (
    <table>
      <tbody>
        {column.top.map((t) => (
          <Row key={t.value} label={t.value} value={fmt(t.count)} />
        ))}
      </tbody>
    </table>
  );
}

const truncate = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** A server-rendered SVG chart: vertical bars for a histogram, horizontal bars for top values. */
export function Chart({
  kind,
  bins,
  title,
  range,
}: {
  kind: "histogram" | "bar";
  bins: ChartBin[];
  title: string;
  /** The axis ends: the column's own minimum and maximum (a bin's label is where it starts). */
  range?: [string, string];
}) {
  const max = Math.max(1, ...bins.map((b) => b.count));
  if (kind === "bar") {
    const rowHeight = 20;
    const height = bins.length * rowHeight + 4;
    return (
      <svg width="100%" viewBox={`0 0 320 ${height}`} role="img" aria-label={title}>
        <title>{title}</title>
        {bins.map((b, i) => {
          const width = Math.max(1, (b.count / max) * 170);
          return (
            <g key={`${b.label}-${i}`} transform={`translate(0 ${i * rowHeight})`}>
              <text x="0" y="12">
                {truncate(b.label, 16)}
              </text>
              <rect x="120" y="3" width={width} height="12" fill="#6366f1" rx="2">
                <title>{`${b.label}: ${b.count}`}</title>
              </rect>
              <text x={124 + width} y="12">
                {formatNumber(b.count)}
              </text>
            </g>
          );
        })}
      </svg>
    );
  }
  const width = 320;
  const height = 120;
  const barWidth = width / bins.length;
  return (
    <svg width="100%" viewBox={`0 0 ${width} ${height + 18}`} role="img" aria-label={title}>
      <title>{title}</title>
      {bins.map((b, i) => {
        const h = (b.count / max) * height;
        return (
          <rect key={i} x={i * barWidth + 1} y={height - h} width={Math.max(1, barWidth - 2)} height={h} fill="#0ea5e9">
            <title>{`from ${b.label}: ${b.count}`}</title>
          </rect>
        );
      })}
      <line x1="0" y1={height} x2={width} y2={height} stroke="#cbd5e1" />
      <text x="0" y={height + 14}>
        {range?.[0] ?? bins[0]?.label}
      </text>
      <text x={width} y={height + 14} textAnchor="end">
        {range?.[1] ?? bins.at(-1)?.label}
      </text>
    </svg>
  );
}
