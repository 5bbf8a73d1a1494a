import { describe, expect, test } from "vitest";
import { createTestTenant } from "../../../tests/support/factories";
import {
  ALL_LINES,
  DEFAULT_PREFERENCE,
  getForecastPreference,
  listForecastPreferences,
  saveForecastPreference,
} from "./forecast-preferences.server";

describe("forecast preferences, read once per request context", () => {
  test("a save on the context is seen by its next read; a caller's change to what it got is not", async () => {
    const { ctx } = await createTestTenant();
    expect(await getForecastPreference(ctx, "HOME")).toEqual({ ...DEFAULT_PREFERENCE, forecastObjectId: "HOME" });

    await saveForecastPreference(ctx, { ...DEFAULT_PREFERENCE, thresholdPct: 15 });
    expect((await getForecastPreference(ctx, "HOME")).thresholdPct).toBe(15);
    await saveForecastPreference(ctx, { ...DEFAULT_PREFERENCE, forecastObjectId: "HOME", thresholdPct: 30 });
    expect(Object.fromEntries((await listForecastPreferences(ctx)).map((p) => [p.forecastObjectId, p.thresholdPct]))).toEqual({
      [ALL_LINES]: 15,
      HOME: 30,
    });

    const all = (await listForecastPreferences(ctx)).find((p) => p.forecastObjectId === ALL_LINES)!;
    all.thresholdPct = 99;
    expect((await getForecastPreference(ctx)).thresholdPct).toBe(15);
  });
});
