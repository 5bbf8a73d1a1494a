import { eq, sql } from "drizzle-orm";
import { describe, expect, test, vi } from "vitest";
import { tenants } from "~/db/schema";
import { createTestTenant } from "../../../tests/support/factories";
import { getEnv } from "~/env.server";
import { getDb, getDriver } from "../client.server";
import { embeddedClientOf } from "./embedded-client.server";
import { embeddedPrepared } from "./prepared.server";
import { copyRows } from "./read-cache.server";

const byName = (db: Parameters<Parameters<typeof embeddedPrepared>[0]["statement"]>[0]) =>
  db
    .select({ name: tenants.name })
    .from(tenants)
    .where(sql`${tenants.id}::text = ${sql.placeholder("id")}`);

const tenantName = embeddedPrepared<{ name: string }>({
  name: "test_tenant_name_v1",
  statement: byName,
  paramType: "text",
  literalPattern: /^[0-9a-f-]{36}$/,
});

const cachedTenantName = embeddedPrepared<{ name: string }>({
  name: "test_cached_tenant_name_v1",
  statement: byName,
  paramType: "text",
  literalPattern: /^[0-9a-f-]{36}$/,
  cached: true,
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

  test("the cache is on for PGlite unless EMBEDDED_READ_CACHE=false, and never on PostgreSQL", async () => {
    const db = await getDb();
    expect(embeddedClientOf(db) !== null).toBe((await getDriver()) === "pglite" && getEnv().EMBEDDED_READ_CACHE);
  });

  test("a statement with any parameter but $1 is refused when it is prepared", async () => {
    const twoParams = embeddedPrepared<{ name: string }>({
      name: "test_two_params_v1",
      statement: () => ({ toSQL: () => ({ sql: "select name from tenants where id::text = $1 or name = $2" }) }),
      paramType: "text",
      literalPattern: /^x$/,
    });
    const db = await getDb();
    if (embeddedClientOf(db)) await expect(twoParams(db, "x")).rejects.toThrow(/exactly one parameter/);
    else expect(await twoParams(db, "x")).toBeNull();
  });

  test("a parameter that does not match the literal pattern is refused before it reaches SQL", async () => {
    const db = await getDb();
    await expect(tenantName(db, "x'); drop table tenants; --")).rejects.toThrow(/refused parameter/);
  });
});

describe("cached reads on the embedded database", () => {
  test("a repeated read is answered from memory, and any statement in between makes it read again", async () => {
    const { tenant } = await createTestTenant({ name: "Cached Agency" });
    const db = await getDb();
    const client = embeddedClientOf(db);
    if (!client) {
      expect(await cachedTenantName(db, tenant.id)).toBeNull(); // PostgreSQL: never cached here
      return;
    }
    // The first call also PREPAREs the statement (a statement of its own), so the second one is kept.
    await cachedTenantName(db, tenant.id);
    expect(await cachedTenantName(db, tenant.id)).toEqual([{ name: "Cached Agency" }]);
    const realExec = client.exec.bind(client);
    const exec = vi.spyOn(client, "exec");
    try {
      expect(await cachedTenantName(db, tenant.id)).toEqual([{ name: "Cached Agency" }]);
      expect(exec).not.toHaveBeenCalled();

      await db.update(tenants).set({ name: "Renamed Agency" }).where(eq(tenants.id, tenant.id));
      expect(await cachedTenantName(db, tenant.id)).toEqual([{ name: "Renamed Agency" }]);
      expect(exec).toHaveBeenCalledTimes(1);

      // A write that lands while a read is on its way back: that read is answered but not kept.
      exec.mockImplementationOnce(async (query) => {
        const result = await realExec(query);
        await db.update(tenants).set({ name: "Renamed Mid-read" }).where(eq(tenants.id, tenant.id));
        return result;
      });
      await db.update(tenants).set({ name: "Renamed Again" }).where(eq(tenants.id, tenant.id));
      expect(await cachedTenantName(db, tenant.id)).toEqual([{ name: "Renamed Again" }]);
      expect(await cachedTenantName(db, tenant.id)).toEqual([{ name: "Renamed Mid-read" }]);
      expect(exec).toHaveBeenCalledTimes(3);
      await db.update(tenants).set({ name: "Renamed Agency" }).where(eq(tenants.id, tenant.id));
      expect(await cachedTenantName(db, tenant.id)).toEqual([{ name: "Renamed Agency" }]);
      expect(exec).toHaveBeenCalledTimes(4);

      // After a transaction that rolled back, the next call reads again and finds the committed name.
      await db
        .transaction(async (tx) => {
          await tx.update(tenants).set({ name: "Never Committed" }).where(eq(tenants.id, tenant.id));
          tx.rollback();
        })
        .catch(() => {});
      expect(await cachedTenantName(db, tenant.id)).toEqual([{ name: "Renamed Agency" }]);
      expect(exec).toHaveBeenCalledTimes(5);
    } finally {
      exec.mockRestore();
    }
  });

  test("callers get copies: changing what one got does not change what the next gets", async () => {
    const { tenant } = await createTestTenant({ name: "Copied Agency" });
    const db = await getDb();
    const first = await cachedTenantName(db, tenant.id);
    if (!first) return expect(embeddedClientOf(db)).toBeNull();
    first[0].name = "Changed by a caller";
    const second = await cachedTenantName(db, tenant.id);
    expect(second).toEqual([{ name: "Copied Agency" }]);
    second![0].name = "Changed again";
    expect(await cachedTenantName(db, tenant.id)).toEqual([{ name: "Copied Agency" }]);
  });

  test("rows are copied deeply: objects, arrays, dates and bytes", () => {
    const rows = [{ when: new Date(0), tags: ["a"], nested: { n: 1 }, bytes: Uint8Array.of(1, 2), none: null }];
    const copy = copyRows(rows);
    expect(copy).toEqual(rows);
    expect(copy[0].when).not.toBe(rows[0].when);
    expect(copy[0].tags).not.toBe(rows[0].tags);
    expect(copy[0].nested).not.toBe(rows[0].nested);
    expect(copy[0].bytes).not.toBe(rows[0].bytes);
  });
});
