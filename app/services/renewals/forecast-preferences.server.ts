import { and, asc, eq } from "drizzle-orm";
import { forecastPreferences } from "~/db/schema";
import { clock, type TenantContext } from "../platform/context.server";
import { contextMemo } from "../platform/context-memo.server";
import { MIN_PREDICTION_SAMPLE } from "./forecast-rules.server";

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

/** The tenant's preferences, read once per request: /forecast and the what-if both need them. */
const saved = contextMemo<ForecastPreference[]>();

/** Every saved preference of the tenant, by forecast object id. */
export async function listForecastPreferences(ctx: Pick<TenantContext, "db" | "tenantId">): Promise<ForecastPreference[]> {
  const rows = await saved.read(ctx, () =>
    ctx.db
      .select(columns)
      .from(forecastPreferences)
      .where(eq(forecastPreferences.tenantId, ctx.tenantId))
      .orderBy(asc(forecastPreferences.forecastObjectId)),
  );
  // Copies: a caller changing one cannot change what the next one reads.
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
  const values = { ...pref, tenantId: ctx.tenantId, updatedAt: clock(ctx) };
  await ctx.db
    .insert(forecastPreferences)
    .values(values)
    .onConflictDoUpdate({ target: [forecastPreferences.tenantId, forecastPreferences.forecastObjectId], set: values });
  saved.forget(ctx);
}

/** The agency's minimum sample for a prediction basis (its 'all' preference), or the default. */
export async function getPredictionMinSample(ctx: Pick<TenantContext, "db" | "tenantId">): Promise<number> {
  const [row] = await ctx.db
    .select({ n: forecastPreferences.minPredictionSample })
    .from(forecastPreferences)
    .where(and(eq(forecastPreferences.tenantId, ctx.tenantId), eq(forecastPreferences.forecastObjectId, ALL_LINES)));
  return row?.n ?? MIN_PREDICTION_SAMPLE;
}

/** Set the agency's minimum sample (null: back to the default); the 'all' preference is created when missing. */
export async function setPredictionMinSample(ctx: TenantContext, minSample: number | null) {
  const now = clock(ctx);
  await ctx.db
    .insert(forecastPreferences)
    .values({ ...DEFAULT_PREFERENCE, tenantId: ctx.tenantId, minPredictionSample: minSample, updatedAt: now })
    .onConflictDoUpdate({
      target: [forecastPreferences.tenantId, forecastPreferences.forecastObjectId],
      set: { minPredictionSample: minSample, updatedAt: now },
    });
}
