import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";

/** The calendar day (yyyy-MM-dd) of `date` in `timeZone`: the key notifications are grouped by. */
export function dayKey(date: Date | string, timeZone = "UTC") {
  return format(new TZDate(new Date(date).getTime(), timeZone), "yyyy-MM-dd");
}

/** A day heading: Today, Yesterday, or `EEEE, dd MMM yyyy`. */
export function dayLabel(key: string, now: Date, timeZone = "UTC") {
  if (key === dayKey(now, timeZone)) return "Today";
  if (key === dayKey(new Date(now.getTime() - 86_400_000), timeZone)) return "Yesterday";
  const [y, m, d] = key.split("-").map(Number);
  return format(new Date(y, m - 1, d), "EEEE, dd MMM yyyy");
}

/** Bytes as B, KB, MB, GB (1024-based, one decimal from KB up). */
export function formatBytes(bytes: number) {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
