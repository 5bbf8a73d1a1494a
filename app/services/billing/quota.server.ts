import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "~/db/client.server";
import { remarketUsage, remarketUsageEvents } from "~/db/schema";
import { getEnv } from "~/env.server";
import { localDateParts } from "~/utils/time-zone";
import { quotaUsedUpMessage } from "~/utils/quota-usage";
import { effectiveAnnualQuota, readBillingState, type BillingState } from "./billing-account.server";
import { derivePaid } from "./entitlements.server";
import { notify } from "../platform/notifications.server";

/**
 * The re-marketing quota, as the renewals capability sees it: one question ("may this tenant
 * re-market now, and why not?") and one atomic use. The quota year is the calendar year in
 * the tenant's time zone, so it rolls over at the tenant's midnight on 1 January.
 */
export type RemarketAllowance =
  | { allowed: true; quotaYear: number; used: number; quota: number }
  | { allowed: false; quotaYear: number; used: number; quota: number; reason: string };

/** The quota year an instant falls in for a tenant in `timeZone`. */
export function quotaYearOf(now: Date, timeZone: string) {
  return localDateParts(now, timeZone).year;
}

async function usedIn(db: DbOrTx, tenantId: string, quotaYear: number) {
  const [row] = await db
    .select({ used: remarketUsage.used })
    .from(remarketUsage)
    .where(and(eq(remarketUsage.tenantId, tenantId), eq(remarketUsage.quotaYear, quotaYear)));
  return row?.used ?? 0;
}

function refusal(state: BillingState, now: Date, used: number, quota: number, quotaYear: number) {
  const paid = derivePaid(state, now, getEnv().GRACE_PERIOD_DAYS);
  if (!paid.paid) return paid.reason ?? "Your subscription is not active.";
  if (used >= quota) return quotaUsedUpMessage(quotaYear, used, quota);
  return null;
}

/** "May this tenant re-market now, and why not?" */
export async function getRemarketAllowance(db: Db, tenantId: string, now = new Date()): Promise<RemarketAllowance> {
  const state = await readBillingState(db, tenantId);
  if (!state) return { allowed: false, quotaYear: now.getUTCFullYear(), used: 0, quota: 0, reason: "Unknown agency." };
  const quotaYear = quotaYearOf(now, state.timeZone);
  const quota = effectiveAnnualQuota(state);
  const used = await usedIn(db, tenantId, quotaYear);
  const reason = refusal(state, now, used, quota, quotaYear);
  return reason ? { allowed: false, quotaYear, used, quota, reason } : { allowed: true, quotaYear, used, quota };
}

/**
 * Record one use atomically inside the caller's transaction; refuses when the tenant is unpaid
 * or the year's quota is used up. The counter moves in one UPDATE guarded by the quota, so
 * concurrent uses against the last units can never overshoot. Returns the new usage, or the
 * refusal message.
 */
export async function consumeRemarketQuota(
  tx: DbOrTx,
  tenantId: string,
  now = new Date(),
  options: { userId?: string | null; reference?: string | null } = {},
): Promise<{ ok: true; quotaYear: number; used: number; quota: number } | { ok: false; reason: string }> {
  const state = await readBillingState(tx, tenantId);
  if (!state) return { ok: false, reason: "Unknown agency." };
  const local = localDateParts(now, state.timeZone);
  const quotaYear = local.year;
  const quota = effectiveAnnualQuota(state);
  const unpaid = refusal(state, now, 0, Number.POSITIVE_INFINITY, quotaYear);
  if (unpaid) return { ok: false, reason: unpaid };

  await tx.insert(remarketUsage).values({ tenantId, quotaYear, used: 0 }).onConflictDoNothing();
  const [row] = await tx
    .update(remarketUsage)
    .set({ used: sql`${remarketUsage.used} + 1`, updatedAt: now })
    .where(and(eq(remarketUsage.tenantId, tenantId), eq(remarketUsage.quotaYear, quotaYear), lt(remarketUsage.used, quota)))
    .returning({ used: remarketUsage.used });
  if (!row) {
    return { ok: false, reason: quotaUsedUpMessage(quotaYear, await usedIn(tx, tenantId, quotaYear), quota) };
  }
  await tx.insert(remarketUsageEvents).values({
    tenantId,
    quotaYear,
    localDate: local.iso,
    usedAt: now,
    userId: options.userId ?? null,
    reference: options.reference ?? null,
  });
  await notifyThresholds(tx, tenantId, quotaYear, row.used, quota, now);
  return { ok: true, quotaYear, used: row.used, quota };
}

/**
 * Give back one unit (an undone re-market) to the year it was taken from, inside the caller's
 * transaction: the counter goes down (never below 0) and the use it answers, the event recorded
 * at `usedAt`, goes away so the daily usage no longer counts it. Returns the new usage.
 */
export async function returnRemarketQuota(tx: DbOrTx, tenantId: string, quotaYear: number, usedAt: Date) {
  const [row] = await tx
    .update(remarketUsage)
    .set({ used: sql`${remarketUsage.used} - 1`, updatedAt: new Date() })
    .where(and(eq(remarketUsage.tenantId, tenantId), eq(remarketUsage.quotaYear, quotaYear), gt(remarketUsage.used, 0)))
    .returning({ used: remarketUsage.used });
  const [event] = await tx
    .select({ id: remarketUsageEvents.id })
    .from(remarketUsageEvents)
    .where(
      and(eq(remarketUsageEvents.tenantId, tenantId), eq(remarketUsageEvents.quotaYear, quotaYear), eq(remarketUsageEvents.usedAt, usedAt)),
    )
    .limit(1);
  if (event)
    await tx.delete(remarketUsageEvents).where(and(eq(remarketUsageEvents.tenantId, tenantId), eq(remarketUsageEvents.id, event.id)));
  return { quotaYear, used: row?.used ?? 0 };
}

// Each use has its own counter value, so exactly one use crosses each threshold: the
// notification is raised once without any extra bookkeeping.
async function notifyThresholds(tx: DbOrTx, tenantId: string, quotaYear: number, used: number, quota: number, now: Date) {
  const crossed = (pct: number) => used * 100 >= quota * pct && (used - 1) * 100 < quota * pct;
  if (crossed(100)) {
    await notify(
      tx,
      {
        tenantId,
        kind: "billing.quota_100",
        title: `Re-marketing quota for ${quotaYear} used up`,
        message: `You have used all ${quota} re-markets for ${quotaYear}. Change your plan to keep re-marketing.`,
        link: "/billing",
      },
      now,
    );
  } else if (crossed(80)) {
    await notify(
      tx,
      {
        tenantId,
        kind: "billing.quota_80",
        title: `80 % of your ${quotaYear} re-marketing quota used`,
        message: `You have used ${used} of ${quota} re-markets for ${quotaYear}.`,
        link: "/billing",
      },
      now,
    );
  }
}
