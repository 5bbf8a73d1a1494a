import { and, asc, eq } from "drizzle-orm";
import { forecastPreferences } from "~/db/schema";
import { clock, type TenantContext } from "../platform/context.server";

export type ForecastPreference = {
  forecastObjectId: string;
  window: "6m" | "yr";
  thresholdPct: number;
  thresholdAmount: number | null;
  actDaysBeforeExpiration: number;
  excludeFirstTerm: boolean;
  excludeZeroPremium: boolean;
};

/** 'all' applies to every line of business without a preference of its own. */
export const ALL_LINES = "all";

export const DEFAULT_PREFERENCE: ForecastPreference = {
  forecastObjectId: ALL_LINES,
  window: "yr",
  thresholdPct: 10,
  thresholdAmount: null,
  actDaysBeforeExpiration: 60,
  excludeFirstTerm: true,
  excludeZeroPremium: true,
};

const columns = {
  forecastObjectId: forecastPreferences.forecastObjectId,
  window: forecastPreferences.window,
  thresholdPct: forecastPreferences.thresholdPct,
  thresholdAmount: forecastPreferences.thresholdAmount,
  actDaysBeforeExpiration: forecastPreferences.actDaysBeforeExpiration,
  excludeFirstTerm: forecastPreferences.excludeFirstTerm,
  excludeZeroPremium: forecastPreferences.excludeZeroPremium,
};

/** Every saved preference of the tenant ('all' first when saved). */
export async function listForecastPreferences(ctx: Pick<TenantContext, "db" | "tenantId">): Promise<ForecastPreference[]> {
  return ctx.db
    .select(columns)
    .from(forecastPreferences)
    .where(eq(forecastPreferences.tenantId, ctx.tenantId))
    .orderBy(asc(forecastPreferences.forecastObjectId));
}

/** The preference for one forecast object, falling back to 'all', then to the defaults. */
export async function getForecastPreference(
  ctx: Pick<TenantContext, "db" | "tenantId">,
  forecastObjectId = ALL_LINES,
): Promise<ForecastPreference> {
  const rows = await ctx.db
    .select(columns)
    .from(forecastPreferences)
    .where(and(eq(forecastPreferences.tenantId, ctx.tenantId)));
  return (
    rows.find((r) => r.forecastObjectId === forecastObjectId) ??
    rows.find((r) => r.forecastObjectId === ALL_LINES) ?? { ...DEFAULT_PREFERENCE, forecastObjectId }
  );
}

/** Create or replace the preference of one forecast object. */
export async function saveForecastPreference(ctx: TenantContext, pref: ForecastPreference) {
  const values = { ...pref, tenantId: ctx.tenantId, updatedAt: clock(ctx) };
  await ctx.db
    .insert(forecastPreferences)
    .values(values)
    .onConflictDoUpdate({ target: [forecastPreferences.tenantId, forecastPreferences.forecastObjectId], set: values });
}
