import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { connections, customers, importRuns, jobs, policies, users } from "~/db/schema";
import { createTestTenant } from "../../../tests/support/factories";
import { startSalesforceStandIn, standInPolicies, type SalesforceStandIn } from "../../../tests/support/salesforce-stand-in";
import { createReadyFileConnection } from "./connection-fixtures.server";
import { defaultMapping } from "./connection-mapping.server";
import { connectorOf, disconnectConnection, getConnectionState, saveConnectionSettings, saveConnectionState } from "./connections.server";
import { setConnectorOptionsForTests } from "./connectors/index.server";
import { createDemoTenant } from "../platform/demo-data.server";
import { importedCounts, runImport, scheduleDueSyncs, startImport } from "./imports.server";
import { getIntegration } from "~/utils/integrations";

let sf: SalesforceStandIn;
beforeAll(async () => {
  sf = await startSalesforceStandIn({ records: standInPolicies(45), pageSize: 20 });
  setConnectorOptionsForTests({ sleep: async () => {} });
});
afterAll(async () => {
  setConnectorOptionsForTests({});
  await sf.close();
});

async function salesforceConnection(ctx: Awaited<ReturnType<typeof createTestTenant>>["ctx"], parentConnectionId: string | null = null) {
  const saved = await saveConnectionSettings(ctx, null, {
    integrationId: "salesforce",
    name: "Salesforce CRM",
    credentials: { loginUrl: sf.url, clientId: "client", clientSecret: "secret", refreshToken: "good-refresh-token" },
    parentConnectionId,
  });
  const mapping = await defaultMapping(connectorOf(ctx, saved), getIntegration("salesforce")!);
  await ctx.db.update(connections).set({ mapping, step: "COMPLETED", filters: null }).where(eq(connections.id, saved.id));
  return { ...saved, mapping };
}

describe("API connections", () => {
  test("a Salesforce import reads every page through the connector", async () => {
    const { ctx, db, tenant } = await createTestTenant();
    const connection = await salesforceConnection(ctx);
    expect(connection.mapping.object).toBe("InsurancePolicy");
    expect(connection.mapping.fields).toMatchObject({ policyNumber: "Name", premium: "GrossWrittenPremium", lineOfBusiness: "PolicyType" });
    await runImport(db, await startImport(ctx, connection.id));
    expect(await importedCounts(db, tenant.id, connection.id)).toEqual({ customers: 23, policies: 45 });
    const lines = await db
      .select({ lob: policies.lineOfBusiness, status: policies.status })
      .from(policies)
      .where(eq(policies.tenantId, tenant.id));
    expect(new Set(lines.map((l) => l.lob))).toEqual(new Set(["PAUTO", "HOME", "UMBRP", "CAUTO"]));
    expect(lines.filter((l) => l.status === "cancelled")).toHaveLength(5);
  });

  test("re-sync on schedule: daily by default, only when due, never for file connections", async () => {
    const { ctx, db } = await createTestTenant();
    const api = await salesforceConnection(ctx);
    const file = await createReadyFileConnection(ctx, { policies: 10 });
    const now = new Date();
    await db
      .update(connections)
      .set({ status: "connected", lastSyncAt: new Date(now.getTime() - 2 * 3_600_000) })
      .where(eq(connections.id, api.id));
    await db
      .update(connections)
      .set({ status: "connected", lastSyncAt: new Date(now.getTime() - 48 * 3_600_000) })
      .where(eq(connections.id, file.id));
    await scheduleDueSyncs(db, now, { tenantId: ctx.tenantId });
    const runsOf = async (id: string) => db.select({ trigger: importRuns.trigger }).from(importRuns).where(eq(importRuns.connectionId, id));
    expect(await runsOf(api.id)).toHaveLength(0);
    expect(await runsOf(file.id)).toHaveLength(0);
    await scheduleDueSyncs(db, new Date(now.getTime() + 23 * 3_600_000), { tenantId: ctx.tenantId });
    expect(await runsOf(api.id)).toEqual([{ trigger: "schedule" }]);
    const queued = await db
      .select({ type: jobs.type })
      .from(jobs)
      .where(and(eq(jobs.tenantId, ctx.tenantId), eq(jobs.type, "connections.import")));
    expect(queued.length).toBeGreaterThanOrEqual(1);
    // Already running: not started twice.
    await scheduleDueSyncs(db, new Date(now.getTime() + 23 * 3_600_000), { tenantId: ctx.tenantId });
    expect(await runsOf(api.id)).toHaveLength(1);
  });
});

