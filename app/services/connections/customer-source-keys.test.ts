import { and, eq, sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { customers, policies } from "~/db/schema";
import { createTestTenant } from "../../../tests/support/factories";
import { createReadyFileConnection } from "./connection-fixtures.server";
import { disconnectConnection } from "./connections.server";
import { importedCounts, runImport, startImport } from "./imports.server";

// Customer and policy source keys are unique per connection (docs/decisions/009-customer-source-keys.md).

async function tenantCounts(db: Awaited<ReturnType<typeof createTestTenant>>["db"], tenantId: string) {
  const [c] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(customers)
    .where(eq(customers.tenantId, tenantId));
  const [p] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(policies)
    .where(eq(policies.tenantId, tenantId));
  return { customers: c.n, policies: p.n };
}

describe("customer source keys", () => {
  test("two live connections with the same client numbers keep separate customers", async () => {
    const { ctx, db, tenant } = await createTestTenant();
    const ams = await createReadyFileConnection(ctx, { policies: 120, seed: 11, name: "AMS export" });
    const crm = await createReadyFileConnection(ctx, { policies: 120, seed: 11, integrationId: "csv", name: "Office 2 export" });
    await runImport(db, await startImport(ctx, ams.id), { batchSize: 50 });
    const amsCounts = await importedCounts(db, tenant.id, ams.id);
    await runImport(db, await startImport(ctx, crm.id), { batchSize: 50 });
    // The second import did not take the first one's customers over: each connection has its own.
    expect(await importedCounts(db, tenant.id, ams.id)).toEqual(amsCounts);
    expect(await importedCounts(db, tenant.id, crm.id)).toEqual(amsCounts);
    expect(await tenantCounts(db, tenant.id)).toEqual({ customers: amsCounts.customers * 2, policies: amsCounts.policies * 2 });
    const [sample] = await db.select({ key: customers.sourceKey }).from(customers).where(eq(customers.connectionId, ams.id)).limit(1);
    const sameKey = await db
      .select({ connectionId: customers.connectionId })
      .from(customers)
      .where(and(eq(customers.tenantId, tenant.id), eq(customers.sourceKey, sample.key)));
    expect(new Set(sameKey.map((r) => r.connectionId))).toEqual(new Set([ams.id, crm.id]));
  });

  test("the same source connected again (after a disconnect that kept the data) updates its customers instead of doubling them", async () => {
    const { ctx, db, tenant } = await createTestTenant();
    const first = await createReadyFileConnection(ctx, { policies: 100, seed: 5, name: "EZLynx" });
    await runImport(db, await startImport(ctx, first.id), { batchSize: 40 });
    const before = await tenantCounts(db, tenant.id);
    const [customer] = await db.select({ id: customers.id }).from(customers).where(eq(customers.connectionId, first.id)).limit(1);
    await disconnectConnection(ctx, first.id, { deleteData: false });

    const again = await createReadyFileConnection(ctx, { policies: 100, seed: 5, name: "EZLynx again" });
    await runImport(db, await startImport(ctx, again.id), { batchSize: 40 });
    expect(await tenantCounts(db, tenant.id)).toEqual(before);
    expect(await importedCounts(db, tenant.id, again.id)).toEqual(before);
    const [kept] = await db.select({ connectionId: customers.connectionId }).from(customers).where(eq(customers.id, customer.id));
    expect(kept.connectionId).toBe(again.id); // the same row (its remarkets, tasks and quotes stay attached)
  });

  test("another integration connected after a disconnect does not take the old data over", async () => {
    const { ctx, db, tenant } = await createTestTenant();
    const first = await createReadyFileConnection(ctx, { policies: 60, seed: 3 });
    await runImport(db, await startImport(ctx, first.id), { batchSize: 40 });
    await disconnectConnection(ctx, first.id, { deleteData: false });
    const other = await createReadyFileConnection(ctx, { policies: 60, seed: 3, integrationId: "csv" });
    await runImport(db, await startImport(ctx, other.id), { batchSize: 40 });
    const counts = await importedCounts(db, tenant.id, first.id);
    expect(counts.policies).toBeGreaterThan(50);
    expect(await importedCounts(db, tenant.id, other.id)).toEqual(counts);
  });
});
