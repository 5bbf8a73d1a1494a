import Stripe from "stripe";
import type { SubscriptionStatus } from "~/db/schema";
import { getEnv } from "~/env.server";
import type { PaymentMethodSnapshot, SubscriptionSnapshot } from "./billing-account.server";
import { getPlan, planForStripePrice, stripePriceFor, type Plan } from "./plans.server";

// The provider calls, through the official SDK. Nothing here touches the database: the
// billing service turns what Stripe answers into snapshots and applies them like the local mode.

let cached: { key: string; client: Stripe } | undefined;

/** The Stripe client when STRIPE_SECRET_KEY is set, else null (billing runs locally). */
export function getStripe(): Stripe | null {
  const env = getEnv();
  const key = env.STRIPE_SECRET_KEY?.trim();
  if (!key) return null;
  if (cached?.key !== key) {
    cached = {
      key,
      client: new Stripe(key, {
        maxNetworkRetries: 2,
        timeout: 20_000,
        // Tests point the SDK at a stand-in server (tests/support/stripe-stand-in.ts).
        ...(env.STRIPE_API_HOST ? { host: env.STRIPE_API_HOST } : {}),
        ...(env.STRIPE_API_PORT ? { port: env.STRIPE_API_PORT } : {}),
        ...(env.STRIPE_API_PROTOCOL ? { protocol: env.STRIPE_API_PROTOCOL } : {}),
      }),
    };
  }
  return cached.client;
}

export type BillingMode = "stripe" | "local";

export function billingMode(): BillingMode {
  return getStripe() ? "stripe" : "local";
}

/** Test hook: forget the client after changing the environment. */
export function resetStripeForTests() {
  cached = undefined;
}

/** Seed get-payment-customer-id: the Stripe customer with this e-mail that belongs to the tenant. */
export async function findCustomerIdByEmail(stripe: Stripe, email: string, tenantId: string) {
  const found = await stripe.customers.list({ email, limit: 10 });
  return found.data.find((c) => c.metadata?.tenantId === tenantId)?.id ?? null;
}

/** Seed create-stripe-customer. */
export async function createCustomer(stripe: Stripe, input: { email: string; name: string; tenantId: string }) {
  const customer = await stripe.customers.create(
    { email: input.email, name: input.name, metadata: { tenantId: input.tenantId } },
    { idempotencyKey: `customer-${input.tenantId}` },
  );
  return customer.id;
}

function lineItemFor(plan: Plan) {
  const price = stripePriceFor(plan.id);
  if (price) return { price, quantity: 1 };
  return {
    quantity: 1,
    price_data: {
      currency: "usd",
      unit_amount: plan.monthlyPriceCents,
      recurring: { interval: "month" as const },
      product_data: { name: `Remarket ${plan.name}` },
    },
  };
}

/** A Checkout session that starts a subscription to `plan`; returns its URL. */
export async function createSubscriptionCheckout(
  stripe: Stripe,
  input: { customerId: string; tenantId: string; plan: Plan; successUrl: string; cancelUrl: string },
) {
  const session = await stripe.checkout.sessions.create({
    mode: "subscription",
    customer: input.customerId,
    client_reference_id: input.tenantId,
    line_items: [lineItemFor(input.plan)],
    metadata: { tenantId: input.tenantId, plan: input.plan.id },
    subscription_data: { metadata: { tenantId: input.tenantId, plan: input.plan.id } },
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
  });
  if (!session.url) throw new Error("Stripe returned a Checkout session without a URL");
  return session.url;
}

/** A Checkout session in setup mode: the customer adds a card; returns its URL. */
export async function createSetupCheckout(
  stripe: Stripe,
  input: { customerId: string; tenantId: string; successUrl: string; cancelUrl: string },
) {
  const session = await stripe.checkout.sessions.create({
    mode: "setup",
    currency: "usd",
    customer: input.customerId,
    client_reference_id: input.tenantId,
    metadata: { tenantId: input.tenantId },
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
  });
  if (!session.url) throw new Error("Stripe returned a Checkout session without a URL");
  return session.url;
}

/** Seed billing-portal-session with customer_id; returns the portal URL. */
export async function createPortalSession(stripe: Stripe, input: { customerId: string; returnUrl: string }) {
  const session = await stripe.billingPortal.sessions.create({ customer: input.customerId, return_url: input.returnUrl });
  return session.url;
}

/** Move a live subscription to another plan (needs that plan's STRIPE_PRICE_* id). */
export async function switchSubscriptionPlan(stripe: Stripe, input: { subscriptionId: string; tenantId: string; plan: Plan }) {
  const price = stripePriceFor(input.plan.id);
  if (!price) return null;
  const current = await stripe.subscriptions.retrieve(input.subscriptionId);
  const item = current.items.data[0];
  const updated = await stripe.subscriptions.update(input.subscriptionId, {
    items: [{ id: item?.id, price }],
    metadata: { tenantId: input.tenantId, plan: input.plan.id },
    proration_behavior: "create_prorations",
  });
  return snapshotOfSubscription(updated);
}

const STATUS: Record<string, SubscriptionStatus> = {
  trialing: "trialing",
  active: "active",
  past_due: "past_due",
  // The first payment has not gone through yet: treated like a failed renewal (grace applies).
  incomplete: "past_due",
  incomplete_expired: "canceled",
  canceled: "canceled",
  unpaid: "unpaid",
  paused: "unpaid",
};

const fromUnix = (s: number | null | undefined) => (s ? new Date(s * 1000) : null);

/** Stripe's subscription object as the snapshot both modes apply. */
export function snapshotOfSubscription(sub: Stripe.Subscription): SubscriptionSnapshot {
  const item = sub.items?.data?.[0];
  const plan = getPlan(sub.metadata?.plan)?.id ?? planForStripePrice(item?.price?.id) ?? null;
  return {
    id: sub.id,
    status: STATUS[sub.status] ?? "unpaid",
    plan,
    currentPeriodEnd: fromUnix(item?.current_period_end),
    trialEnd: fromUnix(sub.trial_end),
  };
}

/** Stripe's card payment method as a snapshot (brand, last 4, expiry). */
export function snapshotOfPaymentMethod(pm: Stripe.PaymentMethod): PaymentMethodSnapshot {
  return {
    providerId: pm.id,
    brand: pm.card?.brand ?? pm.type,
    last4: pm.card?.last4 ?? "",
    expMonth: pm.card?.exp_month ?? null,
    expYear: pm.card?.exp_year ?? null,
  };
}

/** The id behind an expandable Stripe field. */
export function idOf(value: string | { id: string } | null | undefined) {
  if (!value) return null;
  return typeof value === "string" ? value : value.id;
}
