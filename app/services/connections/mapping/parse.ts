import { parseMoneyText } from "~/utils/money-input";

// Cleaning what real exports contain (DOMAIN.md "Real exports are messy"): `$1,234.50` and
// `1234.5` in one column, mixed date formats, "Last, First" names, N/A in number columns.

const BLANKS = new Set(["", "n/a", "na", "null", "none", "-", "--", "nil", "#n/a", "(blank)"]);

export function isBlank(value: string | null | undefined) {
  if (value === null || value === undefined || value === "") return true;
  // Every blank spelling is short: longer values skip the trim and lookup (a hot path of imports).
  if (value.length > 9) return false;
  return BLANKS.has(value.trim().toLowerCase());
}

/** Trimmed text, null when blank or N/A. */
export function cleanText(value: string | null | undefined) {
  if (isBlank(value)) return null;
  const text = value!.trim();
  // Most cells hold no run of spaces, tab or line break: skip the replace (a hot path of imports).
  return MESSY_SPACE.test(text) ? text.replace(/\s+/g, " ") : text;
}

const MESSY_SPACE = /\s\s|[^\S ]/;

export type Parsed<T> = { ok: true; value: T | null } | { ok: false };

/** `$1,234.50`, `1234.5`, `(12.00)` (negative), US exports only; blank/N/A → null. Forms read money the same way (utils/money-input.ts). */
export function parseMoney(value: string | null | undefined): Parsed<number> {
  if (isBlank(value)) return { ok: true, value: null };
  // Plain amounts ("1234.50") need none of the clean-up below (a hot path of imports).
  if (PLAIN_AMOUNT.test(value!)) return { ok: true, value: Math.round(Number(value) * 100) / 100 };
  return parseMoneyText(value);
}

const PLAIN_AMOUNT = /^\d{1,15}(\.\d+)?$/;

export function parseInteger(value: string | null | undefined): Parsed<number> {
  if (isBlank(value)) return { ok: true, value: null };
  const money = parseMoney(value);
  if (!money.ok || money.value === null || !Number.isInteger(money.value)) return { ok: false };
  return money;
}

const pad = (n: number) => String(n).padStart(2, "0");

function isoIfValid(y: number, m: number, d: number): string | null {
  if (y < 1900 || y > 2200 || m < 1 || m > 12 || d < 1) return null;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > days) return null;
  return `${y}-${pad(m)}-${pad(d)}`;
}

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
  oct: 10,
  nov: 11,
  dec: 12,
};

/**
 * A calendar date as yyyy-mm-dd: ISO (with or without time), MM/DD/YYYY, M/D/YY, MM-DD-YYYY,
 * YYYYMMDD, "Mar 1, 2025", "01-Mar-2025", and Excel serial numbers. Blank → null.
 */
export function parseDate(value: string | null | undefined): Parsed<string> {
  if (isBlank(value)) return { ok: true, value: null };
  // Exports repeat the same few hundred dates: parse each spelling once (a hot path of imports).
  const cached = dateCache.get(value!);
  if (cached) return cached;
  const parsed = parseDateUncached(value!);
  if (dateCache.size > 20_000) dateCache.clear();
  dateCache.set(value!, parsed);
  return parsed;
}

const dateCache = new Map<string, Parsed<string>>();

function parseDateUncached(value: string): Parsed<string> {
  const text = value!.trim();
  let m: RegExpMatchArray | null;
  const done = (iso: string | null): Parsed<string> => (iso ? { ok: true, value: iso } : { ok: false });
  if ((m = text.match(/^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/))) {
    return done(isoIfValid(+m[1], +m[2], +m[3]));
  }
  if ((m = text.match(/^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})(?:\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AP]M)?)?$/i))) {
    let year = +m[3];
    if (m[3].length === 2) year += year < 70 ? 2000 : 1900;
    return done(isoIfValid(year, +m[1], +m[2]));
  }
  if ((m = text.match(/^(\d{4})(\d{2})(\d{2})$/))) return done(isoIfValid(+m[1], +m[2], +m[3]));
  if ((m = text.match(/^([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})$/))) {
    const month = MONTHS[m[1].toLowerCase()];
    return done(month ? isoIfValid(+m[3], month, +m[2]) : null);
  }
  if ((m = text.match(/^(\d{1,2})[-\s]([A-Za-z]{3})[a-z]*[-\s](\d{2}|\d{4})$/))) {
    const month = MONTHS[m[2].toLowerCase()];
    let year = +m[3];
    if (m[3].length === 2) year += year < 70 ? 2000 : 1900;
    return done(month ? isoIfValid(year, month, +m[1]) : null);
  }
  if ((m = text.match(/^(\d{5})(?:\.\d+)?$/))) {
    // Excel serial day (1900 date system): 45292 is 2024-01-01.
    const serial = +m[1];
    if (serial < 20_000 || serial > 80_000) return { ok: false };
    const date = new Date(Date.UTC(1899, 11, 30) + serial * 86_400_000);
    return done(isoIfValid(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()));
  }
  return { ok: false };
}

