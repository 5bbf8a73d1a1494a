import { describe, expect, test } from "vitest";
import { connections, remarketUsage } from "~/db/schema";
import { createCustomer, createPolicy } from "../../../tests/support/book-factories";
import { createTestTenant, makeRequest, sessionCookieFor } from "../../../tests/support/factories";
import { setRemarketQuotaForTests } from "../../../tests/support/quota";
import { loader } from "~/routes/_app._index";
import { getDashboard } from "./dashboard.server";
import { recomputeForecast } from "./forecast.server";

// The tenant's clock: 1 March 2026, noon in New York.
const NOW = new Date("2026-03-01T17:00:00Z");
const TZ = "America/New_York";

describe("dashboard", () => {
  test("an agency without data: nothing to count, the trial's quota, the empty state", async () => {
    const { db, tenant } = await createTestTenant();
    const d = await getDashboard({ db, tenantId: tenant.id, timeZone: TZ, now: () => NOW });
    expect(d).toMatchObject({
      hasBook: false,
      forecast: { dueSoon: 0, open: 0, computedAt: null },
      quota: { year: 2026, used: 0 },
      connections: { total: 0, inError: 0, unfinished: 0, lastSyncAt: null },
    });
    expect(d.quota.quota).toBeGreaterThan(0);
  });

  test("figures asked again and again (kept in memory on the embedded database) change as soon as the data does", async () => {
    const { db, tenant } = await createTestTenant();
    const ask = () => getDashboard({ db, tenantId: tenant.id, timeZone: TZ, now: () => NOW });
    for (let i = 0; i < 3; i++) expect((await ask()).connections.total).toBe(0);
    await db.insert(connections).values({ tenantId: tenant.id, integrationId: "ezlynx", name: "EZLynx", status: "error" });
    expect((await ask()).connections).toMatchObject({ total: 1, inError: 1 });
    await db.insert(remarketUsage).values({ tenantId: tenant.id, quotaYear: 2026, used: 4 });
    expect((await ask()).quota.used).toBe(4);
    expect((await ask()).quota.used).toBe(4);
  });

  test("forecast due in 30 days, quota use, connections health — this tenant's only", async () => {
    const { db, tenant } = await createTestTenant();
    await setRemarketQuotaForTests(db, tenant.id, 40);
    await db.insert(remarketUsage).values({ tenantId: tenant.id, quotaYear: 2026, used: 10 });
    await db.insert(remarketUsage).values({ tenantId: tenant.id, quotaYear: 2025, used: 33 });
    // Flagged: +20 % renewals in 10, 25 and 45 days (act within 60 days); each its own customer.
    for (const expirationDate of ["2026-03-11", "2026-03-26", "2026-04-15"]) {
      const c = await createCustomer(db, tenant.id);
      await createPolicy(db, tenant.id, { customerId: c.id, expirationDate, premium: 1000, renewalPremium: 1200 });
    }
    await recomputeForecast({ db, tenantId: tenant.id, now: () => NOW });
    await db.insert(connections).values([
      { tenantId: tenant.id, integrationId: "ezlynx", name: "EZLynx", status: "connected", lastSyncAt: new Date("2026-02-27T15:00:00Z") },
      { tenantId: tenant.id, integrationId: "hawksoft", name: "HawkSoft", status: "error", lastSyncAt: new Date("2026-02-28T15:00:00Z") },
      // Set up but never connected: counted, and said so, but not in error.
      { tenantId: tenant.id, integrationId: "appliedepic", name: "Epic", status: "not_connected" },
      {
        tenantId: tenant.id,
        integrationId: "csv",
        name: "Old export",
        status: "disconnected",
        lastSyncAt: new Date("2026-03-01T12:00:00Z"),
      },
    ]);

    // Another agency with its own book, flags, usage and a broken connection: none of it shows.
    const other = await createTestTenant();
    const oc = await createCustomer(db, other.tenant.id);
    await createPolicy(db, other.tenant.id, { customerId: oc.id, expirationDate: "2026-03-05", premium: 1000, renewalPremium: 1500 });
    await recomputeForecast({ db, tenantId: other.tenant.id, now: () => NOW });
    await db.insert(remarketUsage).values({ tenantId: other.tenant.id, quotaYear: 2026, used: 7 });
    await db.insert(connections).values({
      tenantId: other.tenant.id,
      integrationId: "ezlynx",
      name: "Theirs",
      status: "error",
      lastSyncAt: new Date("2026-03-01T15:00:00Z"),
    });

    const d = await getDashboard({ db, tenantId: tenant.id, timeZone: TZ, now: () => NOW });
    expect(d).toMatchObject({
      hasBook: true,
      forecast: { dueSoon: 2, dueSoonCapped: false, open: 3, openCapped: false, dueDays: 30 },
      quota: { year: 2026, used: 10, quota: 40, pct: 25 },
      connections: { total: 3, inError: 1, unfinished: 1 },
    });
    expect(d.forecast.computedAt).toEqual(NOW);
    expect(d.connections.lastSyncAt).toEqual(new Date("2026-02-28T15:00:00Z"));
  });

  test("due soon: expiring today and exactly 30 days out count, 31 days out does not", async () => {
    const { db, tenant } = await createTestTenant();
    // Act within 60 days, so all three are flagged; only the first two are due within 30.
    for (const expirationDate of ["2026-03-01", "2026-03-31", "2026-04-01"]) {
      const c = await createCustomer(db, tenant.id);
      await createPolicy(db, tenant.id, { customerId: c.id, expirationDate, premium: 1000, renewalPremium: 1200 });
    }
    await recomputeForecast({ db, tenantId: tenant.id, now: () => NOW });
    const d = await getDashboard({ db, tenantId: tenant.id, timeZone: TZ, now: () => NOW });
    expect(d.forecast).toMatchObject({ dueSoon: 2, open: 3, dueDays: 30 });
  });

  test("the route serves the signed-in agency's dashboard (one service call)", async () => {
    const { db, tenant, user } = await createTestTenant();
    const c = await createCustomer(db, tenant.id);
    await createPolicy(db, tenant.id, { customerId: c.id, expirationDate: "2026-06-01" });
    await setRemarketQuotaForTests(db, tenant.id, 50);
    const response = await loader({ request: makeRequest("/", { cookie: await sessionCookieFor(user) }), params: {}, context: {} });
    const data = (response instanceof Response ? await response.json() : response) as Awaited<ReturnType<typeof loader>>;
    expect(data).toMatchObject({ hasBook: true, quota: { used: 0, quota: 50, pct: 0 }, connections: { total: 0 } });
  });
});
