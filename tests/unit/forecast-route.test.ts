import { describe, expect, test } from "vitest";
import * as forecastRoute from "~/routes/_app.forecast";
import { listForecastPreferences } from "~/services/renewals/forecast-preferences.server";
import { recomputeForecast } from "~/services/renewals/forecast.server";
import { createCustomer, createPolicy } from "../support/book-factories";
import { createTestTenant, makeRequest, sessionCookieFor } from "../support/factories";

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

describe("/forecast what-if per forecast object", () => {
  test("the GET form picks the object; its result counts that line; saving stores that object's preference", async () => {
    const { db, tenant, user } = await createTestTenant();
    for (const line of ["HOME", "HOME", "PAUTO"] as const) {
      const c = await createCustomer(db, tenant.id);
      await createPolicy(db, tenant.id, {
        customerId: c.id,
        lineOfBusiness: line,
        expirationDate: inDays(100),
        premium: 1000,
        renewalPremium: 1200,
      });
    }
    await recomputeForecast({ db, tenantId: tenant.id });
    const cookie = await sessionCookieFor(user);
    const whatIf = (object: string) =>
      forecastRoute.loader({
        request: makeRequest(
          `/forecast?whatif=1&forecastObjectId=${object}&window=12+months&thresholdPct=5&thresholdAmount=&actDaysBeforeExpiration=120`,
          { cookie },
        ),
        params: {},
        context: {},
      });
    const home = await whatIf("HOME");
    expect(home.whatIfObject).toBe("HOME");
    expect(home.whatIf).toMatchObject({
      input: { forecastObjectId: "HOME", thresholdPct: 5 },
      result: { forecastObjectId: "HOME", policies: 2 },
    });
    expect((await whatIf("PAUTO")).whatIf?.result).toMatchObject({ policies: 1 });
    expect((await whatIf("all")).whatIf?.result).toMatchObject({ policies: 3 });
    // An unknown object is 'all lines', not an error.
    expect((await whatIf("NOPE")).whatIf?.input.forecastObjectId).toBe("all");

    // "Save as preferences" posts the object with the settings.
    const response = await forecastRoute.action({
      request: makeRequest("/forecast", {
        cookie,
        form: {
          intent: "save",
          forecastObjectId: "HOME",
          window: "12 months",
          thresholdPct: "5",
          thresholdAmount: "",
          actDaysBeforeExpiration: "120",
          excludeFirstTerm: "on",
          excludeZeroPremium: "on",
        },
      }),
      params: {},
      context: {},
    });
    expect(response instanceof Response ? response.status : 200).toBe(302);
    const saved = await listForecastPreferences({ db, tenantId: tenant.id });
    expect(saved).toEqual([expect.objectContaining({ forecastObjectId: "HOME", thresholdPct: 5, actDaysBeforeExpiration: 120 })]);
    // The form now starts from HOME's own preference.
    const after = await forecastRoute.loader({
      request: makeRequest("/forecast?forecastObjectId=HOME", { cookie }),
      params: {},
      context: {},
    });
    expect(after.objectPreference).toMatchObject({ forecastObjectId: "HOME", thresholdPct: 5 });
  });
});
