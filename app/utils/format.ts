import { TZDate } from "@date-fns/tz";
import { differenceInCalendarMonths, format, isValid, parse, parseISO } from "date-fns";
import { parsePhoneNumberFromString } from "libphonenumber-js/min";

// The one place numbers, money, dates and phone numbers become text on a page (issue 14): every
// route and component formats through here, and lint (eslint.config.js) keeps ad-hoc
// toLocaleString / Intl / date-fns format calls out of app/routes and app/components.

/** U+2212, the minus sign: a hyphen reads as a dash next to a dollar sign and breaks at line ends. */
const MINUS = "\u2212";

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

/**
 * US dollars with grouping: `$1,234`, `$1,234.56` (decimals = 2), negatives `−$12` with a minus
 * sign; an amount that rounds to zero is `$0`, never `-$0`. '' for missing input, like formatNumber.
 */
export function formatMoney(value: unknown, decimals = 0): string {
  const num = numericValue(value);
  if (num === null) return "";
  const text = numberFormat(decimals).format(Math.abs(num));
  return num < 0 && !isZero(text) ? `${MINUS}$${text}` : `$${text}`;
}

/** A change in dollars with its sign: `+$12`, `−$12`, `$0`. */
export function formatMoneyChange(value: unknown, decimals = 0): string {
  const num = numericValue(value);
  if (num === null) return "";
  const text = formatMoney(num, decimals);
  return num > 0 && !isZero(text) ? `+${text}` : text;
}

/**
 * A percentage given in percent (12.34 → `12.3%`), at most `decimals` decimals, no space before
 * the sign; negatives with a minus sign, never `-0%`. '' for missing input.
 */
export function formatPercent(value: unknown, decimals = 1): string {
  const num = numericValue(value);
  if (num === null) return "";
  const text = percentFormat(decimals).format(Math.abs(num));
  return num < 0 && !isZero(text) ? `${MINUS}${text}%` : `${text}%`;
}

/** A change in percent with its sign: `+21%`, `−4.5%`, `0%`. */
export function formatPercentChange(value: unknown, decimals = 1): string {
  const num = numericValue(value);
  if (num === null) return "";
  const text = formatPercent(num, decimals);
  return num > 0 && !isZero(text) ? `+${text}` : text;
}

const plurals = new Intl.PluralRules("en-US");

/** A count with its noun in the right number: `1 customer`, `2 customers`, `1,234 duplicate rows`. */
export function formatCount(count: number, singular: string, plural = `${singular}s`): string {
  return `${numberFormat(0).format(count)} ${plurals.select(count) === "one" ? singular : plural}`;
}

/** Names in a sentence: `CNA`, `CNA and Kemper`, `CNA, Foremost and Kemper` (no serial comma, as the pages write). */
export function formatList(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** A name's possessive: `Safeco's`, and `Travelers'` for a name that ends in s (carriers often do). */
export function possessive(name: string): string {
  return /s$/i.test(name) ? `${name}'` : `${name}'s`;
}

/** Only the noun for a count (`row` / `rows`), for sentences that show the number apart. */
export function pluralize(count: number, singular: string, plural = `${singular}s`): string {
  return plurals.select(count) === "one" ? singular : plural;
}

const percentFormats = new Map<number, Intl.NumberFormat>();
function percentFormat(decimals: number) {
  let f = percentFormats.get(decimals);
  if (!f) {
    f = new Intl.NumberFormat("en-US", { minimumFractionDigits: 0, maximumFractionDigits: decimals });
    percentFormats.set(decimals, f);
  }
  return f;
}

function isZero(text: string) {
  return !/[1-9]/.test(text);
}

type DateInput = Date | string | number | null | undefined;

/**
 * A day as `dd MMM yyyy` (`05 May 2026`). A calendar date (`yyyy-MM-dd`, as policies store their
 * dates) is shown as it is; an instant is shown on its day in `timeZone` (the agency's; UTC when
 * unknown). '' for missing or unreadable input.
 */
export function formatDate(value: DateInput, timeZone = "UTC"): string {
  if (typeof value === "string" && CALENDAR_DATE.test(value)) {
    const [y, m, d] = value.slice(0, 10).split("-").map(Number);
    return `${String(d).padStart(2, "0")} ${MONTHS[m - 1]} ${String(y).padStart(4, "0")}`;
  }
  const zoned = inZone(value, timeZone);
  return zoned ? format(zoned, "dd MMM yyyy") : "";
}

/** An instant as `dd MMM yyyy | HH:mm` in `timeZone` (the notification card's format). */
export function formatDateTime(value: DateInput, timeZone = "UTC"): string {
  const zoned = inZone(value, timeZone);
  return zoned ? format(zoned, "dd MMM yyyy | HH:mm") : "";
}

/** A month (`yyyy-MM`, `yyyy-MM-dd` or a Date): `long` → `January`, `short` → `Jan 2026`. */
export function formatMonth(value: string | Date, style: "long" | "short" = "short"): string {
  const iso = typeof value === "string" ? value : format(value, "yyyy-MM");
  const match = /^(\d{4})-(\d{2})/.exec(iso);
  if (!match) return "";
  const month = Number(match[2]);
  return style === "long" ? MONTH_NAMES[month - 1] : `${MONTHS[month - 1]} ${match[1]}`;
}

/**
 * A phone number for people: national format for a number of the agency's country (US),
 * international for others (`(708) 555-1018`, `+44 20 7946 0958`). The data keeps E.164; text that
 * is not a phone number is shown as it is.
 */
// Parsing and validating a number costs ~0.1 ms (25 on a customer page: more than rendering it),
// and the same customers' numbers come back page after page: kept, a pure function of the text.
const phonesShown = new Map<string, string>();
const PHONES_KEPT = 20_000;

export function formatPhone(value: string | null | undefined): string {
  const text = (value ?? "").trim();
  if (text === "") return "";
  let shown = phonesShown.get(text);
  if (shown === undefined) {
    const phone = parsePhoneNumberFromString(text, "US");
    shown = !phone?.isValid() ? text : phone.country === "US" ? phone.formatNational() : phone.formatInternational();
    if (phonesShown.size >= PHONES_KEPT) phonesShown.clear();
    phonesShown.set(text, shown);
  }
  return shown;
}

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** Month names for pickers and labels ("January"), shared with the billing page. */
export const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

// Zone names can come from a browser's cookie: an unknown one reads as UTC, and the cache is bounded.
const knownZones = new Map<string, string>();
function safeZone(timeZone: string) {
  let zone = knownZones.get(timeZone);
  if (zone === undefined) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone });
      zone = timeZone;
    } catch {
      zone = "UTC";
    }
    if (knownZones.size < 1_000) knownZones.set(timeZone, zone);
  }
  return zone;
}

function inZone(value: DateInput, timeZone: string) {
  if (value === null || value === undefined || value === "") return null;
  const ms = value instanceof Date ? value.getTime() : new Date(value).getTime();
  if (!Number.isFinite(ms)) return null;
  return new TZDate(ms, safeZone(timeZone));
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
