import {
  K_BOOLEAN,
  K_CURRENCY,
  K_DATE,
  K_INTEGER,
  K_MISSING,
  K_NUMBER,
  K_TEXT,
  KIND_NAMES,
  classify,
  parsedDate,
  parsedNumber,
  type DateOrder,
} from "./classify";
import { HyperLogLog, Reservoir, RowHashSet, hashPair, pairLow, quantile } from "./sketches";
import type { ChartBin, ColumnProfile, ColumnType, SheetProfile } from "./types";
import { formatCount } from "../../../utils/format";

/** A cell as the readers deliver it: CSV gives text, spreadsheets typed values. */
export type Cell = string | number | boolean | Date | null | undefined;

/** Distinct values and top counts are exact up to this many distinct values per column. */
export const EXACT_DISTINCT_LIMIT = 10_000;
const TOP_KEEP = 1_000;
const TOP_STRIDE = 16;
/** Numbers and dates kept per column for quantiles and histograms. */
export const SAMPLE_SIZE = 10_000;
const MAX_ROW_HASHES = 2_000_000;
const MAX_TOP_VALUE_LENGTH = 200;
const HISTOGRAM_BINS = 12;

export class ProfileLimitError extends Error {}

type ValueCount = { value: string; n: number; next: ValueCount | undefined };

export type ProfilerOptions = { dateOrder?: DateOrder; maxColumns: number };

class ColumnAccumulator {
  missing = 0;
  count = 0;
  readonly kinds = new Float64Array(9);
  private values = new Map<number, ValueCount>();
  private distinctEntries = 0;
  private hll: HyperLogLog | null = null;
  private topExact = true;
  private strideCounter = 0;
  private n = 0;
  private mean = 0;
  private m2 = 0;
  private min = Infinity;
  private max = -Infinity;
  private readonly numbers = new Reservoir(SAMPLE_SIZE);
  private dateMin = Infinity;
  private dateMax = -Infinity;
  private readonly dates = new Reservoir(SAMPLE_SIZE);

  constructor(
    readonly name: string,
    private readonly dateOrder: DateOrder,
  ) {}

  addMissing(times = 1) {
    this.missing += times;
    this.kinds[K_MISSING] += times;
  }

  /** Add one cell; `hash` is the cell text's hash (for the distinct-count estimate). */
  add(cell: Cell, hash: number) {
    let kind: number;
    let text: string;
    if (typeof cell === "string") {
      kind = classify(cell, this.dateOrder);
      if (kind === K_MISSING) return this.addMissing();
      text = cell.length > MAX_TOP_VALUE_LENGTH ? cell.slice(0, MAX_TOP_VALUE_LENGTH) : cell;
      if (kind <= K_CURRENCY) this.addNumber(parsedNumber);
      else if (kind === K_DATE) this.addDate(parsedDate);
    } else if (typeof cell === "number") {
      if (!Number.isFinite(cell)) return this.addMissing();
      kind = Number.isInteger(cell) ? K_INTEGER : K_NUMBER;
      text = String(cell);
      this.addNumber(cell);
    } else if (typeof cell === "boolean") {
      kind = K_BOOLEAN;
      text = cell ? "TRUE" : "FALSE";
    } else if (cell instanceof Date) {
      const ms = cell.getTime();
      if (Number.isNaN(ms)) return this.addMissing();
      kind = K_DATE;
      text = cell.toISOString().slice(0, ms % 86_400_000 === 0 ? 10 : 19);
      this.addDate(ms);
    } else {
      return this.addMissing();
    }
    this.count++;
    this.kinds[kind]++;
    this.addValue(text, hash);
  }

  private addNumber(value: number) {
    this.n++;
    const delta = value - this.mean;
    this.mean += delta / this.n;
    this.m2 += delta * (value - this.mean);
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
    this.numbers.add(value);
  }

  private addDate(ms: number) {
    if (ms < this.dateMin) this.dateMin = ms;
    if (ms > this.dateMax) this.dateMax = ms;
    this.dates.add(ms);
  }

