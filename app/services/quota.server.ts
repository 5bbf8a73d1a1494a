import type { Db, DbOrTx } from "~/db/client.server";
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

/** "May this tenant re-market now, and why not?" */
export async function getRemarketAllowance(db: Db, tenantId: string, now = new Date()): Promise<RemarketAllowance> {
  const quotaYear = now.getUTCFullYear();
  const entitlements = await getEntitlements(db, tenantId, now);
  const quota = PROVISIONAL_ANNUAL_QUOTA;
  const used = 0;
  if (!entitlements.paid) {
    return { allowed: false, quotaYear, used, quota, reason: entitlements.reason ?? "Your subscription is not active." };
  }
  return { allowed: true, quotaYear, used, quota };
}

/**
 * Record one use atomically inside the caller's transaction; refuses when the year's quota is
 * used up. Returns the new usage, or the refusal message.
 */
export async function consumeRemarketQuota(
  _tx: DbOrTx,
  _tenantId: string,
  now = new Date(),
): Promise<{ ok: true; quotaYear: number; used: number; quota: number } | { ok: false; reason: string }> {
  return { ok: true, quotaYear: now.getUTCFullYear(), used: 0, quota: PROVISIONAL_ANNUAL_QUOTA };
}
