import { and, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { forecastRuns, remarkets, renewalFlags, renewalForecasts } from "~/db/schema";
import { createTestTenant } from "../../../tests/support/factories";
import { createCustomer, createPolicy } from "../../../tests/support/book-factories";
import { saveForecastPreference, DEFAULT_PREFERENCE, getPredictionMinSample, setPredictionMinSample } from "./forecast-preferences.server";
import { predictRate } from "./forecast-rules.server";
import { getForecastRun, loadRateStats, monthlyTotals, recomputeForecast } from "./forecast.server";
import { forecastSummary, listForecast, simulateFlags } from "./forecast-views.server";

// The tenant's clock: 1 March 2026, noon in New York.
const NOW = new Date("2026-03-01T17:00:00Z");
const TODAY = "2026-03-01";

/** A past renewal: a term that started in the last year, with the premium before and after. */
async function history(
  db: Awaited<ReturnType<typeof createTestTenant>>["db"],
  tenantId: string,
  customerId: string,
  carrier: string,
  line: "HOME" | "PAUTO" | "BOP",
  state: string,
  ratePct: number,
  effectiveDate = "2025-09-01",
) {
  await createPolicy(db, tenantId, {
    customerId,
    carrierName: carrier,
    lineOfBusiness: line,
    riskState: state,
    status: "renewed",
    effectiveDate,
    expirationDate: "2026-09-01",
    priorPremium: 1000,
    premium: 1000 + ratePct * 10,
  });
}

describe("prediction fall-back chain with known answers", () => {
  test("carrier × line × state → carrier × line → line → tenant, medians of recent renewals", async () => {
    const { db, tenant, ctx } = await createTestTenant();
    const c = await createCustomer(db, tenant.id);
    // Travelers HOME TX: 10, 12, 14 % → 12 % on 3 renewals.
    for (const r of [10, 12, 14]) await history(db, tenant.id, c.id, "Travelers", "HOME", "TX", r);
    // Travelers HOME OK: one renewal (20 %) → too few; Travelers HOME overall: 10, 12, 14, 20 → 13 %.
    await history(db, tenant.id, c.id, "Travelers", "HOME", "OK", 20);
    // Safeco HOME TX: 2, 4 % → too few at both carrier levels; HOME overall: 2, 4, 10, 12, 14, 20 → 11 %.
    for (const r of [2, 4]) await history(db, tenant.id, c.id, "Safeco", "HOME", "TX", r);
    // One BOP renewal (30 %); the tenant: 2, 4, 10, 12, 14, 20, 30 → 12 %.
    await history(db, tenant.id, c.id, "Hartford", "BOP", "TX", 30);
    // Ignored: older than a year, and a 3× "renewal" (a data error).
    await history(db, tenant.id, c.id, "Travelers", "HOME", "TX", 50, "2024-12-01");
    await history(db, tenant.id, c.id, "Travelers", "HOME", "TX", 200);

    const stats = await loadRateStats({ db, tenantId: tenant.id }, TODAY);
    const predict = (carrierName: string, lineOfBusiness: string, riskState: string) =>
      predictRate(stats, { carrierName, lineOfBusiness, riskState }, 3);
    expect(predict("Travelers", "HOME", "TX")).toEqual({ level: "carrier_line_state", rate: 0.12, sample: 3 });
    expect(predict("travelers", "HOME", "OK")).toEqual({ level: "carrier_line", rate: 0.13, sample: 4 });
    expect(predict("Safeco", "HOME", "TX")).toEqual({ level: "line", rate: 0.11, sample: 6 });
    expect(predict("Safeco", "PAUTO", "CA")).toEqual({ level: "tenant", rate: 0.12, sample: 7 });

    // Through the computation: an upcoming Safeco HOME renewal without an offer gets +11 %.
    const upcoming = await createPolicy(db, tenant.id, {
      customerId: c.id,
      carrierName: "Safeco",
      lineOfBusiness: "HOME",
      riskState: "TX",
      effectiveDate: "2025-04-01",
      expirationDate: "2026-04-01",
      premium: 2000,
      priorPremium: null,
      renewalPremium: null,
    });
    const travelers = await createPolicy(db, tenant.id, {
      customerId: (await createCustomer(db, tenant.id)).id,
      carrierName: "Travelers",
      lineOfBusiness: "HOME",
      riskState: "TX",
      effectiveDate: "2025-04-01",
      expirationDate: "2026-04-01",
      premium: 2000,
      priorPremium: null,
      renewalPremium: null,
    });
    await recomputeForecast({ db, tenantId: tenant.id, now: () => NOW });
    const forecastOf = async (policyId: string) =>
      (await db.select().from(renewalForecasts).where(eq(renewalForecasts.policyId, policyId)))[0];
    expect(await forecastOf(upcoming.id)).toMatchObject({
      predicted: true,
      predictionLevel: "line",
      predictionSample: 6,
      renewalPremium: 2220,
      changePct: 11,
      flagged: true,
    });
    // The default minimum (5): Travelers' 3 and 4 renewals are too few, the line's 6 are not.
    expect(await getPredictionMinSample(ctx)).toBe(5);
    expect(await forecastOf(travelers.id)).toMatchObject({ predictionLevel: "line", predictionSample: 6 });
    // An agency that accepts 3 renewals gets the narrowest basis.
    await setPredictionMinSample(ctx, 3);
    await recomputeForecast({ db, tenantId: tenant.id, now: () => NOW });
    expect(await forecastOf(travelers.id)).toMatchObject({ predictionLevel: "carrier_line_state", predictionSample: 3, changePct: 12 });
  });

  test("a tenant without history predicts nothing", async () => {
    const { db, tenant } = await createTestTenant();
    const c = await createCustomer(db, tenant.id);
    await history(db, tenant.id, c.id, "Travelers", "HOME", "TX", 10);
    const stats = await loadRateStats({ db, tenantId: tenant.id }, TODAY);
    expect(predictRate(stats, { carrierName: "Travelers", lineOfBusiness: "HOME", riskState: "TX" })).toBeNull();
  });
});

describe("forecast computation", () => {
  test("flags once per customer, stores why, keeps acted-on flags, and the what-if counts without saving", async () => {
    const { db, tenant, ctx } = await createTestTenant();
    const now = () => NOW;
    await saveForecastPreference(
      { ...ctx, now },
      { ...DEFAULT_PREFERENCE, thresholdPct: 10, thresholdAmount: 300, actDaysBeforeExpiration: 90 },
    );
    const ann = await createCustomer(db, tenant.id, { name: "Ann" });
    const bob = await createCustomer(db, tenant.id, { name: "Bob" });
    const cy = await createCustomer(db, tenant.id, { name: "Cy" });
    const annSoon = await createPolicy(db, tenant.id, {
      customerId: ann.id,
      expirationDate: "2026-03-20",
      premium: 1000,
      renewalPremium: 1200,
    });
    const annLater = await createPolicy(db, tenant.id, {
      customerId: ann.id,
      expirationDate: "2026-04-20",
      premium: 1000,
      renewalPremium: 1300,
      lineOfBusiness: "PAUTO",
    });
    const bobAmount = await createPolicy(db, tenant.id, {
      customerId: bob.id,
      expirationDate: "2026-04-01",
      premium: 8000,
      renewalPremium: 8400,
    });
    const bobFirst = await createPolicy(db, tenant.id, {
      customerId: bob.id,
      expirationDate: "2026-03-10",
      premium: 1000,
      renewalPremium: 1500,
      inceptionDate: "2025-03-10",
      effectiveDate: "2025-03-10",
    });
    const cyZero = await createPolicy(db, tenant.id, { customerId: cy.id, expirationDate: "2026-03-15", premium: 0, renewalPremium: 900 });
    const cyFar = await createPolicy(db, tenant.id, {
      customerId: cy.id,
      expirationDate: "2026-10-15",
      premium: 1000,
      renewalPremium: 1500,
    });

    const run = await recomputeForecast({ db, tenantId: tenant.id, now });
    expect(run.flagged).toBe(2);
    const flags = await db.select().from(renewalFlags).where(eq(renewalFlags.tenantId, tenant.id));
    expect(flags.map((f) => f.policyId).sort()).toEqual([annSoon.id, bobAmount.id].sort());
    const bobFlag = flags.find((f) => f.policyId === bobAmount.id)!;
    expect(bobFlag.why).toMatchObject({
      ruleVersion: "renewal-flag/v1",
      thresholdAmount: 300,
      triggered: ["amount"],
      compared: { changeAmount: 400, changePct: 5 },
    });

    const exclusions = Object.fromEntries(
      (await db.select().from(renewalForecasts).where(eq(renewalForecasts.tenantId, tenant.id))).map((r) => [r.policyId, r.exclusion]),
    );
    expect(exclusions).toMatchObject({
      [annLater.id]: "customer_in_worklist",
      [bobFirst.id]: "first_term",
      [cyZero.id]: "no_premium",
      [cyFar.id]: "not_yet",
    });

    // What-if: act 240 days ahead adds Cy's October renewal; nothing is saved.
    const whatIf = await simulateFlags(
      { db, tenantId: tenant.id, now },
      { window: "yr", thresholdPct: 10, thresholdAmount: 300, actDaysBeforeExpiration: 240 },
    );
    expect(whatIf).toMatchObject({ customers: 3, policies: 4, quotaLeft: 25 });
    expect((await db.select().from(renewalFlags).where(eq(renewalFlags.tenantId, tenant.id))).length).toBe(2);

    // Ann is dismissed; re-computing keeps it dismissed and flags her next renewal.
    const annFlag = flags.find((f) => f.policyId === annSoon.id)!;
    await db.update(renewalFlags).set({ status: "dismissed", dismissReason: "Customer asked" }).where(eq(renewalFlags.id, annFlag.id));
    await recomputeForecast({ db, tenantId: tenant.id, now });
    const after = await db
      .select({ policyId: renewalFlags.policyId, status: renewalFlags.status })
      .from(renewalFlags)
      .where(eq(renewalFlags.tenantId, tenant.id));
    expect(after).toHaveLength(3);
    expect(after.find((f) => f.policyId === annSoon.id)?.status).toBe("dismissed");
    expect(after.find((f) => f.policyId === annLater.id)?.status).toBe("open");

    // Bob re-marketed 10 days ago (another policy): his open flag leaves at the next computation.
    await db.insert(remarkets).values({
      tenantId: tenant.id,
      policyId: bobFirst.id,
      customerId: bob.id,
      quotaYear: 2026,
      remarketedAt: new Date("2026-02-19T12:00:00Z"),
      incumbentCarrierName: "Travelers",
    });
    await recomputeForecast({ db, tenantId: tenant.id, now });
    const bobAfter = await db
      .select()
      .from(renewalFlags)
      .where(and(eq(renewalFlags.tenantId, tenant.id), eq(renewalFlags.policyId, bobAmount.id)));
    expect(bobAfter).toHaveLength(0);
    const [bobForecast] = await db.select().from(renewalForecasts).where(eq(renewalForecasts.policyId, bobAmount.id));
    expect(bobForecast.exclusion).toBe("recently_remarketed");
  });
});

describe("what-if per forecast object", () => {
  test("a line's settings count that line only; 'all' leaves lines with their own preference alone", async () => {
    const { db, tenant, ctx } = await createTestTenant();
    const now = () => NOW;
    const scoped = { db, tenantId: tenant.id, now };
    await saveForecastPreference({ ...ctx, now }, { ...DEFAULT_PREFERENCE, thresholdPct: 10, actDaysBeforeExpiration: 90 });
    // Three customers with a +20 % HOME renewal in 30 days, two with a +20 % PAUTO renewal in 120 days.
    for (let i = 0; i < 3; i++) {
      const c = await createCustomer(db, tenant.id, { name: `Home ${i}` });
      await createPolicy(db, tenant.id, {
        customerId: c.id,
        lineOfBusiness: "HOME",
        expirationDate: "2026-03-31",
        premium: 1000,
        renewalPremium: 1200,
      });
    }
    for (let i = 0; i < 2; i++) {
      const c = await createCustomer(db, tenant.id, { name: `Auto ${i}` });
      await createPolicy(db, tenant.id, {
        customerId: c.id,
        lineOfBusiness: "PAUTO",
        expirationDate: "2026-06-29",
        premium: 1000,
        renewalPremium: 1200,
      });
    }
    await recomputeForecast(scoped);
    const wide = { window: "yr" as const, thresholdPct: 10, thresholdAmount: null, actDaysBeforeExpiration: 200 };

    // PAUTO only: its two renewals come within 200 days; HOME is not counted.
    expect(await simulateFlags(scoped, wide, "PAUTO")).toMatchObject({ forecastObjectId: "PAUTO", policies: 2, customers: 2 });
    expect(await simulateFlags(scoped, { ...wide, thresholdPct: 25 }, "PAUTO")).toMatchObject({ policies: 0 });
    expect(await simulateFlags(scoped, wide, "HOME")).toMatchObject({ policies: 3 });
    // All lines, no preference per line: every line takes the settings.
    expect(await simulateFlags(scoped, wide)).toMatchObject({ forecastObjectId: "all", policies: 5, customers: 5 });

    // HOME gets its own preference (25 %): 'all' settings no longer reach HOME's renewals.
    await saveForecastPreference({ ...ctx, now }, { ...DEFAULT_PREFERENCE, forecastObjectId: "HOME", thresholdPct: 25 });
    // Read as the next request does, with a context of its own (a context keeps the preferences it has read).
    const next = { ...scoped };
    expect(await simulateFlags(next, wide)).toMatchObject({ policies: 2 });
    expect(await simulateFlags(next, { ...wide, thresholdPct: 1 }, "HOME")).toMatchObject({ policies: 3 });
    // Another tenant's what-if sees none of this book.
    const other = await createTestTenant();
    expect(await simulateFlags({ db: other.db, tenantId: other.tenant.id, now }, wide, "PAUTO")).toMatchObject({ policies: 0 });
  });
});

describe("monthly totals kept by the computation", () => {
  test("/forecast's summary and page count come from the run, equal to the rows they sum, and follow the next computation", async () => {
    const { db, tenant } = await createTestTenant();
    const ctx = { db, tenantId: tenant.id, now: () => NOW };
    const c = await createCustomer(db, tenant.id);
    for (const [expirationDate, renewalPremium] of [
      ["2026-03-20", 1300],
      ["2026-03-25", 1010],
      ["2026-04-10", 1500],
    ] as const) {
      await createPolicy(db, tenant.id, {
        customerId: c.id,
        lineOfBusiness: "HOME",
        effectiveDate: expirationDate.replace("2026", "2025"),
        expirationDate,
        premium: 1000,
        priorPremium: 950,
        renewalPremium,
      });
    }
    await recomputeForecast(ctx);
    const run = await getForecastRun(ctx);
    expect(run?.monthly).toEqual(await monthlyTotals(db, tenant.id));
    expect(run?.monthly?.map((m) => [m.month, m.renewals])).toEqual([
      ["2026-03", 2],
      ["2026-04", 1],
    ]);
    const summary = await forecastSummary(ctx, "yr");
    expect(summary.find((m) => m.month === "2026-03")).toMatchObject({ renewals: 2, premium: 2000, renewalPremium: 2310 });
    // The window runs to the same day a year on: its last month is partial and says so.
    expect(summary.at(-1)).toMatchObject({ month: "2027-03", part: "to 1 Mar" });
    const flagged = run!.monthly!.reduce((n, m) => n + m.flagged, 0);
    expect(flagged).toBeGreaterThan(0);
    expect((await listForecast(ctx, { page: 1, pageSize: 25, flaggedOnly: false })).total).toBe(3);
    expect((await listForecast(ctx, { page: 1, pageSize: 25, flaggedOnly: true })).total).toBe(flagged);

    // The stored totals are the run's: they change with the next computation, not before.
    await createPolicy(db, tenant.id, {
      customerId: c.id,
      lineOfBusiness: "PAUTO",
      effectiveDate: "2025-05-01",
      expirationDate: "2026-05-01",
      premium: 800,
      priorPremium: 780,
      renewalPremium: 820,
    });
    await recomputeForecast(ctx);
    expect((await listForecast(ctx, { page: 1, pageSize: 25, flaggedOnly: false })).total).toBe(4);
    expect((await forecastSummary(ctx, "yr")).find((m) => m.month === "2026-05")?.renewals).toBe(1);
  });

  test("the totals kept while writing equal the old query's sums over the written rows: cents, predictions, gaps, windows", async () => {
    const { db, tenant, ctx: tenantCtx } = await createTestTenant();
    const ctx = { db, tenantId: tenant.id, now: () => NOW };
    // Six months for home, a year for auto: rows of months 7–12 are written but outside home's window.
    await saveForecastPreference(tenantCtx, { ...DEFAULT_PREFERENCE, forecastObjectId: "HOME", window: "6m" });
    await saveForecastPreference(tenantCtx, { ...DEFAULT_PREFERENCE, forecastObjectId: "PAUTO", window: "yr" });
    const customers = [await createCustomer(db, tenant.id), await createCustomer(db, tenant.id), await createCustomer(db, tenant.id)];
    // History enough for predictions (+7.37 % and +3.11 %): renewals without an offer get a predicted figure.
    for (let i = 0; i < 5; i++) {
      await history(db, tenant.id, customers[0].id, "Travelers", "HOME", "TX", 7.37);
      await history(db, tenant.id, customers[0].id, "Safeco", "PAUTO", "TX", 3.11);
    }
    // A deterministic spread of premiums with cents (sums that binary fractions would not keep exact).
    let seed = 7;
    const next = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    for (let i = 0; i < 60; i++) {
      const line = i % 3 === 0 ? "PAUTO" : "HOME";
      const expirationDate = new Date(Date.UTC(2026, 1, 20 + Math.floor(next() * 420))).toISOString().slice(0, 10);
      const premium = i % 17 === 5 ? null : Math.round((100 + next() * 9_000) * 100) / 100;
      const offer = i % 4 === 0 && premium !== null ? Math.round(premium * (1 + next() * 0.5) * 100) / 100 : null;
      await createPolicy(db, tenant.id, {
        customerId: customers[i % 3].id,
        lineOfBusiness: line,
        carrierName: line === "HOME" ? "Travelers" : "Safeco",
        effectiveDate: expirationDate.replace(/^\d{4}/, (y) => String(Number(y) - 1)),
        expirationDate,
        premium,
        priorPremium: premium === null ? null : Math.round((premium / 1.05) * 100) / 100,
        renewalPremium: offer,
      });
    }
    await recomputeForecast(ctx);
    const run = await getForecastRun(ctx);
    const summed = await monthlyTotals(db, tenant.id);
    expect(run?.monthly).toEqual(summed);
    // The data covers what the comparison must: several months, predicted and offered figures,
    // rows outside a window, flags, and premiums with cents.
    expect(summed.length).toBeGreaterThan(6);
    expect(summed.reduce((n, m) => n + m.flagged, 0)).toBeGreaterThan(0);
    expect(summed.some((m) => !Number.isInteger(m.premium))).toBe(true);
    const rows = await db.select().from(renewalForecasts).where(eq(renewalForecasts.tenantId, tenant.id));
    expect(rows.some((r) => r.predicted)).toBe(true);
    expect(rows.some((r) => !r.inWindow)).toBe(true);
    expect(rows.some((r) => r.currentPremium === null && r.inWindow)).toBe(true);
  });

  test("a run computed before the totals were kept is summed from its rows", async () => {
    const { db, tenant } = await createTestTenant();
    const ctx = { db, tenantId: tenant.id, now: () => NOW };
    const c = await createCustomer(db, tenant.id);
    await createPolicy(db, tenant.id, {
      customerId: c.id,
      effectiveDate: "2025-03-20",
      expirationDate: "2026-03-20",
      premium: 1000,
      priorPremium: 950,
      renewalPremium: 1300,
    });
    await recomputeForecast(ctx);
    await db.update(forecastRuns).set({ monthly: null }).where(eq(forecastRuns.tenantId, tenant.id));
    expect((await listForecast(ctx, { page: 1, pageSize: 25, flaggedOnly: false })).total).toBe(1);
    expect((await forecastSummary(ctx, "yr")).find((m) => m.month === "2026-03")?.renewals).toBe(1);
  });
});

describe("forecast summary", () => {
  test("a window that starts mid-month marks its first and last months as partial", async () => {
    const { ctx } = await createTestTenant();
    // 15 March, noon in New York: six months run to 15 September.
    const summary = await forecastSummary({ ...ctx, now: () => new Date("2026-03-15T16:00:00Z") }, "6m");
    expect(summary.map((m) => [m.month, m.part])).toEqual([
      ["2026-03", "from 15 Mar"],
      ["2026-04", null],
      ["2026-05", null],
      ["2026-06", null],
      ["2026-07", null],
      ["2026-08", null],
      ["2026-09", "to 15 Sep"],
    ]);
  });
});
