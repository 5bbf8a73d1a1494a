import { getEnv } from "~/env.server";

/**
 * The plans, configured in this one place. `annualQuota` is the seed's annual_quota: how many
 * renewals a tenant may re-market per quota year. Prices are per month, in US cents.
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

/** The trial every new tenant starts with: its length and its (smaller) quota come from the environment. */
export function trialTerms() {
  const env = getEnv();
  return { name: "Trial", days: env.TRIAL_DAYS, annualQuota: env.TRIAL_ANNUAL_QUOTA };
}

/** A configured Stripe price id for a plan, if any. */
export function stripePriceFor(plan: PlanId) {
  const env = getEnv();
  const byPlan: Record<PlanId, string | undefined> = {
    starter: env.STRIPE_PRICE_STARTER,
    growth: env.STRIPE_PRICE_GROWTH,
    agency: env.STRIPE_PRICE_AGENCY,
  };
  return byPlan[plan] || null;
}

/** The plan a Stripe price id stands for (reverse of stripePriceFor). */
export function planForStripePrice(priceId: string | null | undefined): PlanId | null {
  if (!priceId) return null;
  return PLANS.find((p) => stripePriceFor(p.id) === priceId)?.id ?? null;
}
