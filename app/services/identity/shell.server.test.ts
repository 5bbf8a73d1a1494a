import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { billingAccounts, users } from "~/db/schema";
import { createTestTenant, uniqueEmail } from "../../../tests/support/factories";
import { getEntitlements } from "../billing/entitlements.server";
import { createLoginSession, resolveSession } from "./login-sessions.server";
import { countUnread, markAllNotificationsRead, notify } from "../platform/notifications.server";
import { getShellData } from "./shell.server";

async function shellFor(t: { db: Awaited<ReturnType<typeof createTestTenant>>["db"] }, userId: string, tenantId: string, now = new Date()) {
  const { token } = await createLoginSession(t.db, { userId, tenantId });
  const auth = await resolveSession(t.db, token, now);
  if (!auth) throw new Error("no session");
  return getShellData(t.db, auth, now);
}

describe("page chrome read with the session", () => {
  test("unread count: the tenant's and the user's own notifications, not a colleague's or another tenant's", async () => {
    const a = await createTestTenant();
    const b = await createTestTenant();
    const [colleague] = await a.db
      .insert(users)
      .values({ tenantId: a.tenant.id, email: uniqueEmail(), name: "Colleague", role: "staff", emailVerifiedAt: new Date() })
      .returning({ id: users.id });
    await notify(a.db, { tenantId: a.tenant.id, kind: "import", title: "For everyone" });
    await notify(a.db, { tenantId: a.tenant.id, userId: a.user.id, kind: "file", title: "Mine" });
    await notify(a.db, { tenantId: a.tenant.id, userId: colleague.id, kind: "file", title: "Theirs" });
    await notify(b.db, { tenantId: b.tenant.id, kind: "import", title: "Another agency" });

    expect((await shellFor(a, a.user.id, a.tenant.id)).unreadNotifications).toBe(2);
    expect((await shellFor(a, colleague.id, a.tenant.id)).unreadNotifications).toBe(2);
    expect(await countUnread(a.db, { tenantId: a.tenant.id, userId: colleague.id })).toBe(2);
    await markAllNotificationsRead(a.ctx);
    expect((await shellFor(a, a.user.id, a.tenant.id)).unreadNotifications).toBe(0);
  });

  test("paid state agrees with getEntitlements: trial, trial over, past due beyond grace", async () => {
    const t = await createTestTenant();
    const check = async (now: Date) => {
      const shell = await shellFor(t, t.user.id, t.tenant.id, now);
      const expected = await getEntitlements(t.db, t.tenant.id, now);
      expect({ paid: shell.paid, reason: shell.unpaidReason }).toEqual({ paid: expected.paid, reason: expected.reason ?? null });
      return shell;
    };
    expect((await check(new Date())).paid).toBe(true);

    await t.db.update(billingAccounts).set({ trialPeriodOver: true }).where(eq(billingAccounts.tenantId, t.tenant.id));
    const over = await check(new Date());
    expect(over.paid).toBe(false);
    expect(over.unpaidReason).toMatch(/^Your free trial ended on /);

    const longAgo = new Date(Date.now() - 30 * 86_400_000);
    await t.db
      .update(billingAccounts)
      .set({ subscriptionId: "sub_1", subscriptionStatus: "past_due", pastDueSince: longAgo })
      .where(eq(billingAccounts.tenantId, t.tenant.id));
    const overdue = await check(new Date());
    expect(overdue.paid).toBe(false);
    expect(overdue.unpaidReason).toMatch(/grace period ended/);
  });

  test("a tenant that predates billing gets its trial opened and counts as paid", async () => {
    const t = await createTestTenant();
    await t.db.delete(billingAccounts).where(eq(billingAccounts.tenantId, t.tenant.id));
    const shell = await shellFor(t, t.user.id, t.tenant.id);
    expect(shell.paid).toBe(true);
    const [row] = await t.db.select().from(billingAccounts).where(eq(billingAccounts.tenantId, t.tenant.id));
    expect(row?.trialPeriodOver).toBe(false);
  });
});
