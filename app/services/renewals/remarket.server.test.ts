import { and, count, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { auditEvents, billingAccounts, bulkActions, connections, jobs, remarketUsage, remarkets, renewalFlags, tasks } from "~/db/schema";
import { createCustomer, createPolicy } from "../../../tests/support/book-factories";
import { createTestTenant } from "../../../tests/support/factories";
import { recomputeForecast } from "./forecast.server";
import { getRemarketAllowance } from "../billing/quota.server";
import { setRemarketQuotaForTests } from "../../../tests/support/quota";
import { ALREADY_REMARKETED, remarketFlags, remarketPolicy } from "./remarket.server";
import { saveTaskCreationSetting } from "../connections/task-settings.server";

const NOW = new Date("2026-03-01T17:00:00Z");

async function tenantWithPolicies(n: number, quota?: number) {
  const t = await createTestTenant();
  const ctx = { ...t.ctx, now: () => NOW };
  if (quota !== undefined) await setRemarketQuotaForTests(t.db, t.tenant.id, quota, 2026);
  const customer = await createCustomer(t.db, t.tenant.id, { name: "Quinn Baker", producer: "Alex Producer" });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const p = await createPolicy(t.db, t.tenant.id, { customerId: customer.id, expirationDate: "2026-04-15", renewalPremium: 1300 });
    ids.push(p.id);
  }
  return { ...t, ctx, customerId: customer.id, policyIds: ids };
}

async function usedIn(t: Awaited<ReturnType<typeof tenantWithPolicies>>) {
  const [row] = await t.db
    .select({ used: remarketUsage.used })
    .from(remarketUsage)
    .where(and(eq(remarketUsage.tenantId, t.tenant.id), eq(remarketUsage.quotaYear, 2026)));
  return row?.used ?? 0;
}

