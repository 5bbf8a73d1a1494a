import { beforeAll, describe, expect, test } from "vitest";
import { seedFlaggedBook, type ScopedBook } from "../../../tests/support/book-factories";
import { expectTenantScoped, ids, sorted, twoTenants, type TenantPair } from "../../../tests/support/tenant-scope";
import { WORKLIST_SORTS, listWorklist } from "./worklist.server";

// The renewals worklist (rows, capped total, filter choices) answers each tenant with its own flags.
describe("worklist: tenant scope", () => {
  let pair: TenantPair<ScopedBook>;
  beforeAll(async () => {
    pair = await twoTenants((t) => seedFlaggedBook(t.ctx, { tag: t.tag, size: 3 + t.index, remarketed: 1, state: t.index ? "NY" : "TX" }));
  });

  test("open rows, total and filter choices", async () => {
    await expectTenantScoped(
      pair,
      (me) => listWorklist(me.ctx, { status: "open" }, 1),
      (r) => ({ ids: ids(r.rows), total: r.total, capped: r.capped, options: r.options, computed: r.computedAt !== null }),
      (me) => ({
        ids: sorted(me.seed.openFlagIds),
        total: me.seed.openFlagIds.length,
        capped: false,
        options: { carriers: [me.seed.carrier], lines: ["HOME"], producers: [me.seed.producer], states: [me.index ? "NY" : "TX"] },
        computed: true,
      }),
    );
  });

  test("a search both tenants' rows match, and the re-marketed status", async () => {
    await expectTenantScoped(
      pair,
      async (me) => ({
        search: await listWorklist(me.ctx, { status: "open", q: "scope customer" }, 1),
        remarketed: await listWorklist(me.ctx, { status: "remarketed" }, 1),
      }),
      (r) => ({
        search: ids(r.search.rows),
        searchTotal: r.search.total,
        remarketed: ids(r.remarketed.rows, "remarketId"),
        remarketedTotal: r.remarketed.total,
      }),
      (me) => ({
        search: sorted(me.seed.openFlagIds),
        searchTotal: me.seed.openFlagIds.length,
        remarketed: sorted(me.seed.remarketIds),
        remarketedTotal: me.seed.remarketIds.length,
      }),
    );
  });

  test("filtering by the other tenant's carrier or producer finds nothing", async () => {
    await expectTenantScoped(
      pair,
      async (me, other) => ({
        carrier: await listWorklist(me.ctx, { status: "open", carrier: other.seed.carrier }, 1),
        producer: await listWorklist(me.ctx, { status: "open", producer: other.seed.producer }, 1),
      }),
      (r) => ({ carrier: r.carrier.total, producer: r.producer.total, rows: [...r.carrier.rows, ...r.producer.rows] }),
      () => ({ carrier: 0, producer: 0, rows: [] }),
    );
    const [a] = pair;
    expect((await listWorklist(a.ctx, { status: "open", carrier: a.seed.carrier }, 1)).total).toBe(a.seed.openFlagIds.length);
  });

  test("every sort order (?sort=) lists only the tenant's own rows, in that order", async () => {
    const column = { expiry: "expirationDate", premium: "renewalPremium", change_pct: "changePct", change_amount: "changeAmount" } as const;
    for (const sort of WORKLIST_SORTS) {
      await expectTenantScoped(
        pair,
        (me) => listWorklist(me.ctx, { status: "open" }, 1, sort),
        (r) => {
          const key = column[sort.replace(/^-/, "") as keyof typeof column];
          const values = r.rows.map((row) => (key === "expirationDate" ? Date.parse(row[key]) : Number(row[key])));
          const inOrder = values.every((v, i) => i === 0 || (sort.startsWith("-") ? values[i - 1] >= v : values[i - 1] <= v));
          return { ids: ids(r.rows), inOrder };
        },
        (me) => ({ ids: sorted(me.seed.openFlagIds), inOrder: true }),
      );
    }
  });
});
