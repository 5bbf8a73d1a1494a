import { differenceInCalendarMonths, isValid, parse, parseISO } from "date-fns";

/**
 * Seed §5 number formatting: '' for missing or non-numeric input, otherwise US grouping
 * with a fixed number of decimals (default 0).
 */
export function formatNumber(value: unknown, decimals = 0): string {
  const num = numericValue(value);
  if (num === null) return "";
  return numberFormat(decimals).format(num);
}

/**
 * A number, numeric text or a bigint as a finite number; null for anything else. Number() alone
 * would read blank text ("  ") and an empty list as 0, which seed §5 counts as non-numeric.
 */
export function numericValue(value: unknown): number | null {
  let num: number;
  if (typeof value === "number") num = value;
  else if (typeof value === "bigint") num = Number(value);
  else if (typeof value === "string" && value.trim() !== "") num = Number(value.trim());
  else return null;
  return Number.isFinite(num) ? num : null;
}

const numberFormats = new Map<number, Intl.NumberFormat>();

// toLocaleString with options builds a new Intl.NumberFormat on every call (tens of µs each; a
// worklist page formats ~150 numbers): one formatter per number of decimals, same output.
function numberFormat(decimals: number) {
  let f = numberFormats.get(decimals);
  if (!f) {
    f = new Intl.NumberFormat("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    numberFormats.set(decimals, f);
  }
  return f;
}

/** US dollars with grouping; '' for missing input, like formatNumber. */
export function formatMoney(value: unknown, decimals = 0): string {
  const text = formatNumber(value, decimals);
  if (text === "") return "";
  return text.startsWith("-") ? `-$${text.slice(1)}` : `$${text}`;
}

export type PeriodCode = "yr" | "6m";

/**
 * Seed §5 period label → short code. '12 months' / '1 year' → 'yr'; '6 months' → '6m';
 * 'start - end' → 'yr' when the dates are exactly 12 months apart, else '6m';
 * an empty label or one without a dash → `fallback`.
 */
export function periodToCode<F>(label: string | null | undefined, fallback: F): PeriodCode | F {
  const text = (label ?? "").trim();
  if (text === "") return fallback;
  const lower = text.toLowerCase();
  if (lower === "12 months" || lower === "1 year") return "yr";
  if (lower === "6 months") return "6m";
  // Split on a spaced dash so ISO dates (2026-01-01) keep their own hyphens.
  const parts = text.split(/\s+[-–]\s+/);
  if (parts.length !== 2) return fallback;
  const [start, end] = parts.map(parseLooseDate);
  if (!start || !end) return fallback;
  return Math.abs(differenceInCalendarMonths(end, start)) === 12 && start.getDate() === end.getDate() ? "yr" : "6m";
}

/** Period code → label used by forms (the inverse of the common labels). */
export function codeToPeriodLabel(code: PeriodCode) {
  return code === "yr" ? "12 months" : "6 months";
}

const DATE_FORMATS = ["yyyy-MM-dd", "MM/dd/yyyy", "M/d/yyyy", "MMM d, yyyy", "d MMM yyyy", "dd MMM yyyy"];

function parseLooseDate(value: string): Date | null {
  const iso = parseISO(value);
  if (isValid(iso)) return iso;
  for (const format of DATE_FORMATS) {
    const date = parse(value, format, new Date(2000, 0, 1));
    if (isValid(date)) return date;
  }
  return null;
}
