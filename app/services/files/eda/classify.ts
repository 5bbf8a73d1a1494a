// Value classification for the EDA report. Hot path: called once per cell of a million-row
// file, so it returns a small integer and leaves parsed numbers in module scratch variables
// instead of allocating an object per cell.

export const K_MISSING = 0;
export const K_INTEGER = 1;
export const K_NUMBER = 2;
export const K_CURRENCY = 3;
export const K_DATE = 4;
export const K_BOOLEAN = 5;
export const K_EMAIL = 6;
export const K_PHONE = 7;
export const K_TEXT = 8;
export const KIND_NAMES = ["missing", "integer", "number", "currency", "date", "boolean", "email", "phone", "text"] as const;

/** How to read 01/02/2024: month first (US), day first, or guess per value (US unless impossible). */
export type DateOrder = "mdy" | "dmy" | "auto";

/** The number parsed by the last classify call (integer, number, currency). */
export let parsedNumber = 0;
/** The date (epoch ms, UTC) parsed by the last classify call. */
export let parsedDate = 0;

const MISSING = new Set(["na", "n/a", "null", "none", "nan", "-", "--", "#n/a", "nil", "?", "(blank)", "#null!"]);
const BOOLEANS = new Set(["true", "false", "yes", "no"]);
const initials = (chars: string) => new Set([...chars].map((ch) => ch.charCodeAt(0) | 0x20));
const MISSING_INITIALS = initials("n-#?(");
const BOOLEAN_INITIALS = initials("tfyn");

const INT_RE = /^[+-]?(?:0|[1-9]\d*)$/;
const ZERO_PADDED_RE = /^0\d+$/;
const GROUPED_INT_RE = /^[+-]?[1-9]\d{0,2}(?:,\d{3})+$/;
const NUM_RE = /^[+-]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?$/;
const GROUPED_NUM_RE = /^[+-]?\d{1,3}(?:,\d{3})+\.\d+$/;
const PERCENT_RE = /^[+-]?\d+(?:\.\d+)?%$/;
const CURRENCY_RE = /^(\()?([+-])?[$€£]\s?([+-])?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(\))?$/;
const ISO_DATE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const SLASH_DATE_RE = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?)?$/;
const NAMED_DATE_RE = /^(?:([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})|(\d{1,2})[\s-]([A-Za-z]{3,9})[\s,-]+(\d{4}))$/;
const PHONE_RE = /^(?:\+?1[\s.-]?)?(?:\(\d{3}\)\s?|\d{3}[\s.-])\d{3}[\s.-]?\d{4}(?:\s*(?:x|ext\.?)\s*\d{1,6})?$/i;
const INTL_PHONE_RE = /^\+\d{1,3}[\s.-]?\(?\d{1,4}\)?(?:[\s.-]?\d{2,4}){2,4}$/;
const EMAIL_RE = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
  january: 1,
  february: 2,
  march: 3,
  april: 4,
  june: 6,
  july: 7,
  august: 8,
  september: 9,
  october: 10,
  november: 11,
  december: 12,
};

const MONTH_INITIALS = new Set([..."jfmasond"].map((ch) => ch.charCodeAt(0)));
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function makeDate(y: number, m: number, d: number, hh = 0, mm = 0, ss = 0) {
  if (m < 1 || m > 12 || d < 1 || d > DAYS_IN_MONTH[m - 1]) return false;
  if (m === 2 && d === 29 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0))) return false;
  if (hh > 23 || mm > 59 || ss > 59) return false;
  parsedDate = Date.UTC(y, m - 1, d, hh, mm, ss);
  return true;
}

