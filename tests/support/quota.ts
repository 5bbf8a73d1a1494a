import type { DbOrTx } from "~/db/client.server";
import { remarketQuotaUsage } from "~/db/schema";

/**
 * Give a tenant a small re-marketing quota for a year (quota refusal and concurrency tests).
 * Written against the provisional counter in services/quota.server.ts; when the billing
 * capability's quota lands, point this one function at its staff quota override instead.
 */
export async function setRemarketQuotaForTests(db: DbOrTx, tenantId: string, quota: number, quotaYear: number) {
  await db
    .insert(remarketQuotaUsage)
    .values({ tenantId, quotaYear, used: 0, quota })
    .onConflictDoUpdate({ target: [remarketQuotaUsage.tenantId, remarketQuotaUsage.quotaYear], set: { quota } });
}