  /**
   * Count a value. The map is keyed by the value's hash (a small integer: cheap to look up)
   * with a chain of entries per key, so counts stay exact even when two values collide.
   */
  private addValue(text: string, hash: number) {
    const key = hash >>> 1;
    if (this.hll !== null) {
      this.hll.addHash(hash);
      // Past the exact phase top values are approximate anyway: count one value in
      // TOP_STRIDE (by position), which keeps high-cardinality columns cheap.
      if (++this.strideCounter % TOP_STRIDE !== 0) return;
      const entry = this.find(key, text);
      if (entry) entry.n += TOP_STRIDE;
      else {
        if (this.distinctEntries >= EXACT_DISTINCT_LIMIT) this.pruneTop();
        this.insert(key, text, TOP_STRIDE);
      }
      return;
    }
    const entry = this.find(key, text);
    if (entry) {
      entry.n++;
    } else if (this.distinctEntries < EXACT_DISTINCT_LIMIT) {
      this.insert(key, text, 1);
    } else {
      // Past the exact limit: distinct becomes an estimate and top values approximate.
      this.hll = new HyperLogLog();
      for (const e of this.entries()) this.hll.add(e.value);
      this.hll.addHash(hash);
      this.topExact = false;
      this.pruneTop();
      this.insert(key, text, 1);
    }
  }

  private find(key: number, text: string) {
    let entry = this.values.get(key);
    while (entry !== undefined && entry.value !== text) entry = entry.next;
    return entry;
  }

  private insert(key: number, value: string, n: number) {
    this.values.set(key, { value, n, next: this.values.get(key) });
    this.distinctEntries++;
  }

  private *entries() {
    for (const head of this.values.values()) {
      for (let e: ValueCount | undefined = head; e !== undefined; e = e.next) yield e;
    }
  }

  private pruneTop() {
    const kept = [...this.entries()].sort((a, b) => b.n - a.n).slice(0, TOP_KEEP);
    this.values = new Map();
    this.distinctEntries = 0;
    for (const e of kept) this.insert(hashPair(e.value) >>> 1, e.value, e.n);
  }

  finish(rows: number): ColumnProfile {
    const type = this.inferType();
    const distinct = this.hll ? Math.max(this.hll.estimate(), TOP_KEEP) : this.distinctEntries;
    const top = [...this.entries()]
      .sort((a, b) => b.n - a.n || (a.value < b.value ? -1 : 1))
      .slice(0, 10)
      .map((e) => ({ value: e.value, count: e.n }));
    const numeric = this.n > 0 && isNumericType(type) ? this.numericStats() : null;
    const dates = type === "date" && this.dateMin !== Infinity ? { min: isoDate(this.dateMin), max: isoDate(this.dateMax) } : null;
    const kinds: Partial<Record<ColumnType, number>> = {};
    for (let k = 1; k < this.kinds.length; k++) {
      if (this.kinds[k] > 0) kinds[KIND_NAMES[k] as ColumnType] = this.kinds[k];
    }
    const profile: ColumnProfile = {
      name: this.name,
      type,
      kinds,
      count: this.count,
      missing: this.missing,
      missingPct: rows === 0 ? 0 : round((this.missing / rows) * 100, 2),
      distinct,
      distinctExact: this.hll === null,
      numeric,
      dates,
      top,
      topExact: this.topExact,
      chart: null,
      warnings: [],
    };
    profile.chart = this.chart(profile);
    profile.warnings = this.warnings(profile, rows);
    return profile;
  }

  /** The dominant kind; integers, decimals and currency amounts count as one numeric family. */
  private inferType(): ColumnType {
    if (this.count === 0) return "text";
    const numericCount = this.kinds[K_INTEGER] + this.kinds[K_NUMBER] + this.kinds[K_CURRENCY];
    if (numericCount >= this.count * 0.9) {
      if (this.kinds[K_CURRENCY] > 0) return "currency";
      return this.kinds[K_NUMBER] > 0 ? "number" : "integer";
    }
    let best = K_TEXT;
    for (let k = K_DATE; k <= K_TEXT; k++) if (this.kinds[k] > this.kinds[best]) best = k;
    if (numericCount > this.kinds[best]) return this.kinds[K_CURRENCY] > 0 ? "currency" : this.kinds[K_NUMBER] > 0 ? "number" : "integer";
    return KIND_NAMES[best] as ColumnType;
  }

