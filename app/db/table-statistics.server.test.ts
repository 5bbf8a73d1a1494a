import { sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { queryRows } from "~/db/rows.server";
import { seedBookDemo } from "~/services/renewals/book-demo.server";
import { createTestTenant } from "../../tests/support/factories";
import { refreshTableStatistics } from "./table-statistics.server";

const onPostgres = Boolean(process.env.DATABASE_URL);

async function plan(db: Parameters<typeof queryRows>[0], tenantId: string) {
  // Index scans only, so the plan shows whether the table itself was still read.
  await db.execute(sql`set enable_seqscan = off`);
  await db.execute(sql`set enable_bitmapscan = off`);
  try {
    const rows = await queryRows<{ "QUERY PLAN": string }>(
      db,
      sql`explain (analyze, buffers false) select count(distinct customer_id) from policies where tenant_id = ${tenantId} and status = 'active'`,
    );
    return rows.map((r) => r["QUERY PLAN"]).join("\n");
  } finally {
    await db.execute(sql`reset enable_seqscan`);
    await db.execute(sql`reset enable_bitmapscan`);
  }
}

describe("refreshing the book's table statistics after bulk writes", () => {
  test("the planner learns the new row counts", async () => {
    const { db, tenant, user } = await createTestTenant();
    await seedBookDemo({ db, tenantId: tenant.id, userId: user.id, now: new Date() });
    await refreshTableStatistics(db);
    const [row] = await queryRows<{ reltuples: number | string }>(db, sql`select reltuples from pg_class where relname = 'policies'`);
    const [{ n }] = await queryRows<{ n: number | string }>(db, sql`select count(*) as n from policies where tenant_id = ${tenant.id}`);
    // At least this agency's book (other test files may write to the same server meanwhile).
    expect(Number(n)).toBeGreaterThan(50);
    expect(Number(row.reltuples)).toBeGreaterThanOrEqual(Number(n));
  });

  test("the embedded database (no autovacuum) is vacuumed too: an index-only count stops reading the table", async () => {
    const { db, tenant, user } = await createTestTenant();
    await seedBookDemo({ db, tenantId: tenant.id, userId: user.id, now: new Date() });
    if (!onPostgres) expect(await plan(db, tenant.id)).toMatch(/Index Only Scan[\s\S]*Heap Fetches: [1-9]/);
    await refreshTableStatistics(db);
    if (onPostgres) {
      // A server's autovacuum keeps the visibility map; the refresh only analyzes.
      const [stats] = await queryRows<{ last_analyze: string | null }>(
        db,
        sql`select last_analyze from pg_stat_user_tables where relname = 'policies'`,
      );
      expect(stats.last_analyze).not.toBeNull();
    } else expect(await plan(db, tenant.id)).toMatch(/Index Only Scan[\s\S]*Heap Fetches: 0\b/);
  });
});
