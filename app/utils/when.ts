/** "Jun 3, 2025, 2:05 PM" in the tenant's time zone (formatted on the server, so no hydration drift). */
export function formatWhen(date: Date | null, timeZone: string) {
  if (!date) return null;
  return date.toLocaleString("en-US", { timeZone, month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit" });
}
