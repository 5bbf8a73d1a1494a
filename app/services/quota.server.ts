import { and, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "~/db/client.server";
import { remarketQuotaUsage } from "~/db/schema";
import { getEntitlements } from "./entitlements.server";

/**
 * The re-marketing quota, as the renewals capability sees it. The billing capability owns the
 * real implementation (plans, trial quota, usage per quota year); callers use only these two
 * functions, so nothing else changes when it lands.
 */
export type RemarketAllowance =
  | { allowed: true; quotaYear: number; used: number; quota: number }
  | { allowed: false; quotaYear: number; used: number; quota: number; reason: string };

export const PROVISIONAL_ANNUAL_QUOTA = 500;

/** The refusal every caller shows when the year's quota is used up. */
export function quotaUsedUpMessage(quotaYear: number, used: number, quota: number) {
  return `Your re-marketing quota for ${quotaYear} is used up (${used} of ${quota}).`;
}

async function readUsage(db: DbOrTx, tenantId: string, quotaYear: number) {
  const [row] = await db
    .select({ used: remarketQuotaUsage.used, quota: remarketQuotaUsage.quota })
    .from(remarketQuotaUsage)
    .where(and(eq(remarketQuotaUsage.tenantId, tenantId), eq(remarketQuotaUsage.quotaYear, quotaYear)));
  return row ?? { used: 0, quota: PROVISIONAL_ANNUAL_QUOTA };
}

/** "May this tenant re-market now, and why not?" */
export async function getRemarketAllowance(db: Db, tenantId: string, now = new Date()): Promise<RemarketAllowance> {
  const quotaYear = now.getUTCFullYear();
  const [entitlements, { used, quota }] = await Promise.all([
    getEntitlements(db, tenantId, now),
    readUsage(db, tenantId, quotaYear),
  ]);
  if (!entitlements.paid) {
    return { allowed: false, quotaYear, used, quota, reason: entitlements.reason ?? "Your subscription is not active." };
  }
  if (used >= quota) return { allowed: false, quotaYear, used, quota, reason: quotaUsedUpMessage(quotaYear, used, quota) };
  return { allowed: true, quotaYear, used, quota };
}

/**
 * Record one use atomically inside the caller's transaction; refuses when the year's quota is
 * used up. Returns the new usage, or the refusal message.
 *
 * One guarded UPDATE: concurrent callers queue on the row lock and each re-checks
 * `used < quota` after the one before commits, so the quota can never be overrun.
 */
export async function consumeRemarketQuota(
  tx: DbOrTx,
  tenantId: string,
  now = new Date(),
): Promise<{ ok: true; quotaYear: number; used: number; quota: number } | { ok: false; reason: string }> {
  const quotaYear = now.getUTCFullYear();
  await tx
    .insert(remarketQuotaUsage)
    .values({ tenantId, quotaYear, used: 0, quota: PROVISIONAL_ANNUAL_QUOTA })
    .onConflictDoNothing();
  const [row] = await tx
    .update(remarketQuotaUsage)
    .set({ used: sql`${remarketQuotaUsage.used} + 1`, updatedAt: now })
    .where(
      and(
        eq(remarketQuotaUsage.tenantId, tenantId),
        eq(remarketQuotaUsage.quotaYear, quotaYear),
        sql`${remarketQuotaUsage.used} < ${remarketQuotaUsage.quota}`,
      ),
    )
    .returning({ used: remarketQuotaUsage.used, quota: remarketQuotaUsage.quota });
  if (row) return { ok: true, quotaYear, used: row.used, quota: row.quota };
  const usage = await readUsage(tx, tenantId, quotaYear);
  return { ok: false, reason: quotaUsedUpMessage(quotaYear, usage.used, usage.quota) };
}
