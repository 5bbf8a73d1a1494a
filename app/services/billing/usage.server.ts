import { and, eq, gte, lte, sql } from "drizzle-orm";
import { remarketUsage, remarketUsageEvents } from "~/db/schema";
import { localDateParts } from "~/utils/time-zone";
import { usageLevel, usagePercent } from "~/utils/quota-usage";
import { effectiveAnnualQuota, readBillingState } from "./billing-account.server";
import { clock, type TenantContext } from "../platform/context.server";
import { NotFoundError } from "../platform/errors.server";

/** Seed remarket-usage: annual_quota, currentYearUsage and the percentage derived from them. */
export async function getRemarketUsage(ctx: TenantContext) {
  const now = clock(ctx);
  const state = await readBillingState(ctx.db, ctx.tenantId);
  if (!state) throw new NotFoundError();
  const quotaYear = localDateParts(now, state.timeZone).year;
  const [row] = await ctx.db
    .select({ used: remarketUsage.used })
    .from(remarketUsage)
    .where(and(eq(remarketUsage.tenantId, ctx.tenantId), eq(remarketUsage.quotaYear, quotaYear)));
  const used = row?.used ?? 0;
  const quota = effectiveAnnualQuota(state);
  return {
    quotaYear,
    annualQuota: quota,
    currentYearUsage: used,
    remaining: Math.max(0, quota - used),
    percent: usagePercent(used, quota),
    level: usageLevel(used, quota),
  };
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

export type UsageBucket = { key: number; label: string; count: number };

/**
 * Seed monthly-usage with month and year: uses per month of `year`, or per day of `month`
 * when one is given. Days are the tenant's local calendar days, recorded with each use.
 */
export async function getMonthlyUsage(ctx: TenantContext, input: { year: number; month?: number | null }) {
  const { year, month } = input;
  const pad = (n: number) => String(n).padStart(2, "0");
  const from = month ? `${year}-${pad(month)}-01` : `${year}-01-01`;
  const daysInMonth = month ? new Date(Date.UTC(year, month, 0)).getUTCDate() : 0;
  const to = month ? `${year}-${pad(month)}-${pad(daysInMonth)}` : `${year}-12-31`;
  const part = month
    ? sql<number>`extract(day from ${remarketUsageEvents.localDate})::int`
    : sql<number>`extract(month from ${remarketUsageEvents.localDate})::int`;
  const rows = await ctx.db
    .select({ key: part, count: sql<number>`count(*)::int` })
    .from(remarketUsageEvents)
    .where(
      and(eq(remarketUsageEvents.tenantId, ctx.tenantId), gte(remarketUsageEvents.localDate, from), lte(remarketUsageEvents.localDate, to)),
    )
    .groupBy(part);
  const counts = new Map(rows.map((r) => [Number(r.key), Number(r.count)]));
  const buckets: UsageBucket[] = month
    ? Array.from({ length: daysInMonth }, (_, i) => ({ key: i + 1, label: String(i + 1), count: counts.get(i + 1) ?? 0 }))
    : MONTHS.map((label, i) => ({ key: i + 1, label, count: counts.get(i + 1) ?? 0 }));
  return { year, month: month ?? null, buckets, total: buckets.reduce((sum, b) => sum + b.count, 0) };
}
