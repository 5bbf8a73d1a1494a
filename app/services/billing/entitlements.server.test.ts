import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { billingAccounts } from "~/db/schema";
import { createTestTenant } from "../../../tests/support/factories";
import type { SubscriptionState } from "./billing-account.server";
import { derivePaid, getEntitlements, graceStatus } from "./entitlements.server";

// Opening the per-worker database can take long on a busy machine: pay it in a hook, not a test.
beforeAll(async () => {
  await getDb();
});

const DAY = 86_400_000;
const now = new Date("2026-06-15T12:00:00Z");
const GRACE = 7;

function state(input: { trialEndsAt?: Date; trialPeriodOver?: boolean; subscription?: Partial<SubscriptionState> | null }) {
  return {
    timeZone: "America/Chicago",
    trialEndsAt: input.trialEndsAt ?? new Date(now.getTime() - DAY),
    trialPeriodOver: input.trialPeriodOver ?? false,
    subscription: input.subscription
      ? {
          id: "sub_1",
          status: "active" as const,
          plan: "growth" as const,
          currentPeriodEnd: null,
          trialEnd: null,
          pastDueSince: null,
          ...input.subscription,
        }
      : null,
  };
}

describe("paid / unpaid (seed custom:paid)", () => {
  test("in the trial without a subscription: paid", () => {
    expect(derivePaid(state({ trialEndsAt: new Date(now.getTime() + DAY) }), now, GRACE)).toEqual({ paid: true });
  });

  test("trial over without a subscription: unpaid, naming the end date in the tenant's zone", () => {
    const result = derivePaid(state({ trialEndsAt: new Date("2026-06-01T03:00:00Z") }), now, GRACE);
    expect(result.paid).toBe(false);
    // 03:00 UTC on 1 June is still 31 May in Chicago.
    expect(result.reason).toBe("Your free trial ended on 31 May 2026.");
  });

  test("trial end date not reached but trial_period_over set: unpaid", () => {
    expect(derivePaid(state({ trialEndsAt: new Date(now.getTime() + DAY), trialPeriodOver: true }), now, GRACE).paid).toBe(false);
  });

  test("active or trialing subscription: paid, whatever the trial", () => {
    expect(derivePaid(state({ trialPeriodOver: true, subscription: { status: "active" } }), now, GRACE).paid).toBe(true);
    expect(derivePaid(state({ trialPeriodOver: true, subscription: { status: "trialing" } }), now, GRACE).paid).toBe(true);
  });

  test("past due within the grace period: paid", () => {
    const s = state({ trialPeriodOver: true, subscription: { status: "past_due", pastDueSince: new Date(now.getTime() - 6 * DAY) } });
    expect(derivePaid(s, now, GRACE).paid).toBe(true);
    expect(graceStatus(s, now, GRACE)).toMatchObject({ status: "in_grace", daysLeft: 1 });
  });

  test("past due after the grace period: unpaid", () => {
    const s = state({ trialPeriodOver: true, subscription: { status: "past_due", pastDueSince: new Date(now.getTime() - 7 * DAY) } });
    const result = derivePaid(s, now, GRACE);
    expect(result.paid).toBe(false);
    expect(result.reason).toMatch(/grace period ended on 15 Jun 2026/);
    expect(graceStatus(s, now, GRACE)).toMatchObject({ status: "ended", daysLeft: 0 });
  });

  test("the trial ends at its end instant: paid a millisecond before, unpaid at it", () => {
    expect(derivePaid(state({ trialEndsAt: new Date(now.getTime() + 1) }), now, GRACE).paid).toBe(true);
    expect(derivePaid(state({ trialEndsAt: now }), now, GRACE).paid).toBe(false);
  });

  test("the grace period ends exactly 7 days after the payment fell due", () => {
    const since = (ms: number) =>
      state({ trialPeriodOver: true, subscription: { status: "past_due", pastDueSince: new Date(now.getTime() - ms) } });
    expect(derivePaid(since(7 * DAY - 1), now, GRACE).paid).toBe(true);
    expect(graceStatus(since(7 * DAY - 1), now, GRACE)).toMatchObject({ status: "in_grace", daysLeft: 1 });
    expect(derivePaid(since(7 * DAY), now, GRACE).paid).toBe(false);
  });

  test("canceled or unpaid subscription after the trial: unpaid with the reason", () => {
    expect(derivePaid(state({ trialPeriodOver: true, subscription: { status: "canceled" } }), now, GRACE)).toEqual({
      paid: false,
      reason: "Your subscription was canceled.",
    });
    expect(derivePaid(state({ trialPeriodOver: true, subscription: { status: "unpaid" } }), now, GRACE)).toEqual({
      paid: false,
      reason: "Your subscription is unpaid.",
    });
  });

  test("a canceled subscription with a trial staff extended: paid until that trial ends", () => {
    const s = state({ trialEndsAt: new Date(now.getTime() + 3 * DAY), subscription: { status: "canceled" } });
    expect(derivePaid(s, now, GRACE).paid).toBe(true);
  });

  test("no grace for a subscription that is not past due", () => {
    expect(graceStatus(state({ subscription: { status: "active" } }), now, GRACE)).toEqual({ status: "none" });
  });
});

describe("getEntitlements", () => {
  test("a new tenant is in its trial; once the trial lapses it is unpaid", async () => {
    const { db, tenant } = await createTestTenant();
    expect(await getEntitlements(db, tenant.id)).toEqual({ paid: true });
    const [account] = await db.select().from(billingAccounts).where(eq(billingAccounts.tenantId, tenant.id));
    const days = Math.round((account.trialEndsAt.getTime() - account.createdAt.getTime()) / DAY);
    expect(days).toBe(14);
    const later = new Date(account.trialEndsAt.getTime() + 1000);
    expect((await getEntitlements(db, tenant.id, later)).paid).toBe(false);
  });

  test("an unknown tenant is not paid", async () => {
    const { db } = await createTestTenant();
    expect((await getEntitlements(db, "00000000-0000-4000-8000-000000000000")).paid).toBe(false);
  });
});
