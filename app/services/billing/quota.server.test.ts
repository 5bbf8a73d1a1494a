import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { billingAccounts, notifications, remarketUsage, remarketUsageEvents } from "~/db/schema";
import { consumeRemarketQuota, getRemarketAllowance } from "./quota.server";
import { createTenant } from "../identity/tenants.server";
import { getMonthlyUsage, getRemarketUsage } from "./usage.server";

// Opening the per-worker database can take long on a busy machine: pay it in a hook, not a test.
beforeAll(async () => {
  await getDb();
});

async function tenantAt(createdAt: Date, timeZone = "America/New_York", quota?: number) {
  const db = await getDb();
  const tenant = await createTenant(db, { name: `Quota ${Math.random().toString(36).slice(2, 8)}`, timeZone }, createdAt);
  if (quota !== undefined)
    await db.update(billingAccounts).set({ annualQuotaOverride: quota }).where(eq(billingAccounts.tenantId, tenant.id));
  return { db, tenantId: tenant.id };
}

const use = async (tenantId: string, now: Date) => (await getDb()).transaction((tx) => consumeRemarketQuota(tx, tenantId, now));

describe("quota year in the tenant's time zone", () => {
  test("rolls over at the tenant's local midnight on 1 January, not UTC's", async () => {
    // Los Angeles is UTC−8 in winter: 1 January 00:00 local is 08:00 UTC.
    const { db, tenantId } = await tenantAt(new Date("2026-12-20T00:00:00Z"), "America/Los_Angeles", 100);

    const lateOn31st = new Date("2027-01-01T07:59:59Z"); // 23:59:59 on 31 Dec in LA, already 2027 in UTC
    const first = await use(tenantId, lateOn31st);
    expect(first).toMatchObject({ ok: true, quotaYear: 2026, used: 1 });

    const midnight = new Date("2027-01-01T08:00:00Z"); // 00:00 on 1 Jan in LA
    const allowance = await getRemarketAllowance(db, tenantId, midnight);
    expect(allowance).toMatchObject({ allowed: true, quotaYear: 2027, used: 0, quota: 100 });
    expect(await use(tenantId, midnight)).toMatchObject({ ok: true, quotaYear: 2027, used: 1 });

    expect((await getRemarketAllowance(db, tenantId, lateOn31st)).used).toBe(1);
    const events = await db
      .select({ localDate: remarketUsageEvents.localDate, quotaYear: remarketUsageEvents.quotaYear })
      .from(remarketUsageEvents)
      .where(eq(remarketUsageEvents.tenantId, tenantId))
      .orderBy(remarketUsageEvents.usedAt);
    expect(events).toEqual([
      { localDate: "2026-12-31", quotaYear: 2026 },
      { localDate: "2027-01-01", quotaYear: 2027 },
    ]);
  });

  test("east of UTC the new year starts before UTC's", async () => {
    const { db, tenantId } = await tenantAt(new Date("2026-12-20T00:00:00Z"), "Pacific/Auckland", 100);
    // 11:00 UTC on 31 Dec is 00:00 on 1 Jan in Auckland (UTC+13 in summer).
    expect((await getRemarketAllowance(db, tenantId, new Date("2026-12-31T10:59:59Z"))).quotaYear).toBe(2026);
    expect((await getRemarketAllowance(db, tenantId, new Date("2026-12-31T11:00:00Z"))).quotaYear).toBe(2027);
  });
});

