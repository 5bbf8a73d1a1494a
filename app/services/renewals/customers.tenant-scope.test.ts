import { beforeAll, describe, expect, test } from "vitest";
import { seedFlaggedBook, type ScopedBook } from "../../../tests/support/book-factories";
import { expectTenantScoped, ids, sorted, twoTenants, type TenantPair } from "../../../tests/support/tenant-scope";
import { customerCounts, customerFilterOptions, getCustomerDetail, listCustomers, recentlyMarketed } from "./customers.server";
import { quotesForCustomer } from "./quotes.server";
import { remarketsForCustomer } from "./remarket.server";
import { tasksForCustomer } from "./tasks.server";

// Every list, count and search of customers answers each tenant with its own rows only.
// Read-only: the tests share one pair of tenants (A: 2 customers, 1 re-marketed; B: 3 and 2).
describe("customers: tenant scope", () => {
  let pair: TenantPair<ScopedBook>;
  beforeAll(async () => {
    pair = await twoTenants((t) =>
      seedFlaggedBook(t.ctx, { tag: t.tag, size: 2 + t.index, remarketed: 1 + t.index, state: t.index ? "NY" : "TX" }),
    );
  });

  test("listCustomers: rows and total", async () => {
    await expectTenantScoped(
      pair,
      (me) => listCustomers(me.ctx, {}, 1),
      (r) => ({ ids: ids(r.rows), total: r.total }),
      (me) => ({ ids: sorted(me.seed.customerIds), total: me.seed.customerIds.length }),
    );
  });

  test("listCustomers: a search both tenants' names match", async () => {
    await expectTenantScoped(
      pair,
      (me) => listCustomers(me.ctx, { q: "scope customer" }, 1),
      (r) => ({ ids: ids(r.rows), total: r.total }),
      (me) => ({ ids: sorted(me.seed.customerIds), total: me.seed.customerIds.length }),
    );
  });

  test("listCustomers: active and re-marketed segments", async () => {
    await expectTenantScoped(
      pair,
      async (me) => ({
        active: await listCustomers(me.ctx, { segment: "active" }, 1),
        remarketed: await listCustomers(me.ctx, { segment: "remarketed" }, 1),
      }),
      (r) => ({ active: r.active.total, remarketed: ids(r.remarketed.rows), flagged: r.active.rows.reduce((n, c) => n + c.flagged, 0) }),
      (me) => ({
        active: me.seed.customerIds.length,
        remarketed: sorted(me.seed.customerIds.slice(0, me.seed.remarketIds.length)),
        flagged: me.seed.openFlagIds.length,
      }),
    );
  });

  test("customerCounts", async () => {
    await expectTenantScoped(
      pair,
      (me) => customerCounts(me.ctx),
      (r) => ({ total: r.total, active: r.active, remarketed: r.remarketed }),
      (me) => ({ total: me.seed.customerIds.length, active: me.seed.customerIds.length, remarketed: me.seed.remarketIds.length }),
    );
  });

  test("recentlyMarketed", async () => {
    await expectTenantScoped(
      pair,
      (me) => recentlyMarketed(me.ctx, 50),
      (r) => ids(r, "remarketId"),
      (me) => sorted(me.seed.remarketIds),
    );
  });

  test("customerFilterOptions: states and producers", async () => {
    await expectTenantScoped(
      pair,
      (me) => customerFilterOptions(me.ctx),
      (r) => r,
      (me) => ({ states: [me.index ? "NY" : "TX"], producers: [me.seed.producer] }),
    );
  });

  test("customer detail: policies, re-markets, quotes, tasks and the audit trail", async () => {
    await expectTenantScoped(
      pair,
      (me) => getCustomerDetail(me.ctx, me.seed.customerIds[0]),
      (r) => ({
        policies: ids(r.policies),
        remarkets: ids(r.remarkets),
        quotes: ids(r.quotes),
        tasks: ids(r.tasks),
        audit: r.audit.map((a) => a.action).sort(),
      }),
      (me) => ({
        policies: [me.seed.policyIds[0]],
        remarkets: [me.seed.remarketIds[0]],
        quotes: [me.seed.quoteIds[0]],
        tasks: [me.seed.taskIds[0]],
        audit: ["policy.remarketed", "quote.created"],
      }),
    );
  });

  test("a customer's re-markets, quotes and tasks asked with the other tenant's customer id: nothing", async () => {
    await expectTenantScoped(
      pair,
      async (me, other) => {
        const theirs = other.seed.customerIds[0];
        return {
          remarkets: await remarketsForCustomer(me.ctx, theirs),
          quotes: await quotesForCustomer(me.ctx, theirs),
          tasks: await tasksForCustomer(me.ctx, theirs),
        };
      },
      (r) => r,
      () => ({ remarkets: [], quotes: [], tasks: [] }),
    );
    // The same calls with the tenant's own customer do find its rows (the empty answer above is not vacuous).
    const [a] = pair;
    expect(ids(await remarketsForCustomer(a.ctx, a.seed.customerIds[0]))).toEqual([a.seed.remarketIds[0]]);
  });
});
