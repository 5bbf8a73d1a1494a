import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { billingAccounts, notifications } from "~/db/schema";
import { runTrialReminders } from "./billing-jobs.server";
import { createTenant } from "../identity/tenants.server";

// Opening the per-worker database can take long on a busy machine: pay it in a hook, not a test.
beforeAll(async () => {
  await getDb();
});

const DAY = 86_400_000;

describe("trial reminders (recurring job)", () => {
  test("notifies once, 3 days before the trial ends, and marks lapsed trials over", async () => {
    const db = await getDb();
    const created = new Date("2031-03-01T12:00:00Z");
    const tenant = await createTenant(db, { name: "Reminder Agency" }, created);
    const scope = { tenantId: tenant.id };
    const kinds = async () =>
      await db
        .select({ kind: notifications.kind, title: notifications.title })
        .from(notifications)
        .where(and(eq(notifications.tenantId, tenant.id), eq(notifications.kind, "billing.trial_ending")));

    await runTrialReminders(db, new Date(created.getTime() + 10 * DAY), scope); // 4 days left
    expect(await kinds()).toHaveLength(0);
    await runTrialReminders(db, new Date(created.getTime() + 11 * DAY), scope); // 3 days left
    await runTrialReminders(db, new Date(created.getTime() + 12 * DAY), scope);
    expect(await kinds()).toEqual([{ kind: "billing.trial_ending", title: "Your free trial ends in 3 days" }]);

    await runTrialReminders(db, new Date(created.getTime() + 15 * DAY), scope);
    const [account] = await db
      .select({ over: billingAccounts.trialPeriodOver })
      .from(billingAccounts)
      .where(eq(billingAccounts.tenantId, tenant.id));
    expect(account.over).toBe(true);
  });

  test("exactly 3 days before the end is reminded, 3 days and a minute is not yet; the trial is over at its end instant", async () => {
    const db = await getDb();
    const created = new Date("2031-05-01T12:00:00Z");
    const tenant = await createTenant(db, { name: "Boundary Agency" }, created);
    const scope = { tenantId: tenant.id };
    const [{ trialEndsAt }] = await db
      .select({ trialEndsAt: billingAccounts.trialEndsAt })
      .from(billingAccounts)
      .where(eq(billingAccounts.tenantId, tenant.id));
    const before = (ms: number) => new Date(trialEndsAt.getTime() - ms);
    expect(await runTrialReminders(db, before(3 * DAY + 60_000), scope)).toEqual({ reminded: 0, lapsed: 0 });
    expect(await runTrialReminders(db, before(3 * DAY), scope)).toEqual({ reminded: 1, lapsed: 0 });
    expect(await runTrialReminders(db, before(1), scope)).toEqual({ reminded: 0, lapsed: 0 });
    expect(await runTrialReminders(db, trialEndsAt, scope)).toEqual({ reminded: 0, lapsed: 1 });
  });
});
