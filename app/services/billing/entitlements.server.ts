import type { Db, DbOrTx } from "~/db/client.server";
import { getEnv } from "~/env.server";
import { formatLocalDay } from "~/utils/time-zone";
import { readBillingState, trialActive, type BillingState, type SubscriptionState } from "./billing-account.server";

export type Entitlements = { paid: boolean; reason?: string };

/** Just the billing facts paid/unpaid is derived from (the page shell reads them with the session). */
export type PaidFacts = Pick<BillingState, "trialEndsAt" | "trialPeriodOver" | "timeZone"> & {
  subscription: Pick<SubscriptionState, "status" | "pastDueSince"> | null;
};

const DAY_MS = 86_400_000;

export type GraceStatus = { status: "none" } | { status: "in_grace" | "ended"; pastDueSince: Date; endsAt: Date; daysLeft: number };

/** Seed grace-period-status: a past-due subscription keeps working for GRACE_PERIOD_DAYS. */
export function graceStatus(state: Pick<PaidFacts, "subscription">, now: Date, graceDays: number): GraceStatus {
  const sub = state.subscription;
  if (!sub || sub.status !== "past_due") return { status: "none" };
  const pastDueSince = sub.pastDueSince ?? now;
  const endsAt = new Date(pastDueSince.getTime() + graceDays * DAY_MS);
  const left = endsAt.getTime() - now.getTime();
  return { status: left > 0 ? "in_grace" : "ended", pastDueSince, endsAt, daysLeft: Math.max(0, Math.ceil(left / DAY_MS)) };
}

/**
 * Seed custom:paid, derived from the billing state. Unpaid: the trial is over and there is no
 * live subscription, or a past-due subscription's grace period has ended. Nothing else.
 */
export function derivePaid(state: PaidFacts, now: Date, graceDays: number): Entitlements {
  const sub = state.subscription;
  const day = (d: Date) => formatLocalDay(d, state.timeZone);
  if (sub?.status === "active" || sub?.status === "trialing") return { paid: true };
  if (sub?.status === "past_due") {
    const grace = graceStatus(state, now, graceDays);
    if (grace.status === "in_grace") return { paid: true };
    if (grace.status === "ended")
      return { paid: false, reason: `Your payment is overdue and the grace period ended on ${day(grace.endsAt)}.` };
  }
  if (trialActive(state, now)) return { paid: true };
  if (sub?.status === "canceled") return { paid: false, reason: "Your subscription was canceled." };
  if (sub?.status === "unpaid") return { paid: false, reason: "Your subscription is unpaid." };
  return { paid: false, reason: `Your free trial ended on ${day(state.trialEndsAt)}.` };
}

/** Seed custom:paid for a tenant; every caller (shell banner, quota) reads it through here. */
export async function getEntitlements(db: Db | DbOrTx, tenantId: string, now = new Date()): Promise<Entitlements> {
  const state = await readBillingState(db, tenantId);
  if (!state) return { paid: false, reason: "This agency has no billing account." };
  return derivePaid(state, now, getEnv().GRACE_PERIOD_DAYS);
}
