// The EDA report's shape: stored as JSON on file_reports and rendered by components/eda-report.tsx.

export const COLUMN_TYPES = ["integer", "number", "currency", "date", "boolean", "email", "phone", "text"] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

export type ChartBin = { label: string; count: number };

export type NumericStats = {
  min: number;
  max: number;
  mean: number;
  median: number;
  stddev: number;
  q1: number;
  q3: number;
  p05: number;
  p95: number;
  /** False when the quantiles come from a bounded sample of a large column. */
  exact: boolean;
};

export type ColumnProfile = {
  name: string;
  type: ColumnType;
  /** Values per detected kind (missing excluded). */
  kinds: Partial<Record<ColumnType, number>>;
  count: number;
  missing: number;
  missingPct: number;
  distinct: number;
  distinctExact: boolean;
  numeric: NumericStats | null;
  dates: { min: string; max: string } | null;
  top: { value: string; count: number }[];
  topExact: boolean;
  chart: { kind: "histogram" | "bar"; bins: ChartBin[] } | null;
  warnings: string[];
};

export type SheetProfile = {
  name: string;
  rows: number;
  columns: number;
  duplicateRows: number;
  duplicateRowsExact: boolean;
  profiles: ColumnProfile[];
  warnings: string[];
};

export type EdaReport = {
  version: 1;
  fileName: string;
  format: "csv" | "xlsx" | "xls";
  generatedAt: string;
  durationMs: number;
  encoding: string | null;
  delimiter: string | null;
  sheets: SheetProfile[];
  warnings: string[];
};
