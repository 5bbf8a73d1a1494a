import { and, count, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { customers, policies, quotes, remarkets, renewalFlags, tasks, tenantCarriers } from "~/db/schema";
import { createDemoTenant } from "../platform/demo-data.server";
import { formatPhone } from "~/utils/format";
import { seededRandom } from "~/utils/seeded-random";

describe("demo book of business", () => {
  // How fast it seeds is not asserted here (a timed unit test fails on a loaded machine, not on a slow
  // seed); the "Try the demo" page is exercised end to end by the e2e suite.
  test("a realistic, deterministic agency", async () => {
    const db = await getDb();
    const user = await createDemoTenant(db);
    const n = async (table: typeof customers | typeof policies | typeof remarkets | typeof quotes | typeof tasks | typeof tenantCarriers) =>
      (await db.select({ n: count() }).from(table).where(eq(table.tenantId, user.tenantId)))[0].n;
    expect(await n(customers)).toBe(60);
    const [{ active }] = await db
      .select({ active: count() })
      .from(policies)
      .where(and(eq(policies.tenantId, user.tenantId), eq(policies.status, "active")));
    expect(active).toBeGreaterThanOrEqual(130);
    expect(active).toBeLessThanOrEqual(170);
    expect(await n(remarkets)).toBe(6);
    expect(await n(quotes)).toBeGreaterThanOrEqual(10);
    expect(await n(tasks)).toBe(6);
    expect(await n(tenantCarriers)).toBe(8);
    const [{ open }] = await db
      .select({ open: count() })
      .from(renewalFlags)
      .where(and(eq(renewalFlags.tenantId, user.tenantId), eq(renewalFlags.status, "open")));
    expect(open).toBeGreaterThanOrEqual(8);
  });

  test("every customer's phone number is a real one, shown in national format", async () => {
    const db = await getDb();
    const user = await createDemoTenant(db);
    const rows = await db.select({ phone: customers.phone }).from(customers).where(eq(customers.tenantId, user.tenantId));
    const shown = rows.map((r) => formatPhone(r.phone));
    expect(shown.length).toBe(60);
    expect(shown.filter((p) => !/^\(\d{3}\) \d{3}-\d{4}$/.test(p))).toEqual([]);
  });

  test("the PRNG is deterministic", () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
  });
});
