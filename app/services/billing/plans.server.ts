import { getEnv } from "~/env.server";
import { PLANS, type PlanId } from "~/utils/plan-catalogue";

export { getPlan, PLANS, type Plan, type PlanId } from "~/utils/plan-catalogue";

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
