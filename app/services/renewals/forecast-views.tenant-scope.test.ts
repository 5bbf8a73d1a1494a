import { beforeAll, describe, test } from "vitest";
import { seedFlaggedBook, type ScopedBook } from "../../../tests/support/book-factories";
import { expectTenantScoped, ids, sorted, twoTenants, type TenantPair } from "../../../tests/support/tenant-scope";
import { DEFAULT_PREFERENCE, listForecastPreferences, saveForecastPreference } from "./forecast-preferences.server";
import { forecastForPolicies, forecastSummary, listForecast, simulateFlags } from "./forecast-views.server";
import { getForecastRun } from "./forecast.server";

// The forecast pages (renewals in the window, the month summary, the what-if, the last run and
// the preferences) read only the tenant's own forecast. A: 3 renewals, B: 4; one re-marketed each.
describe("forecast views: tenant scope", () => {
  let pair: TenantPair<ScopedBook>;
  beforeAll(async () => {
    pair = await twoTenants(async (t) => {
      await saveForecastPreference(t.ctx, { ...DEFAULT_PREFERENCE, forecastObjectId: t.index ? "PAUTO" : "DFIRE" });
      return seedFlaggedBook(t.ctx, { tag: t.tag, size: 3 + t.index, remarketed: 1 });
    });
  });

  test("listForecast: every renewal in the window and the flagged ones, with totals", async () => {
    await expectTenantScoped(
      pair,
      async (me) => ({
        all: await listForecast(me.ctx, { page: 1, pageSize: 50, flaggedOnly: false }),
        flagged: await listForecast(me.ctx, { page: 1, pageSize: 50, flaggedOnly: true }),
      }),
      (r) => ({ all: ids(r.all.rows, "policyId"), total: r.all.total, flagged: r.flagged.total }),
      (me) => ({ all: sorted(me.seed.policyIds), total: me.seed.policyIds.length, flagged: me.seed.policyIds.length }),
    );
  });

  test("forecastForPolicies asked for both tenants' policies answers only the tenant's own", async () => {
    await expectTenantScoped(
      pair,
      (me, other) => forecastForPolicies(me.ctx, [...me.seed.policyIds, ...other.seed.policyIds]),
      (r) => [...r.keys()].sort(),
      (me) => sorted(me.seed.policyIds),
    );
  });

  test("forecastSummary: renewals, premium and flags per month", async () => {
    await expectTenantScoped(
      pair,
      (me) => forecastSummary(me.ctx, "yr"),
      (months) => ({
        renewals: months.reduce((n, m) => n + m.renewals, 0),
        premium: months.reduce((n, m) => n + m.premium, 0),
        flagged: months.reduce((n, m) => n + m.flagged, 0),
      }),
      (me) => ({ renewals: me.seed.policyIds.length, premium: 1000 * me.seed.policyIds.length, flagged: me.seed.policyIds.length }),
    );
  });

  test("the what-if counts the tenant's own eligible renewals", async () => {
    await expectTenantScoped(
      pair,
      (me) => simulateFlags(me.ctx, { window: "yr", thresholdPct: 10, thresholdAmount: null, actDaysBeforeExpiration: 60 }),
      (r) => ({ policies: r.policies, customers: r.customers, increase: r.increase, quotaLeft: r.quotaLeft }),
      (me) => ({
        policies: me.seed.openFlagIds.length,
        customers: me.seed.openFlagIds.length,
        increase: 400 * me.seed.openFlagIds.length,
        quotaLeft: 25 - me.seed.remarketIds.length,
      }),
    );
  });

  test("the last computation and the preferences", async () => {
    await expectTenantScoped(
      pair,
      async (me) => ({ run: await getForecastRun(me.ctx), preferences: await listForecastPreferences(me.ctx) }),
      (r) => ({
        evaluated: r.run?.evaluated,
        flagged: r.run?.flagged,
        carriers: r.run?.filterOptions.carriers,
        objects: r.preferences.map((p) => p.forecastObjectId),
      }),
      (me) => ({
        evaluated: me.seed.policyIds.length,
        flagged: me.seed.policyIds.length,
        carriers: [me.seed.carrier],
        objects: [me.index ? "PAUTO" : "DFIRE"],
      }),
    );
  });
});
