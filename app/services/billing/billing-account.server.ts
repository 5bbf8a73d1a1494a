import { and, eq, isNull, lte, sql } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { billingAccounts, billingPaymentMethods, tenants, type SubscriptionStatus } from "~/db/schema";
import { getPlan, trialTerms, type PlanId } from "./plans.server";

// The tenant's billing row: created with the tenant (its trial starts then), read by
// entitlements, quota and the billing page, written by local plan changes and Stripe webhooks
// through the same functions. This module must not import tenants.server.ts (it registers us).

const DAY_MS = 86_400_000;

/** Tenant-created hook: the trial starts now, with the trial's length from the environment. */
export async function startTrial(db: DbOrTx, tenantId: string, now: Date) {
  const { days } = trialTerms();
  await db
    .insert(billingAccounts)
    .values({ tenantId, trialEndsAt: new Date(now.getTime() + days * DAY_MS), createdAt: now, updatedAt: now })
    .onConflictDoNothing();
}

export type SubscriptionState = {
  id: string;
  status: SubscriptionStatus;
  plan: PlanId | null;
  currentPeriodEnd: Date | null;
  trialEnd: Date | null;
  pastDueSince: Date | null;
};

export type BillingState = {
  tenantId: string;
  timeZone: string;
  trialEndsAt: Date;
  trialPeriodOver: boolean;
  hasPaymentMethod: boolean;
  annualQuotaOverride: number | null;
  stripeCustomerId: string | null;
  subscription: SubscriptionState | null;
  subscriptionSyncedAt: Date | null;
};

/**
 * The tenant's billing state, or null for an unknown tenant. A tenant that predates billing gets
 * its row now, with a trial counted from the day it was created.
 */
export async function readBillingState(db: DbOrTx, tenantId: string, options: { forUpdate?: boolean } = {}): Promise<BillingState | null> {
  const query = db
    .select({
      account: billingAccounts,
      timeZone: tenants.timeZone,
    })
    .from(billingAccounts)
    .innerJoin(tenants, eq(tenants.id, billingAccounts.tenantId))
    .where(eq(billingAccounts.tenantId, tenantId));
  const [row] = options.forUpdate ? await query.for("update", { of: billingAccounts }) : await query;
  if (!row) {
    const [tenant] = await db.select({ createdAt: tenants.createdAt }).from(tenants).where(eq(tenants.id, tenantId));
    if (!tenant) return null;
    await startTrial(db, tenantId, tenant.createdAt);
    return readBillingState(db, tenantId, options);
  }
  const a = row.account;
  return {
    tenantId: a.tenantId,
    timeZone: row.timeZone,
    trialEndsAt: a.trialEndsAt,
    trialPeriodOver: a.trialPeriodOver,
    hasPaymentMethod: a.hasPaymentMethod,
    annualQuotaOverride: a.annualQuotaOverride,
    stripeCustomerId: a.stripeCustomerId,
    subscription:
      a.subscriptionId && a.subscriptionStatus
        ? {
            id: a.subscriptionId,
            status: a.subscriptionStatus,
            plan: (getPlan(a.plan)?.id ?? null) as PlanId | null,
            currentPeriodEnd: a.currentPeriodEnd,
            trialEnd: a.subscriptionTrialEnd,
            pastDueSince: a.pastDueSince,
          }
        : null,
    subscriptionSyncedAt: a.subscriptionSyncedAt,
  };
}

const LIVE: SubscriptionStatus[] = ["trialing", "active", "past_due"];
export const isLiveStatus = (status: SubscriptionStatus | null | undefined) => !!status && LIVE.includes(status);

/** The plan the tenant is on: its live subscription's plan, else none (the trial). */
export function currentPlan(state: Pick<BillingState, "subscription">) {
  return state.subscription && isLiveStatus(state.subscription.status) ? getPlan(state.subscription.plan) : null;
}

/** Seed annual_quota: a staff override, else the live plan's quota, else the trial's. */
export function effectiveAnnualQuota(state: Pick<BillingState, "subscription" | "annualQuotaOverride">) {
  if (state.annualQuotaOverride !== null) return state.annualQuotaOverride;
  return currentPlan(state)?.annualQuota ?? trialTerms().annualQuota;
}

/** Whether the free trial is still running (seed trial_period_over is its negation). */
export function trialActive(state: Pick<BillingState, "trialEndsAt" | "trialPeriodOver">, now: Date) {
  return !state.trialPeriodOver && now.getTime() < state.trialEndsAt.getTime();
}

export type SubscriptionSnapshot = {
  id: string;
  status: SubscriptionStatus;
  plan: PlanId | null;
  currentPeriodEnd: Date | null;
  trialEnd: Date | null;
};

export type ApplyOutcome = "applied" | "stale" | "ignored";

/**
 * Write a subscription as the provider (Stripe, or the local mode) reports it at `at`. Both
 * modes end here. An older report than the one stored is dropped, and a report that an old
 * subscription ended does not cancel a newer live one.
 */
