import { and, eq, gt, inArray, isNull, lte, not, or } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { billingAccounts } from "~/db/schema";
import { getEnv } from "~/env.server";
import { notify } from "../platform/notifications.server";

const DAY_MS = 86_400_000;

/**
 * Recurring: remind tenants whose trial ends within TRIAL_REMINDER_DAYS (once per trial; the
 * guarded UPDATE claims each reminder so two instances never both send it), and mark lapsed
 * trials over (seed trial_period_over).
 */
export async function runTrialReminders(db: Db, now = new Date(), options: { tenantId?: string } = {}) {
  const days = getEnv().TRIAL_REMINDER_DAYS;
  // Scoping to one tenant lets tests on a shared database leave everyone else's trial alone.
  const scope = options.tenantId ? eq(billingAccounts.tenantId, options.tenantId) : undefined;
  return db.transaction(async (tx) => {
    const noLiveSubscription = or(
      isNull(billingAccounts.subscriptionStatus),
      not(inArray(billingAccounts.subscriptionStatus, ["trialing", "active", "past_due"])),
    );
    const due = await tx
      .update(billingAccounts)
      .set({ trialReminderSentAt: now })
      .where(
        and(
          isNull(billingAccounts.trialReminderSentAt),
          eq(billingAccounts.trialPeriodOver, false),
          gt(billingAccounts.trialEndsAt, now),
          lte(billingAccounts.trialEndsAt, new Date(now.getTime() + days * DAY_MS)),
          noLiveSubscription,
          scope,
        ),
      )
      .returning({ tenantId: billingAccounts.tenantId, trialEndsAt: billingAccounts.trialEndsAt });
    for (const row of due) {
      const left = Math.max(1, Math.ceil((row.trialEndsAt.getTime() - now.getTime()) / DAY_MS));
      await notify(
        tx,
        {
          tenantId: row.tenantId,
          kind: "billing.trial_ending",
          title: `Your free trial ends in ${left} day${left === 1 ? "" : "s"}`,
          message: "Choose a plan on the billing page to keep re-marketing without interruption.",
          link: "/billing",
        },
        now,
      );
    }
    const lapsed = await tx
      .update(billingAccounts)
      .set({ trialPeriodOver: true, updatedAt: now })
      .where(and(eq(billingAccounts.trialPeriodOver, false), lte(billingAccounts.trialEndsAt, now), scope))
      .returning({ tenantId: billingAccounts.tenantId });
    return { reminded: due.length, lapsed: lapsed.length };
  });
}
