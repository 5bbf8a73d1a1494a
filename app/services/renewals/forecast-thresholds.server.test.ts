import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { remarkets, renewalFlags, renewalForecasts } from "~/db/schema";
import { createCustomer, createPolicy } from "../../../tests/support/book-factories";
import { createTestTenant } from "../../../tests/support/factories";
import { DEFAULT_PREFERENCE, saveForecastPreference } from "./forecast-preferences.server";
import { FREQUENCY_CAP_DAYS } from "./forecast-rules.server";
import { simulateFlags } from "./forecast-views.server";
import { recomputeForecast } from "./forecast.server";

// Every threshold the forecast applies in SQL (the what-if, and the frequency cap of the stored
// computation) is inclusive exactly where evaluateRenewal's is: a renewal exactly at a threshold
// counts, one a cent, a hundredth of a percent, a day or a minute short of it does not.

// The tenant's clock: 1 March 2026, noon in New York.
const NOW = new Date("2026-03-01T17:00:00Z");
const DAY = 86_400_000;

type Renewal = { expirationDate: string; premium: number; renewalPremium: number };

/** A tenant with one renewal per customer; returns the policy ids in order. */
async function tenantWith(renewals: Renewal[]) {
  const t = await createTestTenant();
  const policyIds: string[] = [];
  const customerIds: string[] = [];
  for (const r of renewals) {
    const customer = await createCustomer(t.db, t.tenant.id);
    policyIds.push((await createPolicy(t.db, t.tenant.id, { customerId: customer.id, ...r })).id);
    customerIds.push(customer.id);
  }
  const ctx = { ...t.ctx, now: () => NOW };
  return { ...t, ctx, policyIds, customerIds };
}

describe("what-if thresholds (SQL) at their exact values", () => {
  // +10.00 % (1,000 → 1,100), +$500 (12,000 → 12,500: 4.2 %), +20 % expiring exactly 60 days out.
  const renewals: Renewal[] = [
    { expirationDate: "2026-03-31", premium: 1000, renewalPremium: 1100 },
    { expirationDate: "2026-03-31", premium: 12_000, renewalPremium: 12_500 },
    { expirationDate: "2026-04-30", premium: 1000, renewalPremium: 1200 },
  ];
  const atThresholds = { window: "yr" as const, thresholdPct: 10, thresholdAmount: 500, actDaysBeforeExpiration: 60 };

  test("each renewal exactly at its threshold counts; a step past each threshold leaves that one out", async () => {
    const t = await tenantWith(renewals);
    await recomputeForecast(t.ctx);
    const count = async (change: Partial<typeof atThresholds>) => (await simulateFlags(t.ctx, { ...atThresholds, ...change })).policies;
    expect(await count({})).toBe(3);
    expect(await count({ thresholdPct: 10.01 })).toBe(2); // the +10 % one
    expect(await count({ thresholdAmount: 500.01 })).toBe(2); // the +$500 one
    expect(await count({ actDaysBeforeExpiration: 59 })).toBe(2); // the one 60 days out
    expect(await count({ thresholdPct: 10.01, thresholdAmount: 500.01, actDaysBeforeExpiration: 59 })).toBe(0);
  });

  test("the last day of the window counts, the day after does not", async () => {
    // Six months from 1 March 2026 is 1 September 2026.
    const t = await tenantWith([
      { expirationDate: "2026-09-01", premium: 1000, renewalPremium: 1200 },
      { expirationDate: "2026-09-02", premium: 1000, renewalPremium: 1200 },
    ]);
    await recomputeForecast(t.ctx);
    const sixMonths = { window: "6m" as const, thresholdPct: 10, thresholdAmount: null, actDaysBeforeExpiration: 365 };
    expect((await simulateFlags(t.ctx, sixMonths)).policies).toBe(1);
    expect((await simulateFlags(t.ctx, { ...sixMonths, window: "yr" })).policies).toBe(2);
  });

  test("the stored computation agrees with the what-if at the same thresholds", async () => {
    const t = await tenantWith(renewals);
    await saveForecastPreference(t.ctx, { ...DEFAULT_PREFERENCE, ...atThresholds });
    await recomputeForecast(t.ctx);
    const flagged = await t.db
      .select({ policyId: renewalFlags.policyId })
      .from(renewalFlags)
      .where(and(eq(renewalFlags.tenantId, t.tenant.id), eq(renewalFlags.status, "open")));
    expect(flagged.map((f) => f.policyId).sort()).toEqual([...t.policyIds].sort());
    expect((await simulateFlags(t.ctx, atThresholds)).policies).toBe(flagged.length);
  });
});

describe("frequency cap (30 days) at its exact value", () => {
  test("a customer re-marketed exactly 30 days ago is flagged again; one re-marketed a minute later waits", async () => {
    const t = await tenantWith([
      { expirationDate: "2026-03-31", premium: 1000, renewalPremium: 1200 },
      { expirationDate: "2026-03-31", premium: 1000, renewalPremium: 1200 },
    ]);
    // An earlier term of each customer was re-marketed: exactly 30 days ago, and 30 days less a minute ago.
    const ago = [FREQUENCY_CAP_DAYS * DAY, FREQUENCY_CAP_DAYS * DAY - 60_000];
    for (const [i, ms] of ago.entries()) {
      const earlier = await createPolicy(t.db, t.tenant.id, {
        customerId: t.customerIds[i],
        status: "renewed",
        effectiveDate: "2024-04-01",
        expirationDate: "2025-03-31",
      });
      await t.db.insert(remarkets).values({
        tenantId: t.tenant.id,
        policyId: earlier.id,
        customerId: t.customerIds[i],
        quotaYear: 2026,
        remarketedAt: new Date(NOW.getTime() - ms),
        incumbentCarrierName: "Travelers",
      });
    }
    await recomputeForecast(t.ctx);
    const forecasts = await t.db
      .select({ policyId: renewalForecasts.policyId, flagged: renewalForecasts.flagged, exclusion: renewalForecasts.exclusion })
      .from(renewalForecasts)
      .where(and(eq(renewalForecasts.tenantId, t.tenant.id), inArray(renewalForecasts.policyId, t.policyIds)));
    const byPolicy = new Map(forecasts.map((f) => [f.policyId, f]));
    expect(byPolicy.get(t.policyIds[0])).toMatchObject({ flagged: true, exclusion: null });
    expect(byPolicy.get(t.policyIds[1])).toMatchObject({ flagged: false, exclusion: "recently_remarketed" });
    expect(
      (await simulateFlags(t.ctx, { window: "yr", thresholdPct: 10, thresholdAmount: null, actDaysBeforeExpiration: 60 })).policies,
    ).toBe(1);
  });
});