describe("consuming the quota", () => {
  test("refuses at the limit with the year and figures", async () => {
    const now = new Date("2026-03-10T15:00:00Z");
    const { db, tenantId } = await tenantAt(new Date("2026-03-01T00:00:00Z"), "America/New_York", 2);
    expect(await use(tenantId, now)).toMatchObject({ ok: true, used: 1, quota: 2 });
    expect(await use(tenantId, now)).toMatchObject({ ok: true, used: 2, quota: 2 });
    expect(await use(tenantId, now)).toEqual({ ok: false, reason: "Your re-marketing quota for 2026 is used up (2 of 2)." });
    expect(await getRemarketAllowance(db, tenantId, now)).toEqual({
      allowed: false,
      quotaYear: 2026,
      used: 2,
      quota: 2,
      reason: "Your re-marketing quota for 2026 is used up (2 of 2).",
    });
  });

  test("a quota of 0 refuses the first use", async () => {
    const now = new Date("2026-03-10T15:00:00Z");
    const { tenantId } = await tenantAt(new Date("2026-03-01T00:00:00Z"), "UTC", 0);
    expect(await use(tenantId, now)).toEqual({ ok: false, reason: "Your re-marketing quota for 2026 is used up (0 of 0)." });
  });

  test("the trial's quota applies to a new tenant, and an unpaid tenant is refused", async () => {
    const created = new Date("2026-03-01T00:00:00Z");
    const { db, tenantId } = await tenantAt(created);
    expect(await getRemarketAllowance(db, tenantId, new Date("2026-03-02T00:00:00Z"))).toMatchObject({ allowed: true, quota: 25, used: 0 });
    // The trial ends at 00:00 UTC on 15 March, which is the evening of 14 March in New York.
    const afterTrial = new Date("2026-03-16T00:00:00Z");
    const allowance = await getRemarketAllowance(db, tenantId, afterTrial);
    expect(allowance).toMatchObject({ allowed: false, reason: "Your free trial ended on 14 Mar 2026." });
    expect(await use(tenantId, afterTrial)).toEqual({ ok: false, reason: "Your free trial ended on 14 Mar 2026." });
    const [counter] = await db.select().from(remarketUsage).where(eq(remarketUsage.tenantId, tenantId));
    expect(counter).toBeUndefined();
  });

  test("notifies once at 80 % and once at 100 %", async () => {
    const now = new Date("2026-05-05T15:00:00Z");
    const { db, tenantId } = await tenantAt(new Date("2026-05-01T00:00:00Z"), "UTC", 5);
    for (let i = 0; i < 6; i++) await use(tenantId, now);
    const raised = await db
      .select({ kind: notifications.kind, title: notifications.title })
      .from(notifications)
      .where(and(eq(notifications.tenantId, tenantId)))
      .orderBy(notifications.createdAt, notifications.kind);
    expect(raised.map((n) => n.kind).sort()).toEqual(["billing.quota_100", "billing.quota_80"]);
  });

  test("50 concurrent uses against 10 left record exactly 10", async () => {
    const now = new Date("2026-07-01T15:00:00Z");
    const { db, tenantId } = await tenantAt(new Date("2026-06-25T00:00:00Z"), "America/Denver", 30);
    for (let i = 0; i < 20; i++) await use(tenantId, now);
    const results = await Promise.all(Array.from({ length: 50 }, () => use(tenantId, now)));
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    expect(results.filter((r) => !r.ok)).toHaveLength(40);
    const usedValues = results.flatMap((r) => (r.ok ? [r.used] : [])).sort((a, b) => a - b);
    expect(usedValues).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
    const [counter] = await db.select().from(remarketUsage).where(eq(remarketUsage.tenantId, tenantId));
    expect(counter.used).toBe(30);
    const events = await db
      .select({ id: remarketUsageEvents.id })
      .from(remarketUsageEvents)
      .where(eq(remarketUsageEvents.tenantId, tenantId));
    expect(events).toHaveLength(30);
  });
});

describe("usage reports", () => {
  test("remarket usage and monthly / daily buckets in the tenant's calendar", async () => {
    const { db, tenantId } = await tenantAt(new Date("2026-01-02T00:00:00Z"), "America/New_York", 50);
    await db
      .update(billingAccounts)
      .set({ trialEndsAt: new Date("2026-12-31T00:00:00Z") })
      .where(eq(billingAccounts.tenantId, tenantId));
    await use(tenantId, new Date("2026-02-10T15:00:00Z"));
    await use(tenantId, new Date("2026-02-10T16:00:00Z"));
    await use(tenantId, new Date("2026-03-01T03:00:00Z")); // 22:00 on 28 Feb in New York
    await use(tenantId, new Date("2026-04-05T15:00:00Z"));
    const ctx = { db, tenantId, userId: "", role: "admin" as const, now: () => new Date("2026-04-06T00:00:00Z") };

    expect(await getRemarketUsage(ctx)).toMatchObject({ quotaYear: 2026, annualQuota: 50, currentYearUsage: 4, percent: 8, level: "ok" });

    const year = await getMonthlyUsage(ctx, { year: 2026 });
    expect(year.buckets.map((b) => b.count)).toEqual([0, 3, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(year.total).toBe(4);

    const february = await getMonthlyUsage(ctx, { year: 2026, month: 2 });
    expect(february.buckets).toHaveLength(28);
    expect(february.buckets[9]).toEqual({ key: 10, label: "10", count: 2 });
    expect(february.buckets[27]).toEqual({ key: 28, label: "28", count: 1 });
    expect((await getMonthlyUsage(ctx, { year: 2025 })).total).toBe(0);
  });
});
