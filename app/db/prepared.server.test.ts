import { sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { tenants } from "~/db/schema";
import { createTestTenant } from "../../tests/support/factories";
import { embeddedClientOf, getDb } from "./client.server";
import { embeddedPrepared } from "./prepared.server";

const tenantName = embeddedPrepared<{ name: string }>({
  name: "test_tenant_name_v1",
  statement: (db) => db.select({ name: tenants.name }).from(tenants).where(sql`${tenants.id}::text = ${sql.placeholder("id")}`),
  paramType: "text",
  literalPattern: /^[0-9a-f-]{36}$/,
});

describe("statements prepared once on the embedded database", () => {
  test("run on PGlite and give the same rows as the query builder; on PostgreSQL the caller's path runs", async () => {
    const { tenant } = await createTestTenant({ name: "Prepared Agency" });
    const db = await getDb();
    const first = await tenantName(db, tenant.id);
    const again = await tenantName(db, tenant.id);
    if (embeddedClientOf(db)) {
      expect(first).toEqual([{ name: "Prepared Agency" }]);
      expect(again).toEqual(first);
    } else {
      expect(first).toBeNull();
    }
  });

  test("a parameter that does not match the literal pattern is refused before it reaches SQL", async () => {
    const db = await getDb();
    await expect(tenantName(db, "x'); drop table tenants; --")).rejects.toThrow(/refused parameter/);
  });
});