  private dominantShare(type: ColumnType) {
    if (this.count === 0) return 1;
    const family = isNumericType(type)
      ? this.kinds[K_INTEGER] + this.kinds[K_NUMBER] + this.kinds[K_CURRENCY]
      : this.kinds[KIND_NAMES.indexOf(type)];
    return family / this.count;
  }

  private numericStats() {
    const sorted = this.numbers.sorted();
    return {
      min: this.min,
      max: this.max,
      mean: this.mean,
      median: quantile(sorted, 0.5),
      stddev: this.n > 1 ? Math.sqrt(this.m2 / (this.n - 1)) : 0,
      q1: quantile(sorted, 0.25),
      q3: quantile(sorted, 0.75),
      p05: quantile(sorted, 0.05),
      p95: quantile(sorted, 0.95),
      exact: this.numbers.exact,
    };
  }

  private chart(profile: ColumnProfile): ColumnProfile["chart"] {
    if (profile.count === 0) return null;
    const few = profile.distinctExact && profile.distinct <= HISTOGRAM_BINS;
    if (profile.numeric && !few) {
      return { kind: "histogram", bins: histogram(this.numbers, this.n, this.min, this.max, formatBinNumber) };
    }
    if (profile.type === "date" && this.dates.seen > 0 && !few) {
      return { kind: "histogram", bins: histogram(this.dates, this.dates.seen, this.dateMin, this.dateMax, isoDate) };
    }
    return { kind: "bar", bins: profile.top.map((t) => ({ label: t.value, count: t.count })) };
  }

