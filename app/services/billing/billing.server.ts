import { and, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { billingAccounts, users } from "~/db/schema";
import { getEnv } from "~/env.server";
import { PAYMENTS_NOT_CONFIGURED, PORTAL_NOT_AVAILABLE } from "~/utils/billing-copy";
import { formatLocalDay } from "~/utils/time-zone";
import { recordAudit } from "../platform/audit.server";
import {
  applySubscriptionSnapshot,
  currentPlan,
  isLiveStatus,
  listPaymentMethods,
  readBillingState,
  trialActive,
  type BillingState,
  type SubscriptionSnapshot,
} from "./billing-account.server";
import { clock, type TenantContext } from "../platform/context.server";
import { derivePaid, graceStatus } from "./entitlements.server";
import { NotFoundError, ServiceError } from "../platform/errors.server";
import { getPlan, PLANS, trialTerms, type PlanId } from "./plans.server";
import {
  billingMode,
  createCustomer,
  createPortalSession,
  createSetupCheckout,
  createSubscriptionCheckout,
  findCustomerIdByEmail,
  getStripe,
  switchSubscriptionPlan,
} from "./stripe.server";

const DAY_MS = 86_400_000;

export { PAYMENTS_NOT_CONFIGURED, PORTAL_NOT_AVAILABLE };

const STATUS_LABELS = {
  trialing: "Trial",
  active: "Active",
  past_due: "Past due",
  canceled: "Canceled",
  unpaid: "Unpaid",
  trial_ended: "Trial ended",
} as const;

async function requireState(db: DbOrTx, tenantId: string) {
  const state = await readBillingState(db, tenantId);
  if (!state) throw new NotFoundError("No billing account for this agency.");
  return state;
}

function requireBillingAdmin(ctx: TenantContext) {
  if (ctx.role !== "admin") throw new ServiceError("Only agency admins can manage billing.", 403);
}

/** Everything the subscription card shows (seed §3 billing state, seed grace-period-status). */
export async function getBillingOverview(ctx: TenantContext) {
  const now = clock(ctx);
  const state = await requireState(ctx.db, ctx.tenantId);
  const env = getEnv();
  const sub = state.subscription;
  const live = sub && isLiveStatus(sub.status) ? sub : null;
  const inTrial = trialActive(state, now);
  const status: keyof typeof STATUS_LABELS = sub ? (inTrial && !live ? "trialing" : sub.status) : inTrial ? "trialing" : "trial_ended";
  const plan = currentPlan(state);
  const grace = graceStatus(state, now, env.GRACE_PERIOD_DAYS);
  const paid = derivePaid(state, now, env.GRACE_PERIOD_DAYS);
  const paymentMethods = await listPaymentMethods(ctx.db, ctx.tenantId);
  const day = (d: Date) => formatLocalDay(d, state.timeZone);
  return {
    mode: billingMode(),
    plan: plan ? { id: plan.id, name: plan.name } : null,
    planName: plan?.name ?? (live ? "Subscription" : trialTerms().name),
    status,
    statusLabel: STATUS_LABELS[status],
    trialEndsOn: day(state.trialEndsAt),
    trialDaysLeft: inTrial && !live ? Math.max(0, Math.ceil((state.trialEndsAt.getTime() - now.getTime()) / DAY_MS)) : null,
    trialPeriodOver: !inTrial,
    renewsOn: live?.currentPeriodEnd ? day(nextRenewal(live.currentPeriodEnd, now)) : null,
    hasPaymentMethod: state.hasPaymentMethod,
    paymentMethods,
    grace: grace.status === "none" ? null : { status: grace.status, endsOn: day(grace.endsAt), daysLeft: grace.daysLeft },
    paid: paid.paid,
    unpaidReason: paid.reason ?? null,
    hasCustomer: !!state.stripeCustomerId,
    plans: PLANS.map((p) => ({ id: p.id, name: p.name, annualQuota: p.annualQuota, monthlyPriceCents: p.monthlyPriceCents })),
    trial: trialTerms(),
  };
}

// The local mode has nobody renewing the period: it rolls forward month by month on reading.
function nextRenewal(periodEnd: Date, now: Date) {
  const next = new Date(periodEnd);
  while (next.getTime() < now.getTime()) next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
}

const seconds = (d: Date) => new Date(Math.floor(d.getTime() / 1000) * 1000);

export type BillingActionResult = { kind: "applied"; message: string } | { kind: "redirect"; url: string };

function billingUrls() {
  const base = getEnv().appUrl;
  return { successUrl: `${base}/billing?checkout=success`, cancelUrl: `${base}/billing?checkout=canceled`, returnUrl: `${base}/billing` };
}

/** Apply a subscription snapshot for an admin's action and audit it (the shared tail of both modes). */
async function applyAndAudit(ctx: TenantContext, snap: SubscriptionSnapshot, previous: BillingState, now: Date) {
  await ctx.db.transaction(async (tx) => {
    await applySubscriptionSnapshot(tx, ctx.tenantId, snap, seconds(now));
    await recordAudit(
      tx,
      {
        tenantId: ctx.tenantId,
        actorUserId: ctx.userId,
        action: "billing.plan_changed",
        subjectType: "billing",
        subjectId: ctx.tenantId,
        details: { from: previous.subscription?.plan ?? "trial", to: snap.plan, mode: billingMode() },
      },
      now,
    );
  });
}

/**
 * Start a subscription to `planId`, or move the live one to it. Stripe: Checkout for a new
 * subscription, the SDK for a switch; local: the subscription is active at once.
 */
export async function changePlan(ctx: TenantContext, planId: PlanId): Promise<BillingActionResult> {
  requireBillingAdmin(ctx);
  const plan = getPlan(planId);
  if (!plan) throw new ServiceError("Choose a plan.", 400, "plan");
  const now = clock(ctx);
  const state = await requireState(ctx.db, ctx.tenantId);
  const live = state.subscription && isLiveStatus(state.subscription.status) ? state.subscription : null;
  if (live?.plan === plan.id) throw new ServiceError(`You are already on the ${plan.name} plan.`, 409, "plan");
  const stripe = getStripe();
  if (!stripe) {
    const periodEnd = new Date(now);
    periodEnd.setUTCMonth(periodEnd.getUTCMonth() + 1);
    const snap: SubscriptionSnapshot = {
      id: `local_${ctx.tenantId}`,
      status: "active",
      plan: plan.id,
      currentPeriodEnd: periodEnd,
      trialEnd: null,
    };
    await applyAndAudit(ctx, snap, state, now);
    return { kind: "applied", message: `You are now on the ${plan.name} plan.` };
  }
  if (live && !live.id.startsWith("local_")) {
    const snap = await switchSubscriptionPlan(stripe, { subscriptionId: live.id, tenantId: ctx.tenantId, plan });
    if (!snap) throw new ServiceError("To change plans, use Manage billing (the Stripe billing portal).", 409, "plan");
    await applyAndAudit(ctx, snap, state, now);
    return { kind: "applied", message: `You are now on the ${plan.name} plan.` };
  }
  const customerId = await ensureStripeCustomer(ctx);
  const url = await createSubscriptionCheckout(stripe, { customerId, tenantId: ctx.tenantId, plan, ...billingUrls() });
  return { kind: "redirect", url };
}

/** "Add payment method": Stripe Checkout in setup mode; not available locally. */
export async function startAddPaymentMethod(ctx: TenantContext): Promise<BillingActionResult> {
  requireBillingAdmin(ctx);
  const stripe = getStripe();
  if (!stripe) throw new ServiceError(`${PAYMENTS_NOT_CONFIGURED} There is no payment method to add.`, 409);
  const customerId = await ensureStripeCustomer(ctx);
  return { kind: "redirect", url: await createSetupCheckout(stripe, { customerId, tenantId: ctx.tenantId, ...billingUrls() }) };
}

/**
 * "Manage billing": a Stripe billing portal session (seed billing-portal-session with
 * customer_id). A customer id that is not this tenant's is answered as not found.
 */
export async function openBillingPortal(ctx: TenantContext, customerId?: string | null): Promise<BillingActionResult> {
  requireBillingAdmin(ctx);
  const stripe = getStripe();
  if (!stripe) throw new ServiceError(PORTAL_NOT_AVAILABLE, 409);
  const state = await requireState(ctx.db, ctx.tenantId);
  if (customerId && customerId !== state.stripeCustomerId) throw new NotFoundError("No such billing customer.");
  const customer = state.stripeCustomerId ?? (await ensureStripeCustomer(ctx));
  return { kind: "redirect", url: await createPortalSession(stripe, { customerId: customer, returnUrl: billingUrls().returnUrl }) };
}

/**
 * The tenant's Stripe customer: the stored one, else the one found by the admin's e-mail (seed
 * get-payment-customer-id), else a new one (seed create-stripe-customer).
 */
export async function ensureStripeCustomer(ctx: TenantContext) {
  const stripe = getStripe();
  if (!stripe) throw new ServiceError(PAYMENTS_NOT_CONFIGURED, 409);
  const state = await requireState(ctx.db, ctx.tenantId);
  if (state.stripeCustomerId) return state.stripeCustomerId;
  const [user] = await ctx.db
    .select({ email: users.email, name: users.name })
    .from(users)
    .where(and(eq(users.id, ctx.userId), eq(users.tenantId, ctx.tenantId)));
  if (!user) throw new NotFoundError();
  const customerId =
    (await findCustomerIdByEmail(stripe, user.email, ctx.tenantId)) ??
    (await createCustomer(stripe, { email: user.email, name: user.name, tenantId: ctx.tenantId }));
  await ctx.db
    .update(billingAccounts)
    .set({ stripeCustomerId: customerId, updatedAt: new Date() })
    .where(and(eq(billingAccounts.tenantId, ctx.tenantId), isNull(billingAccounts.stripeCustomerId)));
  return (await requireState(ctx.db, ctx.tenantId)).stripeCustomerId ?? customerId;
}

/** Seed get-payment-customer-id for the API: the tenant's customer id when the e-mail is one of its users'. */
export async function getPaymentCustomerId(ctx: TenantContext, email: string) {
  const [member] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, ctx.tenantId), sql`lower(${users.email}) = ${email.trim().toLowerCase()}`));
  if (!member) throw new NotFoundError("No such billing customer.");
  const state = await requireState(ctx.db, ctx.tenantId);
  if (state.stripeCustomerId) return state.stripeCustomerId;
  const stripe = getStripe();
  if (!stripe) throw new NotFoundError("No such billing customer.");
  const found = await findCustomerIdByEmail(stripe, email, ctx.tenantId);
  if (!found) throw new NotFoundError("No such billing customer.");
  return found;
}

/** Seed grace-period-status. */
export async function getGracePeriodStatus(ctx: TenantContext) {
  const now = clock(ctx);
  const state = await requireState(ctx.db, ctx.tenantId);
  const grace = graceStatus(state, now, getEnv().GRACE_PERIOD_DAYS);
  return grace.status === "none"
    ? { status: "none" as const, graceDays: getEnv().GRACE_PERIOD_DAYS }
    : { status: grace.status, graceDays: getEnv().GRACE_PERIOD_DAYS, endsAt: grace.endsAt.toISOString(), daysLeft: grace.daysLeft };
}
