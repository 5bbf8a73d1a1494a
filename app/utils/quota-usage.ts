/**
 * Seed remarket-usage: the percentage derived from currentYearUsage and annual_quota, one
 * decimal. A quota of 0 allows nothing, so it counts as fully used (100); usage over the quota
 * (after staff lowered it) shows its real figure, above 100.
 */
export function usagePercent(used: number, quota: number) {
  if (quota <= 0) return 100;
  return Math.round((used / quota) * 1000) / 10;
}

export type UsageLevel = "ok" | "warning" | "error";

/** Warning from 80 %, error at 100 % (a quota of 0 allows nothing, so it is already at its limit). */
export function usageLevel(used: number, quota: number): UsageLevel {
  if (quota <= 0 || used >= quota) return "error";
  if (used * 100 >= quota * 80) return "warning";
  return "ok";
}

/** The refusal shown when the year's quota is used up. */
export function quotaUsedUpMessage(year: number, used: number, quota: number) {
  return `Your re-marketing quota for ${year} is used up (${used} of ${quota}).`;
}
