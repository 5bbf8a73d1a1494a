import { eq } from "drizzle-orm";
import { beforeAll, describe, test } from "vitest";
import { bulkActions } from "~/db/schema";
import { seedFlaggedBook, type ScopedBook } from "../../../tests/support/book-factories";
import { expectTenantScoped, ids, sorted, twoTenants, type TenantPair } from "../../../tests/support/tenant-scope";
import { quotaYearOf } from "../billing/quota.server";
import { markLost, selectQuote } from "./quotes.server";
import { bulkLog, quotaReturn, retentionBy } from "./reports.server";
import { logBulkAction } from "./worklist.server";

type Seed = ScopedBook & { bulkIds: string[] };

const ALWAYS = { from: "2000-01-01", to: "2100-01-01" };

// Reports aggregate only the tenant's own re-markets and bulk actions. A re-writes one re-market
// ($1,400 renewal, $1,200 bound: $200 saved); B re-writes one and loses one.
describe("reports: tenant scope", () => {
  let pair: TenantPair<Seed>;
  beforeAll(async () => {
    pair = await twoTenants(async (t) => {
      const book = await seedFlaggedBook(t.ctx, { tag: t.tag, size: 3, remarketed: 1 + t.index });
      await selectQuote(t.ctx, book.quoteIds[0]);
      if (t.index) await markLost(t.ctx, book.remarketIds[1]);
      for (let i = 0; i <= t.index; i++)
        await logBulkAction(t.ctx, { action: "dismiss", requested: 2, succeeded: 2, failures: [], details: `Reason ${t.tag}` });
      const bulk = await t.db.select({ id: bulkActions.id }).from(bulkActions).where(eq(bulkActions.tenantId, t.tenant.id));
      return { ...book, bulkIds: bulk.map((b) => b.id) };
    });
  });

  test("retention by carrier and by producer", async () => {
    await expectTenantScoped(
      pair,
      async (me) => ({ carrier: await retentionBy(me.ctx, "carrier", ALWAYS), producer: await retentionBy(me.ctx, "producer", ALWAYS) }),
      (r) => r,
      (me) => {
        const row = { renewed: 0, rewritten: 1, lost: me.index, retainedPremium: 1200, lostPremium: me.index ? 1400 : 0 };
        return { carrier: [{ key: me.seed.carrier, ...row }], producer: [{ key: me.seed.producer, ...row }] };
      },
    );
  });

  test("quota return over the year: used, rewrites and premium saved", async () => {
    const year = quotaYearOf(new Date(), "America/New_York");
    await expectTenantScoped(
      pair,
      (me) => quotaReturn(me.ctx, year),
      (months) => ({
        used: months.reduce((n, m) => n + m.used, 0),
        rewrites: months.reduce((n, m) => n + m.rewrites, 0),
        savedVsOffer: months.reduce((n, m) => n + m.savedVsOffer, 0),
        savedVsCurrent: months.reduce((n, m) => n + m.savedVsCurrent, 0),
      }),
      (me) => ({ used: me.seed.remarketIds.length, rewrites: 1, savedVsOffer: 200, savedVsCurrent: 0 }),
    );
  });

  test("the bulk action log: entries and total", async () => {
    await expectTenantScoped(
      pair,
      (me) => bulkLog(me.ctx, 1),
      (r) => ({ ids: ids(r.rows), total: r.total }),
      (me) => ({ ids: sorted(me.seed.bulkIds), total: me.seed.bulkIds.length }),
    );
  });
});
