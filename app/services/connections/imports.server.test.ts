import { and, asc, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { connections, customers, employeeAccounts, importRuns, notifications, policies } from "~/db/schema";
import { createTestTenant } from "../../../tests/support/factories";
import { createReadyFileConnection } from "./connection-fixtures.server";
import { describeFailure, formatDuration, getLatestRun, importedCounts, rejectionsCsv, runImport, startImport } from "./imports.server";

async function snapshot(db: Awaited<ReturnType<typeof createTestTenant>>["db"], tenantId: string) {
  const c = await db
    .select({
      key: customers.sourceKey,
      name: customers.name,
      email: customers.email,
      state: customers.state,
      updatedAt: customers.updatedAt,
    })
    .from(customers)
    .where(eq(customers.tenantId, tenantId))
    .orderBy(asc(customers.sourceKey));
  const p = await db
    .select({
      key: policies.sourceKey,
      lob: policies.lineOfBusiness,
      premium: policies.premium,
      exp: policies.expirationDate,
      carrier: policies.carrierName,
      updatedAt: policies.updatedAt,
    })
    .from(policies)
    .where(eq(policies.tenantId, tenantId))
    .orderBy(asc(policies.sourceKey));
  return { c, p };
}

const strip = <T extends { updatedAt: Date }>(rows: T[]) => rows.map(({ updatedAt: _u, ...rest }) => rest);

describe("the import (ETL)", () => {
  test("imports the sample export, rejects bad rows with reasons, and notifies", async () => {
    const { ctx, db, tenant } = await createTestTenant();
    const connection = await createReadyFileConnection(ctx, { policies: 300, invalidRows: 3, duplicateRows: 2 });
    const runId = await startImport(ctx, connection.id);
    await runImport(db, runId, { batchSize: 64 });

    const run = await getLatestRun(ctx, connection.id);
    expect(run).toMatchObject({ status: "succeeded", rowsTotal: 300, rowsRead: 300, rowsRejected: 5, rowsImported: 295, rowsFiltered: 0 });
    const counts = await importedCounts(db, tenant.id, connection.id);
    expect(counts.policies).toBe(295);
    expect(counts.customers).toBeGreaterThan(80);
    expect(run!.customersCount).toBe(counts.customers);

    const [saved] = await db.select().from(connections).where(eq(connections.id, connection.id));
    expect(saved).toMatchObject({ status: "connected", recordsImported: 295 });
    expect(saved.lastSyncAt).toBeInstanceOf(Date);
    expect(saved.lastDurationMs).toBeGreaterThanOrEqual(0);

    const [note] = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.tenantId, tenant.id), eq(notifications.kind, "import.finished")));
    expect(note.title).toMatch(new RegExp(`^Import finished: ${counts.customers} customers, 295 policies, 5 rejected in \\d+`));

    let csv = "";
    for await (const chunk of rejectionsCsv(ctx, runId)) csv += chunk;
    const lines = csv.trim().split("\r\n");
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatch(/^Row,Reasons,Client Number,Applicant Name/);
    expect(csv).toContain("Duplicate of row");
    expect(csv).toMatch(/Policy number is missing|is not a date|is not a number/);

    const people = await db.select({ name: employeeAccounts.name }).from(employeeAccounts).where(eq(employeeAccounts.tenantId, tenant.id));
    expect(people.map((p) => p.name)).toEqual(expect.arrayContaining(["Alex Rivera", "Casey Nguyen"]));
  });

  test("re-running the same import changes nothing", async () => {
    const { ctx, db, tenant } = await createTestTenant();
    const connection = await createReadyFileConnection(ctx, { policies: 200 });
    await runImport(db, await startImport(ctx, connection.id), { batchSize: 50 });
    const first = await snapshot(db, tenant.id);
    await runImport(db, await startImport(ctx, connection.id), { batchSize: 37 });
    const second = await snapshot(db, tenant.id);
    expect(second.c).toEqual(first.c); // updated_at included: no row was rewritten
    expect(second.p).toEqual(first.p);
    const run = await getLatestRun(ctx, connection.id);
    expect(run).toMatchObject({ status: "succeeded", policiesCount: first.p.length });
  });

  test("a run stopped mid-way resumes at its checkpoint with exactly the rows of a clean run", async () => {
    const clean = await createTestTenant();
    const cleanConnection = await createReadyFileConnection(clean.ctx, { policies: 400, seed: 7 });
    await runImport(clean.db, await startImport(clean.ctx, cleanConnection.id), { batchSize: 50 });

    const crashed = await createTestTenant();
    const connection = await createReadyFileConnection(crashed.ctx, { policies: 400, seed: 7 });
    const runId = await startImport(crashed.ctx, connection.id);
    await expect(
      runImport(crashed.db, runId, {
        batchSize: 50,
        afterBatch: (checkpoint) => {
          if (checkpoint >= 150) throw new Error("killed");
        },
      }),
    ).rejects.toThrow("killed");
    const [midway] = await crashed.db.select().from(importRuns).where(eq(importRuns.id, runId));
    expect(midway).toMatchObject({ status: "running", checkpoint: 150 });

    await runImport(crashed.db, runId, { batchSize: 50 });
    const a = await snapshot(clean.db, clean.tenant.id);
    const b = await snapshot(crashed.db, crashed.tenant.id);
    expect(strip(b.c)).toEqual(strip(a.c));
    expect(strip(b.p)).toEqual(strip(a.p));
    const [cleanRun] = await clean.db.select().from(importRuns).where(eq(importRuns.connectionId, cleanConnection.id));
    const [resumed] = await crashed.db.select().from(importRuns).where(eq(importRuns.id, runId));
    for (const k of ["rowsRead", "rowsImported", "rowsRejected", "rowsFiltered", "customersCount", "policiesCount"] as const) {
      expect(resumed[k]).toBe(cleanRun[k]);
    }
  });

  test("a runner whose job was claimed again (lease ran out) stops instead of overwriting the new runner", async () => {
    const { ctx, db, tenant } = await createTestTenant();
    const connection = await createReadyFileConnection(ctx, { policies: 300, seed: 9 });
    const runId = await startImport(ctx, connection.id);
    // Runner A commits its first batch; then runner B takes the run over (A's job lease ran out)
    // and commits a batch; then A wakes up and tries its next batch.
    let resolveB!: () => void;
    const bWrote = new Promise<void>((resolve) => (resolveB = resolve));
    let b: Promise<void> | undefined;
    let aBatches = 0;
    await runImport(db, runId, {
      batchSize: 50,
      afterBatch: async () => {
        aBatches++;
        if (b) return;
        b = runImport(db, runId, {
          batchSize: 70,
          afterBatch: async () => {
            resolveB();
            await new Promise((r) => setTimeout(r, 2));
          },
        });
        await bWrote;
      },
    });
    expect(aBatches).toBe(1); // A stopped at its next batch instead of interleaving with B
    await b;
    const [run] = await db.select().from(importRuns).where(eq(importRuns.id, runId));
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 300 });
    expect(run.rowsImported + run.rowsRejected + run.rowsFiltered).toBe(300);
    expect((await importedCounts(db, tenant.id, connection.id)).policies).toBe(run.rowsImported);
  });

  test("past the bad-row share the import fails as a whole and imports nothing", async () => {
    const { ctx, db, tenant } = await createTestTenant();
    const connection = await createReadyFileConnection(ctx, { policies: 100, invalidRows: 10 });
    await db.update(connections).set({ maxRejectedShare: 0.05 }).where(eq(connections.id, connection.id));
    const runId = await startImport(ctx, connection.id);
    await runImport(db, runId);
    const run = await getLatestRun(ctx, connection.id);
    expect(run?.status).toBe("failed");
    expect(run?.error).toMatch(/^1\d of 100 rows \(1\d(\.\d)? %\) failed validation; the limit is 5 %/);
    expect(await importedCounts(db, tenant.id, connection.id)).toEqual({ customers: 0, policies: 0 });
    const [saved] = await db.select().from(connections).where(eq(connections.id, connection.id));
    expect(saved.status).toBe("error");
    let csv = "";
    for await (const chunk of rejectionsCsv(ctx, runId)) csv += chunk;
    expect(csv.trim().split("\r\n").length).toBeGreaterThan(10);
  });

  test("filter options leave out unticked values", async () => {
    const { ctx, db, tenant } = await createTestTenant();
    const connection = await createReadyFileConnection(ctx, { policies: 150 });
    await db
      .update(connections)
      .set({ filters: { excluded: { linesOfBusiness: ["HOME"], states: [], carriers: ["Progressive"], statuses: [] } } })
      .where(eq(connections.id, connection.id));
    await runImport(db, await startImport(ctx, connection.id));
    const run = await getLatestRun(ctx, connection.id);
    expect(run!.rowsFiltered).toBeGreaterThan(0);
    const rows = await db
      .select({ lob: policies.lineOfBusiness, carrier: policies.carrierName })
      .from(policies)
      .where(eq(policies.tenantId, tenant.id));
    expect(rows.length).toBe(run!.rowsImported);
    expect(rows.some((r) => r.lob === "HOME" || r.carrier === "Progressive")).toBe(false);
  });

  test("one import at a time per connection; setup must be complete", async () => {
    const { ctx } = await createTestTenant();
    const connection = await createReadyFileConnection(ctx, { policies: 20 });
    await startImport(ctx, connection.id);
    await expect(startImport(ctx, connection.id)).rejects.toThrow("already running");
  });

  test("durations read like people write them", () => {
    expect(formatDuration(850)).toBe("850 ms");
    expect(formatDuration(12_300)).toBe("12 s");
    expect(formatDuration(65_000)).toBe("1 min 5 s");
  });
});

describe("describeFailure", () => {
  test("a failed statement reads as the database's message, not the statement and its rows", () => {
    const cause = new Error("there is no unique or exclusion constraint matching the ON CONFLICT specification");
    const failed = new Error(`Failed query: insert into customers ... params: ${"x".repeat(100_000)}`, { cause });
    expect(describeFailure(failed)).toBe(
      "database error: there is no unique or exclusion constraint matching the ON CONFLICT specification",
    );
  });

  test("other errors keep their message, cut to 500 characters", () => {
    expect(describeFailure(new Error("the source answered 502"))).toBe("the source answered 502");
    expect(describeFailure("plain")).toBe("plain");
    const long = describeFailure(new Error("y".repeat(2_000)));
    expect(long).toHaveLength(500);
    expect(long.endsWith("...")).toBe(true);
  });
});
