import { and, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { auditEvents, remarketUsage, remarketUsageEvents, remarkets, renewalFlags, tasks } from "~/db/schema";
import { createCustomer, createPolicy } from "../../../tests/support/book-factories";
import { createTestTenant } from "../../../tests/support/factories";
import { saveTaskCreationSetting } from "../connections/task-settings.server";
import { recomputeForecast } from "./forecast.server";
import { saveQuote } from "./quotes.server";
import {
  UNDO_HAS_QUOTE,
  UNDO_TOO_LATE,
  listUndoableRemarkets,
  remarketFlags,
  remarketPolicy,
  remarketsForCustomer,
  undoRemarket,
} from "./remarket.server";

const NOW = new Date("2026-03-01T17:00:00Z");
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);

/** A tenant with one flagged policy, whose clock can be moved on. */
async function flaggedTenant() {
  const t = await createTestTenant();
  let now = NOW;
  const ctx = { ...t.ctx, now: () => now };
  const customer = await createCustomer(t.db, t.tenant.id, { name: "Quinn Baker", producer: "Alex Producer" });
  const policy = await createPolicy(t.db, t.tenant.id, { customerId: customer.id, expirationDate: "2026-04-15", renewalPremium: 1300 });
  await recomputeForecast({ db: t.db, tenantId: t.tenant.id, now: () => NOW });
  const [flag] = await t.db.select({ id: renewalFlags.id }).from(renewalFlags).where(eq(renewalFlags.tenantId, t.tenant.id));
  return { ...t, ctx, customerId: customer.id, policyId: policy.id, flagId: flag.id, setNow: (d: Date) => (now = d) };
}

async function usage(t: Awaited<ReturnType<typeof flaggedTenant>>) {
  const [row] = await t.db
    .select({ used: remarketUsage.used })
    .from(remarketUsage)
    .where(and(eq(remarketUsage.tenantId, t.tenant.id), eq(remarketUsage.quotaYear, 2026)));
  const events = await t.db.select().from(remarketUsageEvents).where(eq(remarketUsageEvents.tenantId, t.tenant.id));
  return { used: row?.used ?? 0, events: events.length };
}

describe("undo a re-market", () => {
  test("within 10 minutes: the quota unit comes back, the flag reopens, the task goes, the audit trail has both", async () => {
    const t = await flaggedTenant();
    await saveTaskCreationSetting(t.ctx, null, {
      enabled: true,
      assigneeRule: "producer",
      fixedEmployeeAccountId: null,
      activityCode: "RMKT",
      workGroup: "Personal lines",
      dueDaysBeforeExpiration: 30,
    });
    const { done } = await remarketFlags(t.ctx, [t.flagId], false);
    expect(await usage(t)).toEqual({ used: 1, events: 1 });
    t.setNow(minutes(9));
    expect((await listUndoableRemarkets(t.ctx)).map((r) => r.id)).toEqual([done[0].remarketId]);
    expect((await remarketsForCustomer(t.ctx, t.customerId))[0].undoable).toBe(true);

    const result = await undoRemarket(t.ctx, done[0].remarketId);
    expect(result).toMatchObject({ quotaYear: 2026, used: 0 });
    expect(await usage(t)).toEqual({ used: 0, events: 0 });
    const [flag] = await t.db.select({ status: renewalFlags.status }).from(renewalFlags).where(eq(renewalFlags.id, t.flagId));
    expect(flag.status).toBe("open");
    expect(await t.db.select().from(remarkets).where(eq(remarkets.tenantId, t.tenant.id))).toEqual([]);
    expect(await t.db.select().from(tasks).where(eq(tasks.tenantId, t.tenant.id))).toEqual([]);
    const audit = await t.db
      .select({ action: auditEvents.action, details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, t.tenant.id), eq(auditEvents.subjectId, t.policyId)));
    expect(audit.map((a) => a.action).sort()).toEqual(["policy.remarket_undone", "policy.remarketed"]);

    // Undone, it can be re-marketed again, and that uses one unit again.
    await remarketPolicy(t.ctx, t.policyId);
    expect(await usage(t)).toEqual({ used: 1, events: 1 });
  });

  test("after 10 minutes it is refused with a clear message and nothing changes", async () => {
    const t = await flaggedTenant();
    const { remarketId } = await remarketPolicy(t.ctx, t.policyId);
    t.setNow(minutes(10.5));
    expect(await listUndoableRemarkets(t.ctx)).toEqual([]);
    expect((await remarketsForCustomer(t.ctx, t.customerId))[0].undoable).toBe(false);
    await expect(undoRemarket(t.ctx, remarketId)).rejects.toMatchObject({ status: 409, message: UNDO_TOO_LATE });
    expect((await usage(t)).used).toBe(1);
  });

  test("with a quote recorded it is refused with a clear message and nothing changes", async () => {
    const t = await flaggedTenant();
    const { remarketId } = await remarketPolicy(t.ctx, t.policyId);
    await saveQuote(t.ctx, remarketId, { carrierName: "Other Mutual", premium: 1100, effectiveDate: "2026-04-15" });
    t.setNow(minutes(1));
    expect(await listUndoableRemarkets(t.ctx)).toEqual([]);
    await expect(undoRemarket(t.ctx, remarketId)).rejects.toMatchObject({ status: 409, message: UNDO_HAS_QUOTE });
    expect((await usage(t)).used).toBe(1);
    expect(await t.db.select().from(remarkets).where(eq(remarkets.id, remarketId))).toHaveLength(1);
  });

  test("another tenant cannot undo by guessing the id: not found, nothing changes", async () => {
    const mine = await flaggedTenant();
    const other = await flaggedTenant();
    const { remarketId } = await remarketPolicy(other.ctx, other.policyId);
    await expect(undoRemarket(mine.ctx, remarketId)).rejects.toMatchObject({ status: 404 });
    await expect(undoRemarket(mine.ctx, "not-a-uuid")).rejects.toMatchObject({ status: 404 });
    expect(await listUndoableRemarkets(mine.ctx)).toEqual([]);
    expect((await usage(other)).used).toBe(1);
    expect(await other.db.select().from(remarkets).where(eq(remarkets.id, remarketId))).toHaveLength(1);
  });
});