describe("disconnect and sub-connections", () => {
  test("disconnecting keeps imported data by default and disconnects sub-connections too", async () => {
    const { ctx, db, tenant } = await createTestTenant();
    const ams = await createReadyFileConnection(ctx, { policies: 30 });
    await runImport(db, await startImport(ctx, ams.id));
    const crm = await salesforceConnection(ctx, ams.id);
    expect(crm.parentConnectionId).toBe(ams.id);
    await disconnectConnection(ctx, ams.id, { deleteData: false });
    const rows = await db
      .select({ id: connections.id, status: connections.status, sealed: connections.credentialsSealed })
      .from(connections)
      .where(eq(connections.tenantId, tenant.id));
    expect(rows.every((r) => r.status === "disconnected" && r.sealed === null)).toBe(true);
    expect((await importedCounts(db, tenant.id, ams.id)).policies).toBeGreaterThan(0);
  });

  test("a sub-connection has its own disconnect; 'also delete imported data' removes what it imported", async () => {
    const { ctx, db, tenant } = await createTestTenant();
    const ams = await createReadyFileConnection(ctx, { policies: 20 });
    await runImport(db, await startImport(ctx, ams.id));
    const crm = await salesforceConnection(ctx, ams.id);
    await runImport(db, await startImport(ctx, crm.id));
    await expect(disconnectConnection(ctx, ams.id, { deleteData: false, subConnectionOnly: true })).rejects.toThrow(
      "Sub-connection not found",
    );
    const recomputes = async () =>
      (
        await db
          .select({ id: jobs.id })
          .from(jobs)
          .where(and(eq(jobs.tenantId, tenant.id), eq(jobs.type, "forecast.recompute")))
      ).length;
    const before = await recomputes();
    await disconnectConnection(ctx, crm.id, { deleteData: true, subConnectionOnly: true });
    // The forecast (and what it counts for /customers) is computed again without the deleted book.
    expect(await recomputes()).toBe(before + 1);
    const [parent] = await db.select({ status: connections.status }).from(connections).where(eq(connections.id, ams.id));
    expect(parent.status).toBe("connected");
    expect(await importedCounts(db, tenant.id, crm.id)).toEqual({ customers: 0, policies: 0 });
    expect((await importedCounts(db, tenant.id, ams.id)).policies).toBeGreaterThan(0);
    const left = await db.select({ id: customers.id }).from(customers).where(eq(customers.tenantId, tenant.id));
    expect(left.length).toBe((await importedCounts(db, tenant.id, ams.id)).customers);
  });
});

describe("wizard state (seed connections/state/save and get)", () => {
  test("a draft is kept on the server and read back", async () => {
    const { ctx } = await createTestTenant();
    const connection = await createReadyFileConnection(ctx, { policies: 5 });
    await saveConnectionState(ctx, connection, "mapping", { object: "rows", fields: { premium: "Written Premium" } });
    await saveConnectionState(ctx, connection, "filters", { a: 1 });
    expect(await getConnectionState(ctx, connection.id)).toEqual({
      step: "COMPLETED",
      state: { mapping: { object: "rows", fields: { premium: "Written Premium" } }, filters: { a: 1 } },
    });
  });
});

describe("demo data", () => {
  test("the demo tenant gets a completed EZLynx connection and an Applied Epic one in mid-setup", async () => {
    const { getDb } = await import("~/db/client.server");
    const db = await getDb();
    const user = await createDemoTenant(db);
    const rows = await db
      .select({
        integrationId: connections.integrationId,
        status: connections.status,
        step: connections.step,
        fileKey: connections.fileKey,
      })
      .from(connections)
      .where(eq(connections.tenantId, user.tenantId));
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ integrationId: "ezlynx", status: "connected", step: "COMPLETED" }),
        expect.objectContaining({ integrationId: "appliedepic", status: "not_connected", step: "CONNECTION_MAPPING" }),
      ]),
    );
    expect(rows.every((r) => r.fileKey?.startsWith(`tenants/${user.tenantId}/`))).toBe(true);
    const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.id, user.id));
    expect(owner).toBeDefined();
  });
});
