/** The calendar date of an instant in an IANA time zone (UTC when the zone is unknown). */
export function localDateParts(instant: Date, timeZone: string) {
  const parts = formatter(timeZone).formatToParts(instant);
  const read = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const year = read("year");
  const month = read("month");
  const day = read("day");
  const iso = `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  return { year, month, day, iso };
}

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
  let f = dayFormatters.get(timeZone);
  if (!f) {
    const options = { day: "2-digit", month: "short", year: "numeric" } as const;
    try {
      f = new Intl.DateTimeFormat("en-GB", { ...options, timeZone });
    } catch {
      f = new Intl.DateTimeFormat("en-GB", { ...options, timeZone: "UTC" });
    }
    if (dayFormatters.size < MAX_CACHED_ZONES) dayFormatters.set(timeZone, f);
  }
  return f.format(instant);
}