  private warnings(profile: ColumnProfile, rows: number) {
    const warnings: string[] = [];
    if (rows > 0 && profile.count === 0) warnings.push("Empty: every value is missing");
    else if (profile.missingPct >= 50) warnings.push(`Mostly empty: ${profile.missingPct}% missing`);
    if (profile.count > 1 && profile.distinctExact && profile.distinct === 1) warnings.push("Constant: one value only");
    const share = this.dominantShare(profile.type);
    if (profile.count > 0 && share < 0.9) {
      const kinds = Object.entries(profile.kinds)
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ${n}`)
        .join(", ");
      warnings.push(`Mixed types: ${kinds}`);
    }
    if (profile.numeric && this.numbers.length >= 8) {
      const { q1, q3 } = profile.numeric;
      const iqr = q3 - q1;
      if (iqr > 0) {
        let outside = 0;
        for (let i = 0; i < this.numbers.length; i++) {
          const v = this.numbers.values[i];
          if (v < q1 - 1.5 * iqr || v > q3 + 1.5 * iqr) outside++;
        }
        const estimate = Math.round((outside / this.numbers.length) * this.n);
        if (outside > 0) warnings.push(`Outliers: ${this.numbers.exact ? "" : "about "}${estimate} outside 1.5×IQR`);
      }
    }
    if (profile.count >= 20 && (profile.type === "integer" || profile.type === "text") && profile.distinct >= profile.count * 0.99) {
      warnings.push("Likely identifier: almost every value is unique");
    }
    return warnings;
  }
}

function isNumericType(type: ColumnType) {
  return type === "integer" || type === "number" || type === "currency";
}

function histogram(sample: Reservoir, total: number, min: number, max: number, label: (v: number) => string): ChartBin[] {
  if (min === max) return [{ label: label(min), count: total }];
  const counts = new Array<number>(HISTOGRAM_BINS).fill(0);
  const width = (max - min) / HISTOGRAM_BINS;
  for (let i = 0; i < sample.length; i++) {
    const bin = Math.min(HISTOGRAM_BINS - 1, Math.floor((sample.values[i] - min) / width));
    counts[bin]++;
  }
  const scale = sample.length === 0 ? 0 : total / sample.length;
  return counts.map((count, i) => ({ label: label(min + i * width), count: Math.round(count * scale) }));
}

function formatBinNumber(v: number) {
  const abs = Math.abs(v);
  if (abs >= 1_000_000) return `${round(v / 1_000_000, 1)}M`;
  if (abs >= 10_000) return `${round(v / 1_000, 1)}k`;
  return String(round(v, abs < 10 ? 2 : 0));
}

function isoDate(ms: number) {
  return new Date(ms).toISOString().slice(0, 10);
}

function round(v: number, digits: number) {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

/** Column names as shown: blanks become "Column N", repeats get " (2)", " (3)". */
export function normalizeHeader(names: Cell[]): string[] {
  const used = new Map<string, number>();
  return names.map((raw, i) => {
    let name = raw === null || raw === undefined ? "" : String(raw instanceof Date ? raw.toISOString().slice(0, 10) : raw).trim();
    if (name.length > 200) name = name.slice(0, 200);
    if (!name) name = `Column ${i + 1}`;
    const n = (used.get(name) ?? 0) + 1;
    used.set(name, n);
    return n === 1 ? name : `${name} (${n})`;
  });
}

/** Profiles one table (a CSV file or one sheet) row by row without keeping the rows. */
export class SheetProfiler {
  private columns: ColumnAccumulator[] = [];
  private rows = 0;
  private readonly rowHashes = new RowHashSet(MAX_ROW_HASHES);
  private duplicates = 0;
  private duplicatesExact = true;
  private header: string[] | null = null;

  constructor(
    readonly name: string,
    private readonly options: ProfilerOptions,
  ) {}

  setHeader(cells: Cell[]) {
    this.ensureColumns(cells.length);
    this.header = normalizeHeader(cells);
    this.columns = this.header.map((name) => new ColumnAccumulator(name, this.options.dateOrder ?? "auto"));
  }

  get rowCount() {
    return this.rows;
  }

  get columnCount() {
    return this.columns.length;
  }

  addRow(cells: Cell[]) {
    if (cells.length > this.columns.length) this.growTo(cells.length);
    const columns = this.columns;
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193;
    for (let i = 0; i < columns.length; i++) {
      const cell = i < cells.length ? cells[i] : null;
      const text = cell === null || cell === undefined ? "" : typeof cell === "string" ? cell : String(cell);
      // Two 32-bit hashes per cell, folded into two row hashes (64 bits): duplicates are
      // found without storing rows, and the same hash feeds the distinct-count estimate.
      const a = hashPair(text);
      const b = pairLow;
      columns[i].add(cell, a);
      h1 = Math.imul(h1 ^ a, 0x01000193) ^ (h1 >>> 15);
      h2 = Math.imul(h2 ^ b, 0x5bd1e995) ^ (h2 >>> 13);
    }
    this.rows++;
    if (this.rowHashes.addOrHas(h1 >>> 0, h2 >>> 0)) this.duplicates++;
    else if (this.rowHashes.full) this.duplicatesExact = false;
  }

  private ensureColumns(n: number) {
    if (n > this.options.maxColumns) {
      throw new ProfileLimitError(
        `Too many columns: ${n.toLocaleString("en-US")} (the limit is ${this.options.maxColumns.toLocaleString("en-US")})`,
      );
    }
  }

  /** Spreadsheet rows may run past the header: add columns, missing in the rows before. */
  private growTo(n: number) {
    this.ensureColumns(n);
    for (let i = this.columns.length; i < n; i++) {
      const column = new ColumnAccumulator(`Column ${i + 1}`, this.options.dateOrder ?? "auto");
      column.addMissing(this.rows);
      this.columns.push(column);
    }
  }

  finish(): SheetProfile {
    const profiles = this.columns.map((c) => c.finish(this.rows));
    const warnings: string[] = [];
    if (this.rows === 0) warnings.push("No data rows");
    if (this.duplicates > 0) warnings.push(`${this.duplicatesExact ? "" : "At least "}${formatCount(this.duplicates, "duplicate row")}`);
    return {
      name: this.name,
      rows: this.rows,
      columns: this.columns.length,
      duplicateRows: this.duplicates,
      duplicateRowsExact: this.duplicatesExact,
      profiles,
      warnings,
    };
  }
}
