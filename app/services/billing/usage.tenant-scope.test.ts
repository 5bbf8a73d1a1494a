import { randomUUID } from "node:crypto";
import { describe, test } from "vitest";
import { billingPaymentMethods } from "~/db/schema";
import { seedFlaggedBook } from "../../../tests/support/book-factories";
import { expectTenantScoped, ids, sorted, twoTenants } from "../../../tests/support/tenant-scope";
import { listPaymentMethods } from "./billing-account.server";
import { getRemarketAllowance } from "./quota.server";
import { getMonthlyUsage, getRemarketUsage } from "./usage.server";

// Quota usage (seed remarket-usage, monthly-usage) and payment methods count the tenant's own only.
describe("usage and billing: tenant scope", () => {
  test("remarket usage, the monthly chart and the quota allowance", async () => {
    const pair = await twoTenants((t) => seedFlaggedBook(t.ctx, { tag: t.tag, size: 3, remarketed: 1 + t.index }));
    await expectTenantScoped(
      pair,
      async (me) => {
        const usage = await getRemarketUsage(me.ctx);
        return {
          usage,
          monthly: await getMonthlyUsage(me.ctx, { year: usage.quotaYear }),
          allowance: await getRemarketAllowance(me.db, me.tenant.id),
        };
      },
      (r) => ({ used: r.usage.currentYearUsage, remaining: r.usage.remaining, monthly: r.monthly.total, allowance: r.allowance.used }),
      (me) => ({
        used: me.seed.remarketIds.length,
        remaining: 25 - me.seed.remarketIds.length,
        monthly: me.seed.remarketIds.length,
        allowance: me.seed.remarketIds.length,
      }),
    );
  });

  test("payment methods", async () => {
    const pair = await twoTenants(async (t) => {
      const rows = await t.db
        .insert(billingPaymentMethods)
        .values(
          Array.from({ length: 1 + t.index }, (_, i) => ({
            tenantId: t.tenant.id,
            providerId: `pm_${randomUUID()}`,
            brand: "visa",
            last4: String(4242 + i),
            syncedAt: new Date(),
          })),
        )
        .returning({ id: billingPaymentMethods.id });
      return { ids: rows.map((r) => r.id) };
    });
    await expectTenantScoped(
      pair,
      (me) => listPaymentMethods(me.db, me.tenant.id),
      (r) => ids(r),
      (me) => sorted(me.seed.ids),
    );
  });
});
