import { eq } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { billingAccounts } from "~/db/schema";
import { readBillingState } from "~/services/billing/billing-account.server";

/**
 * Give a tenant a small re-marketing quota (quota refusal and concurrency tests), through the
 * billing capability's staff quota override. `quotaYear` is kept for callers' readability: the
 * override applies to every year until cleared.
 */
export async function setRemarketQuotaForTests(db: DbOrTx, tenantId: string, quota: number, _quotaYear?: number) {
  await readBillingState(db, tenantId); // creates the billing account of an older tenant
  await db.update(billingAccounts).set({ annualQuotaOverride: quota }).where(eq(billingAccounts.tenantId, tenantId));
}
