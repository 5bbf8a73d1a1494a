import { asc, eq } from "drizzle-orm";
import { forecastPreferences } from "~/db/schema";
import { contextMemo } from "../platform/context-memo.server";
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

// The forecast page reads the preferences three ways (the 'all' one, the list, the what-if's): one statement per request.
const saved = contextMemo<ForecastPreference[]>();

/** Every saved preference of the tenant ('all' first when saved). */
export async function listForecastPreferences(ctx: Pick<TenantContext, "db" | "tenantId">): Promise<ForecastPreference[]> {
  const rows = await saved.read(ctx, () =>
    ctx.db
      .select(columns)
      .from(forecastPreferences)
      .where(eq(forecastPreferences.tenantId, ctx.tenantId))
      .orderBy(asc(forecastPreferences.forecastObjectId)),
  );
  return rows.map((r) => ({ ...r }));
}

/** The preference for one forecast object, falling back to 'all', then to the defaults. */
export async function getForecastPreference(
  ctx: Pick<TenantContext, "db" | "tenantId">,
  forecastObjectId = ALL_LINES,
): Promise<ForecastPreference> {
  const rows = await listForecastPreferences(ctx);
  return (
    rows.find((r) => r.forecastObjectId === forecastObjectId) ??
    rows.find((r) => r.forecastObjectId === ALL_LINES) ?? { ...DEFAULT_PREFERENCE, forecastObjectId }
  );
}

/** Create or replace the preference of one forecast object. */
export async function saveForecastPreference(ctx: TenantContext, pref: ForecastPreference) {
  saved.forget(ctx);
  const values = { ...pref, tenantId: ctx.tenantId, updatedAt: clock(ctx) };
  await ctx.db
    .insert(forecastPreferences)
    .values(values)
    .onConflictDoUpdate({ target: [forecastPreferences.tenantId, forecastPreferences.forecastObjectId], set: values });
}
