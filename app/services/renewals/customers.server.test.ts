import { describe, expect, test } from "vitest";
import { createCustomer, createPolicy } from "../../../tests/support/book-factories";
import { createTestTenant } from "../../../tests/support/factories";
import { customerCounts, customerFilterOptions, listCustomers } from "./customers.server";
import { recomputeForecast } from "./forecast.server";

describe("customer list facts", () => {
  test("filter choices: each distinct state and producer once, sorted, blanks left out", async () => {
    const { db, tenant } = await createTestTenant();
    for (const [state, producer] of [
      ["TX", "Sam Producer"],
      ["OK", "Ana Ruiz"],
      ["TX", "Ana Ruiz"],
      [null, null],
      ["AR", "Tom Becker"],
      ["OK", null],
    ] as const) {
      await createCustomer(db, tenant.id, { state, producer });
    }
    expect(await customerFilterOptions({ db, tenantId: tenant.id })).toEqual({
      states: ["AR", "OK", "TX"],
      producers: ["Ana Ruiz", "Sam Producer", "Tom Becker"],
    });
    const empty = await createTestTenant();
    expect(await customerFilterOptions({ db, tenantId: empty.tenant.id })).toEqual({ states: [], producers: [] });
  });

  test("counts: customers, customers with an active policy (each once), re-marketed this year", async () => {
    const { db, tenant } = await createTestTenant();
    const a = await createCustomer(db, tenant.id);
    const b = await createCustomer(db, tenant.id);
    await createCustomer(db, tenant.id);
    await createPolicy(db, tenant.id, { customerId: a.id });
    await createPolicy(db, tenant.id, { customerId: a.id });
    await createPolicy(db, tenant.id, { customerId: b.id, status: "cancelled" });
    expect(await customerCounts({ db, tenantId: tenant.id, now: () => new Date("2026-03-01T12:00:00Z") })).toEqual({
      total: 3,
      active: 1,
      remarketed: 0,
      year: 2026,
      countedAt: null,
    });
  });

  test("counts: once the forecast has run, its counts (and when) until the next computation; re-marketed as it stands", async () => {
    const { db, tenant } = await createTestTenant();
    const a = await createCustomer(db, tenant.id);
    await createPolicy(db, tenant.id, { customerId: a.id });
    await createCustomer(db, tenant.id);
    const computedAt = new Date("2026-03-01T08:00:00Z");
    await recomputeForecast({ db, tenantId: tenant.id, now: () => computedAt });
    const ctx = { db, tenantId: tenant.id, now: () => new Date("2026-03-01T12:00:00Z") };
    expect(await customerCounts(ctx)).toEqual({ total: 2, active: 1, remarketed: 0, year: 2026, countedAt: computedAt });

    // Imported after the computation: counted by the next one (which every import asks for).
    const c = await createCustomer(db, tenant.id);
    await createPolicy(db, tenant.id, { customerId: c.id });
    expect(await customerCounts(ctx)).toMatchObject({ total: 2, active: 1 });
    const next = new Date("2026-03-01T09:00:00Z");
    await recomputeForecast({ db, tenantId: tenant.id, now: () => next });
    expect(await customerCounts(ctx)).toMatchObject({ total: 3, active: 2, countedAt: next });

    // The unfiltered list's total is the card's; a filtered one is counted.
    expect((await listCustomers(ctx, {}, 1, {}, 3)).total).toBe(3);
    expect((await listCustomers(ctx, { segment: "active" }, 1, {}, 3)).total).toBe(2);
  });
});
