import { beforeAll, describe, expect, test } from "vitest";
import { seedFlaggedBook, type ScopedBook } from "../../../tests/support/book-factories";
import { expectTenantScoped, ids, sorted, twoTenants, type TenantPair } from "../../../tests/support/tenant-scope";
import { NotFoundError } from "../platform/errors.server";
import { getRemarket, listRemarkets, markLost, quotesForPolicy } from "./quotes.server";

type Seed = ScopedBook & { closedIds: string[] };

// Re-marketed policies and their quotes (the /quotes list, seed qoutes/…) are each tenant's own.
describe("re-markets and quotes: tenant scope", () => {
  let pair: TenantPair<Seed>;
  beforeAll(async () => {
    pair = await twoTenants(async (t) => {
      const book = await seedFlaggedBook(t.ctx, { tag: t.tag, size: 3, remarketed: 2 + t.index });
      // One closed re-market in each tenant, so the open and closed lists both have rows.
      await markLost(t.ctx, book.remarketIds[0]);
      return { ...book, closedIds: [book.remarketIds[0]] };
    });
  });

  test("listRemarkets: all, open and closed, with totals and quote counts", async () => {
    await expectTenantScoped(
      pair,
      async (me) => ({
        all: await listRemarkets(me.ctx, { status: "all", page: 1 }),
        open: await listRemarkets(me.ctx, { status: "open", page: 1 }),
        closed: await listRemarkets(me.ctx, { status: "closed", page: 1 }),
      }),
      (r) => ({
        all: ids(r.all.rows),
        allTotal: r.all.total,
        quotes: r.all.rows.reduce((n, row) => n + row.quotes, 0),
        open: ids(r.open.rows),
        openTotal: r.open.total,
        closed: ids(r.closed.rows),
        closedTotal: r.closed.total,
      }),
      (me) => {
        const open = me.seed.remarketIds.filter((id) => !me.seed.closedIds.includes(id));
        return {
          all: sorted(me.seed.remarketIds),
          allTotal: me.seed.remarketIds.length,
          quotes: me.seed.quoteIds.length,
          open: sorted(open),
          openTotal: open.length,
          closed: sorted(me.seed.closedIds),
          closedTotal: me.seed.closedIds.length,
        };
      },
    );
  });

  test("quotes of a policy and of a re-market", async () => {
    await expectTenantScoped(
      pair,
      async (me) => ({
        policy: await quotesForPolicy(me.ctx, me.seed.policyIds[1]),
        remarket: await getRemarket(me.ctx, me.seed.remarketIds[1]),
      }),
      (r) => ({ policy: ids(r.policy), remarket: ids(r.remarket.quotes) }),
      (me) => ({ policy: [me.seed.quoteIds[1]], remarket: [me.seed.quoteIds[1]] }),
    );
  });

  test("the other tenant's policy has no quotes for me: it is not found", async () => {
    const [a, b] = pair;
    await expect(quotesForPolicy(a.ctx, b.seed.policyIds[1])).rejects.toBeInstanceOf(NotFoundError);
    await expect(quotesForPolicy(b.ctx, a.seed.policyIds[1])).rejects.toBeInstanceOf(NotFoundError);
  });
});