export async function applySubscriptionSnapshot(tx: DbOrTx, tenantId: string, snap: SubscriptionSnapshot, at: Date): Promise<ApplyOutcome> {
  const state = await readBillingState(tx, tenantId, { forUpdate: true });
  if (!state) return "ignored";
  if (state.subscriptionSyncedAt && at.getTime() < state.subscriptionSyncedAt.getTime()) return "stale";
  const current = state.subscription;
  if (current && current.id !== snap.id && isLiveStatus(current.status) && !isLiveStatus(snap.status)) return "ignored";
  const stillPastDue = snap.status === "past_due" && current?.id === snap.id && current.status === "past_due";
  await tx
    .update(billingAccounts)
    .set({
      subscriptionId: snap.id,
      subscriptionStatus: snap.status,
      plan: snap.plan ?? (current?.id === snap.id ? current.plan : null),
      currentPeriodEnd: snap.currentPeriodEnd,
      subscriptionTrialEnd: snap.trialEnd,
      pastDueSince: snap.status === "past_due" ? (stillPastDue ? current.pastDueSince : at) : null,
      // Subscribing ends the free trial (seed trial_period_over).
      trialPeriodOver: true,
      subscriptionSyncedAt: at,
      updatedAt: new Date(),
    })
    .where(eq(billingAccounts.tenantId, tenantId));
  return "applied";
}

/** Mark the live subscription past due (a failed invoice) or paid again, if no newer state is stored. */
export async function applyInvoiceOutcome(
  tx: DbOrTx,
  tenantId: string,
  outcome: "paid" | "failed",
  subscriptionId: string | null,
  at: Date,
): Promise<ApplyOutcome> {
  const state = await readBillingState(tx, tenantId, { forUpdate: true });
  const sub = state?.subscription;
  if (!state || !sub || (subscriptionId && sub.id !== subscriptionId)) return "ignored";
  if (state.subscriptionSyncedAt && at.getTime() < state.subscriptionSyncedAt.getTime()) return "stale";
  const status: SubscriptionStatus =
    outcome === "failed" ? "past_due" : sub.status === "past_due" || sub.status === "unpaid" ? "active" : sub.status;
  await tx
    .update(billingAccounts)
    .set({
      subscriptionStatus: status,
      pastDueSince: status === "past_due" ? (sub.pastDueSince ?? at) : null,
      subscriptionSyncedAt: at,
      updatedAt: new Date(),
    })
    .where(eq(billingAccounts.tenantId, tenantId));
  return "applied";
}

export type PaymentMethodSnapshot = {
  providerId: string;
  brand: string;
  last4: string;
  expMonth: number | null;
  expYear: number | null;
};

/**
 * Record a card attached to (or detached from) the tenant as of `at`, in one statement that
 * never lets an older report overwrite a newer one; then refresh has_payment_method.
 */
export async function applyPaymentMethod(
  tx: DbOrTx,
  tenantId: string,
  pm: PaymentMethodSnapshot,
  attached: boolean,
  at: Date,
): Promise<ApplyOutcome> {
  const values = { ...pm, detachedAt: attached ? null : at, syncedAt: at };
  const written = await tx
    .insert(billingPaymentMethods)
    .values({ tenantId, ...values })
    .onConflictDoUpdate({
      target: billingPaymentMethods.providerId,
      set: values,
      setWhere: and(eq(billingPaymentMethods.tenantId, tenantId), lte(billingPaymentMethods.syncedAt, at)),
    })
    .returning({ id: billingPaymentMethods.id });
  await refreshPaymentMethodFlag(tx, tenantId);
  return written.length > 0 ? "applied" : "stale";
}

async function refreshPaymentMethodFlag(tx: DbOrTx, tenantId: string) {
  const live = tx
    .select({ one: sql`1` })
    .from(billingPaymentMethods)
    .where(and(eq(billingPaymentMethods.tenantId, tenantId), isNull(billingPaymentMethods.detachedAt)));
  await tx
    .update(billingAccounts)
    .set({ hasPaymentMethod: sql`exists (${live})`, updatedAt: new Date() })
    .where(eq(billingAccounts.tenantId, tenantId));
}

/** The tenant's attached cards (seed payment methods list), newest first. */
export async function listPaymentMethods(db: DbOrTx, tenantId: string) {
  return db
    .select({
      id: billingPaymentMethods.id,
      brand: billingPaymentMethods.brand,
      last4: billingPaymentMethods.last4,
      expMonth: billingPaymentMethods.expMonth,
      expYear: billingPaymentMethods.expYear,
    })
    .from(billingPaymentMethods)
    .where(and(eq(billingPaymentMethods.tenantId, tenantId), isNull(billingPaymentMethods.detachedAt)))
    .orderBy(sql`${billingPaymentMethods.syncedAt} desc`);
}
