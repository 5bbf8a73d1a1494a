/**
 * The plans, configured in this one place. `annualQuota` is the seed's annual_quota: how many
 * renewals a tenant may re-market per quota year. Prices are per month, in US cents.
 * Shared with the browser (the billing form's schema validates the plan id there too).
 */
export const PLANS = [
  { id: "starter", name: "Starter", annualQuota: 120, monthlyPriceCents: 9_900 },
  { id: "growth", name: "Growth", annualQuota: 600, monthlyPriceCents: 24_900 },
  { id: "agency", name: "Agency", annualQuota: 2_400, monthlyPriceCents: 59_900 },
] as const;

export type PlanId = (typeof PLANS)[number]["id"];
export type Plan = (typeof PLANS)[number];
export const PLAN_IDS = PLANS.map((p) => p.id) as [PlanId, ...PlanId[]];

export function getPlan(id: string | null | undefined): Plan | null {
  return PLANS.find((p) => p.id === id) ?? null;
}