/** A timestamp (ISO or a date) → ISO string; null when blank or unreadable. */
export function parseTimestamp(value: string | null | undefined): string | null {
  if (isBlank(value)) return null;
  const text = value!.trim();
  const direct = new Date(text);
  if (/^\d{4}-\d{2}-\d{2}T/.test(text) && !Number.isNaN(direct.getTime())) return direct.toISOString();
  const date = parseDate(text);
  return date.ok && date.value ? `${date.value}T00:00:00.000Z` : null;
}

const BUSINESS_WORDS =
  /\b(llc|inc|corp|corporation|co|company|ltd|lp|llp|pllc|dba|group|holdings|services|enterprises|partners|trust|associates|church|restaurant|farms?)\b\.?/i;

export function looksLikeBusiness(name: string) {
  return BUSINESS_WORDS.test(name);
}

/** "Last, First M." → first and last; "First Last" → first and last; businesses keep their name. */
export function splitPersonName(name: string): { firstName: string | null; lastName: string | null } {
  const text = name.trim().replace(/\s+/g, " ");
  if (text.includes(",")) {
    const [last, ...rest] = text.split(",");
    const first = rest.join(",").trim();
    return { firstName: first || null, lastName: last.trim() || null };
  }
  const parts = text.split(" ");
  if (parts.length === 1) return { firstName: null, lastName: parts[0] };
  return { firstName: parts.slice(0, -1).join(" "), lastName: parts[parts.length - 1] };
}

const STATES: Record<string, string> = {
  alabama: "AL",
  alaska: "AK",
  arizona: "AZ",
  arkansas: "AR",
  california: "CA",
  colorado: "CO",
  connecticut: "CT",
  delaware: "DE",
  "district of columbia": "DC",
  florida: "FL",
  georgia: "GA",
  hawaii: "HI",
  idaho: "ID",
  illinois: "IL",
  indiana: "IN",
  iowa: "IA",
  kansas: "KS",
  kentucky: "KY",
  louisiana: "LA",
  maine: "ME",
  maryland: "MD",
  massachusetts: "MA",
  michigan: "MI",
  minnesota: "MN",
  mississippi: "MS",
  missouri: "MO",
  montana: "MT",
  nebraska: "NE",
  nevada: "NV",
  "new hampshire": "NH",
  "new jersey": "NJ",
  "new mexico": "NM",
  "new york": "NY",
  "north carolina": "NC",
  "north dakota": "ND",
  ohio: "OH",
  oklahoma: "OK",
  oregon: "OR",
  pennsylvania: "PA",
  "rhode island": "RI",
  "south carolina": "SC",
  "south dakota": "SD",
  tennessee: "TN",
  texas: "TX",
  utah: "UT",
  vermont: "VT",
  virginia: "VA",
  washington: "WA",
  "west virginia": "WV",
  wisconsin: "WI",
  wyoming: "WY",
  "puerto rico": "PR",
};
const STATE_CODES = new Set(Object.values(STATES));

/** Two-letter state code from a code or a name; `{ ok: false }` when it is neither. */
export function parseState(value: string | null | undefined): Parsed<string> {
  if (isBlank(value)) return { ok: true, value: null };
  const text = value!.trim().replace(/\./g, "");
  const upper = text.toUpperCase();
  if (STATE_CODES.has(upper)) return { ok: true, value: upper };
  const named = STATES[text.toLowerCase()];
  return named ? { ok: true, value: named } : { ok: false };
}

/** US phone numbers as E.164; other text kept as written (a phone is never a reason to reject). */
export function parsePhone(value: string | null | undefined) {
  const text = cleanText(value);
  if (!text) return null;
  const digits = text.replace(/\D/g, "");
  if (digits.length === 10) return `+1${digits}`;
  if (digits.length === 11 && digits.startsWith("1")) return `+${digits}`;
  return text;
}

export function parseEmail(value: string | null | undefined) {
  const text = cleanText(value)?.toLowerCase() ?? null;
  return text && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text) ? text : null;
}

/** "12", "12 months", "Annual" → 12; "6 Mo", "Semi-Annual" → 6. */
export function parseTerm(value: string | null | undefined): number | null {
  const text = cleanText(value)?.toLowerCase();
  if (!text) return null;
  if (/semi|six|^6\b/.test(text)) return 6;
  if (/annual|year|twelve|^12\b/.test(text)) return 12;
  const n = parseInt(text, 10);
  return Number.isFinite(n) && n > 0 && n <= 120 ? n : null;
}

/** Whole months between two ISO dates (for the term when the export has none). */
export function monthsBetween(fromIso: string, toIso: string) {
  const [y1, m1, d1] = fromIso.split("-").map(Number);
  const [y2, m2, d2] = toIso.split("-").map(Number);
  return (y2 - y1) * 12 + (m2 - m1) - (d2 < d1 ? 1 : 0);
}
