type DateParts = { year: number; month: number; day: number; iso: string };

/**
 * The calendar date of an instant in an IANA time zone (UTC when the zone is unknown). Every page
 * asks for today's date, so each zone's last answer is kept for the rest of its minute: since early
 * 1972 every zone's offset is a whole number of minutes, so a date cannot change within a UTC minute.
 */
export function localDateParts(instant: Date, timeZone: string): DateParts {
  const ms = instant.getTime();
  const minute = Math.floor(ms / 60_000);
  const last = ms >= WHOLE_MINUTE_OFFSETS_SINCE ? lastDates.get(timeZone) : undefined;
  if (last?.minute === minute) return { ...last.parts };
  const parts = formatter(timeZone).formatToParts(instant);
  const read = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const year = read("year");
  const month = read("month");
  const day = read("day");
  const iso = `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  const answer = { year, month, day, iso };
  if (ms >= WHOLE_MINUTE_OFFSETS_SINCE && (lastDates.has(timeZone) || lastDates.size < MAX_CACHED_ZONES)) {
    lastDates.set(timeZone, { minute, parts: { ...answer } });
  }
  return answer;
}

// Monrovia kept its -0:44:30 offset until 7 January 1972, the last zone to leave seconds behind.
const WHOLE_MINUTE_OFFSETS_SINCE = Date.UTC(1972, 0, 8);
const lastDates = new Map<string, { minute: number; parts: DateParts }>();

// Zone names can come from a browser's cookie: the caches are bounded.
const MAX_CACHED_ZONES = 1_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "numeric", day: "numeric" });
    } catch {
      f = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric", month: "numeric", day: "numeric" });
    }
    if (formatters.size < MAX_CACHED_ZONES) formatters.set(timeZone, f);
  }
  return f;
}

const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/** "14 Mar 2026" for an instant, in the tenant's time zone (an unknown zone reads as UTC). */
export function formatLocalDay(instant: Date, timeZone: string) {
  return zoned(dayFormatters, timeZone, { day: "2-digit", month: "short", year: "numeric" }).format(instant);
}

function zoned(cache: Map<string, Intl.DateTimeFormat>, timeZone: string, options: Intl.DateTimeFormatOptions) {
  let f = cache.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat("en-GB", { ...options, timeZone });
    } catch {
      f = new Intl.DateTimeFormat("en-GB", { ...options, timeZone: "UTC" });
    }
    if (cache.size < MAX_CACHED_ZONES) cache.set(timeZone, f);
  }
  return f;
}