describe("re-market", () => {
  test("records the re-market, counts usage, creates the task and the audit event", async () => {
    const t = await tenantWithPolicies(1);
    await saveTaskCreationSetting(t.ctx, null, {
      enabled: true,
      assigneeRule: "producer",
      fixedEmployeeAccountId: null,
      activityCode: "RMKT",
      workGroup: "Personal lines",
      dueDaysBeforeExpiration: 30,
    });
    const result = await remarketPolicy(t.ctx, t.policyIds[0]);
    expect(result).toMatchObject({ used: 1, quota: 25, quotaYear: 2026 });
    const [rm] = await t.db.select().from(remarkets).where(eq(remarkets.id, result.remarketId));
    expect(rm).toMatchObject({ policyId: t.policyIds[0], userId: t.user.id, quotaYear: 2026, baselinePremium: 1300, status: "open" });
    expect(rm.remarketedAt.toISOString()).toBe(NOW.toISOString());
    const [task] = await t.db.select().from(tasks).where(eq(tasks.remarketId, result.remarketId));
    expect(task).toMatchObject({
      assignee: "Sam Producer",
      activityCode: "RMKT",
      workGroup: "Personal lines",
      dueDate: "2026-03-16",
      writeback: "none",
    });
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, t.tenant.id), eq(auditEvents.action, "policy.remarketed")));
    expect(audit).toHaveLength(1);
    expect((await getRemarketAllowance(t.db, t.tenant.id, NOW)).used).toBe(1);
  });

  test("a policy from a connector queues the task write-back job", async () => {
    const t = await createTestTenant();
    const customer = await createCustomer(t.db, t.tenant.id);
    // A connection that takes tasks (Salesforce), whether or not another test file has registered
    // the write-back (it asks the connection's integration; without it every connection is queued).
    const [{ id: connectionId }] = await t.db
      .insert(connections)
      .values({ tenantId: t.tenant.id, integrationId: "salesforce", name: "Salesforce CRM", status: "connected" })
      .returning({ id: connections.id });
    const p = await createPolicy(t.db, t.tenant.id, { customerId: customer.id, connectionId, expirationDate: "2026-04-15" });
    const result = await remarketPolicy({ ...t.ctx, now: () => NOW }, p.id);
    const queued = await t.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.tenantId, t.tenant.id), eq(jobs.type, "task.writeback")));
    expect(queued).toHaveLength(1);
    expect(queued[0].payload).toMatchObject({ taskId: result.taskId, connectionId });
  });

  test("refuses when the year's quota is used up, with the numbers", async () => {
    const t = await tenantWithPolicies(3, 2);
    await remarketPolicy(t.ctx, t.policyIds[0]);
    await remarketPolicy(t.ctx, t.policyIds[1]);
    await expect(remarketPolicy(t.ctx, t.policyIds[2])).rejects.toThrow("Your re-marketing quota for 2026 is used up (2 of 2).");
    expect(await usedIn(t)).toBe(2);
    const [{ n }] = await t.db.select({ n: count() }).from(remarkets).where(eq(remarkets.tenantId, t.tenant.id));
    expect(n).toBe(2);
  });

  test("refuses an agency whose trial is over without a plan: single and bulk, nothing used", async () => {
    const t = await tenantWithPolicies(3);
    // The trial ended on 14 Feb 2026 (New York), two weeks before NOW; no subscription.
    await t.db
      .update(billingAccounts)
      .set({ trialEndsAt: new Date("2026-02-15T00:00:00Z") })
      .where(eq(billingAccounts.tenantId, t.tenant.id));
    const message =
      "Your free trial ended on 14 Feb 2026. Re-marketing needs an active subscription: choose a plan on the Billing page to re-market again.";
    await expect(remarketPolicy(t.ctx, t.policyIds[0])).rejects.toMatchObject({ message, status: 403 });

    await recomputeForecast({ db: t.db, tenantId: t.tenant.id, now: () => NOW });
    const flags = await t.db.select({ id: renewalFlags.id }).from(renewalFlags).where(eq(renewalFlags.tenantId, t.tenant.id));
    expect(flags.length).toBeGreaterThan(0);
    await expect(
      remarketFlags(
        t.ctx,
        flags.map((f) => f.id),
        true,
      ),
    ).rejects.toMatchObject({ message, status: 403 });
    const [logged] = await t.db.select().from(bulkActions).where(eq(bulkActions.tenantId, t.tenant.id));
    expect(logged).toMatchObject({ action: "remarket", requested: flags.length, succeeded: 0 });
    expect(logged.failures.map((f) => f.reason)).toEqual(flags.map(() => message));

    expect(await usedIn(t)).toBe(0);
    const [{ n }] = await t.db.select({ n: count() }).from(remarkets).where(eq(remarkets.tenantId, t.tenant.id));
    expect(n).toBe(0);
    expect(await t.db.select().from(tasks).where(eq(tasks.tenantId, t.tenant.id))).toHaveLength(0);

    // A plan (an active subscription) lifts the refusal.
    await t.db
      .update(billingAccounts)
      .set({ subscriptionId: "sub_test", subscriptionStatus: "active", plan: "starter" })
      .where(eq(billingAccounts.tenantId, t.tenant.id));
    await expect(remarketPolicy(t.ctx, t.policyIds[0])).resolves.toMatchObject({ used: 1 });
  });

  test("20 parallel re-markets against a quota of 10 leave exactly 10", async () => {
    const t = await tenantWithPolicies(20, 10);
    const results = await Promise.allSettled(t.policyIds.map((id) => remarketPolicy(t.ctx, id)));
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(ok).toHaveLength(10);
    expect(refused).toHaveLength(10);
    for (const r of refused) expect(String(r.reason.message)).toBe("Your re-marketing quota for 2026 is used up (10 of 10).");
    expect(await usedIn(t)).toBe(10);
    const [{ n }] = await t.db.select({ n: count() }).from(remarkets).where(eq(remarkets.tenantId, t.tenant.id));
    expect(n).toBe(10);
    const [{ n: taskCount }] = await t.db.select({ n: count() }).from(tasks).where(eq(tasks.tenantId, t.tenant.id));
    expect(taskCount).toBe(10);
  });

  test("the same policy re-marketed twice (or five times at once) counts once", async () => {
    const t = await tenantWithPolicies(2);
    await remarketPolicy(t.ctx, t.policyIds[0]);
    await expect(remarketPolicy(t.ctx, t.policyIds[0])).rejects.toThrow(ALREADY_REMARKETED);
    const parallel = await Promise.allSettled(Array.from({ length: 5 }, () => remarketPolicy(t.ctx, t.policyIds[1])));
    expect(parallel.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await usedIn(t)).toBe(2);
  });

  test("bulk re-market reports the ones that failed and why", async () => {
    const t = await tenantWithPolicies(3, 2);
    await recomputeForecast({ db: t.db, tenantId: t.tenant.id, now: () => NOW });
    // One customer is in the worklist once: give each policy its own customer's flag row directly.
    const flags = await t.db.select({ id: renewalFlags.id }).from(renewalFlags).where(eq(renewalFlags.tenantId, t.tenant.id));
    expect(flags).toHaveLength(1);
    const { done, failures } = await remarketFlags(t.ctx, [flags[0].id], true);
    expect(done).toHaveLength(1);
    expect(failures).toEqual([]);
    const again = await remarketFlags(t.ctx, [flags[0].id], true);
    expect(again.failures).toEqual([expect.objectContaining({ id: flags[0].id, reason: ALREADY_REMARKETED })]);
  });

  test("another tenant's policy or flag is not found", async () => {
    const mine = await tenantWithPolicies(1);
    const other = await tenantWithPolicies(1);
    await expect(remarketPolicy(mine.ctx, other.policyIds[0])).rejects.toMatchObject({ status: 404 });
    await recomputeForecast({ db: other.db, tenantId: other.tenant.id, now: () => NOW });
    const [flag] = await other.db.select({ id: renewalFlags.id }).from(renewalFlags).where(eq(renewalFlags.tenantId, other.tenant.id));
    await expect(remarketFlags(mine.ctx, [flag.id], true)).rejects.toMatchObject({ status: 404 });
    expect(await usedIn(mine)).toBe(0);
  });
});