/** The number written by s[from, to) when every character is a digit, else -1. */
function digits(s: string, from: number, to: number) {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

function fullYear(text: string) {
  const y = Number(text);
  return text.length === 2 ? (y < 70 ? 2000 + y : 1900 + y) : y;
}

function parseDate(s: string, order: DateOrder): boolean {
  const c = s.charCodeAt(0);
  if (c >= 48 && c <= 57) {
    // yyyy-mm-dd, the commonest export format, without a regular expression.
    if (s.length === 10 && s.charCodeAt(4) === 45 && s.charCodeAt(7) === 45) {
      const y = digits(s, 0, 4);
      const mo = digits(s, 5, 7);
      const d = digits(s, 8, 10);
      if (y >= 0 && mo >= 0 && d >= 0) return makeDate(y, mo, d);
    }
    let m = ISO_DATE_RE.exec(s);
    if (m) return makeDate(+m[1], +m[2], +m[3], m[4] ? +m[4] : 0, m[5] ? +m[5] : 0, m[6] ? +m[6] : 0);
    m = SLASH_DATE_RE.exec(s);
    if (m) {
      const a = +m[1];
      const b = +m[3];
      const dayFirst = order === "dmy" || (order === "auto" && a > 12 && b <= 12);
      let hh = m[5] ? +m[5] : 0;
      if (m[8]) {
        if (hh > 12) return false;
        const pm = m[8].toLowerCase() === "pm";
        hh = pm ? (hh % 12) + 12 : hh % 12;
      }
      return makeDate(fullYear(m[4]), dayFirst ? b : a, dayFirst ? a : b, hh, m[6] ? +m[6] : 0, m[7] ? +m[7] : 0);
    }
  }
  if (s.length < 8 || s.length > 20) return false;
  // Named months start with one of these letters (or the day's digit): skip the regex otherwise.
  if (!(c >= 48 && c <= 57) && !MONTH_INITIALS.has(c | 0x20)) return false;
  const m = NAMED_DATE_RE.exec(s);
  if (!m) return false;
  const month = MONTHS[(m[1] ?? m[5]).toLowerCase()];
  if (!month) return false;
  return m[1] ? makeDate(+m[3], month, +m[2]) : makeDate(+m[6], month, +m[4]);
}

/** Classify one text cell; numbers and dates land in parsedNumber / parsedDate. */
export function classify(raw: string, order: DateOrder = "auto"): number {
  let s = raw;
  const len = s.length;
  if (len === 0) return K_MISSING;
  if (s.charCodeAt(0) <= 32 || s.charCodeAt(len - 1) <= 32) {
    s = s.trim();
    if (s.length === 0) return K_MISSING;
  }
  const c = s.charCodeAt(0);
  // Missing markers start with n, -, #, ? or "(": skip the lower-casing for everything else.
  if (s.length <= 7 && MISSING_INITIALS.has(c | 0x20) && MISSING.has(s.toLowerCase())) return K_MISSING;
  // Digits, signs and dots: numbers, dates and phone numbers.
  if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46) {
    if (INT_RE.test(s)) {
      parsedNumber = Number(s);
      return K_INTEGER;
    }
    // Zero-padded digits are codes (ZIP codes, account numbers), not quantities.
    if (c === 48 && ZERO_PADDED_RE.test(s)) return K_TEXT;
    if (NUM_RE.test(s)) {
      parsedNumber = Number(s);
      return K_NUMBER;
    }
    if (GROUPED_INT_RE.test(s)) {
      parsedNumber = Number(s.replace(/,/g, ""));
      return K_INTEGER;
    }
    if (GROUPED_NUM_RE.test(s)) {
      parsedNumber = Number(s.replace(/,/g, ""));
      return K_NUMBER;
    }
    if (parseDate(s, order)) return K_DATE;
    if (PHONE_RE.test(s) || (c === 43 && INTL_PHONE_RE.test(s))) return K_PHONE;
    if (PERCENT_RE.test(s)) {
      parsedNumber = Number(s.slice(0, -1));
      return K_NUMBER;
    }
    if (c === 45 || c === 43) {
      const m = CURRENCY_RE.exec(s);
      if (m) return currency(m);
    }
    return s.includes("@") && EMAIL_RE.test(s) ? K_EMAIL : K_TEXT;
  }
  // $ ( € £: currency, and (555) 123-4567 phone numbers.
  if (c === 36 || c === 40 || c === 8364 || c === 163) {
    // "(555) 123-4567" is far commoner than "($20.00)": a digit after "(" means a phone number.
    const c1 = s.charCodeAt(1);
    if (c === 40 && c1 >= 48 && c1 <= 57) return PHONE_RE.test(s) ? K_PHONE : K_TEXT;
    const m = CURRENCY_RE.exec(s);
    if (m) return currency(m);
    return K_TEXT;
  }
  if (s.length <= 5 && BOOLEAN_INITIALS.has(c | 0x20) && BOOLEANS.has(s.toLowerCase())) return K_BOOLEAN;
  if (s.includes("@")) return EMAIL_RE.test(s) ? K_EMAIL : K_TEXT;
  if (parseDate(s, order)) return K_DATE;
  return K_TEXT;
}

function currency(m: RegExpExecArray) {
  if ((m[1] && !m[6]) || (!m[1] && m[6])) return K_TEXT;
  const negative = !!m[1] || m[2] === "-" || m[3] === "-";
  const digits = m[4].includes(",") ? m[4].replace(/,/g, "") : m[4];
  const value = Number(m[5] ? digits + m[5] : digits);
  parsedNumber = negative ? -value : value;
  return K_CURRENCY;
}
