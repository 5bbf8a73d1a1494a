import { beforeAll, describe, test } from "vitest";
import { connections, importRejections, importRuns } from "~/db/schema";
import { createCustomer, createPolicy } from "../../../tests/support/book-factories";
import { expectTenantScoped, ids, sorted, twoTenants, type TenantPair } from "../../../tests/support/tenant-scope";
import { getLatestRun, importedCounts, listRuns, rejectionsCsv } from "./imports.server";

type Seed = { connectionId: string; runIds: string[]; rejected: string[]; customers: number; policies: number };

async function text(chunks: AsyncIterable<string>) {
  let out = "";
  for await (const chunk of chunks) out += chunk;
  return out;
}

// An import's runs, its rejected rows (CSV) and its counts are each tenant's own, even when asked
// with the other tenant's connection or run id.
describe("imports: tenant scope", () => {
  let pair: TenantPair<Seed>;
  beforeAll(async () => {
    pair = await twoTenants(async (t) => {
      const [connection] = await t.db
        .insert(connections)
        .values({ tenantId: t.tenant.id, integrationId: "csv", name: `Scope ${t.tag}`, status: "connected", step: "COMPLETED" })
        .returning({ id: connections.id });
      const runs = await t.db
        .insert(importRuns)
        .values(
          Array.from({ length: 1 + t.index }, (_, i) => ({
            tenantId: t.tenant.id,
            connectionId: connection.id,
            status: "failed" as const,
            createdAt: new Date(Date.now() - (i + 1) * 60_000),
          })),
        )
        .returning({ id: importRuns.id });
      const rejected = Array.from({ length: 2 + t.index }, (_, i) => `Bad row ${t.tag} ${i}`);
      await t.db.insert(importRejections).values(
        rejected.map((value, i) => ({
          tenantId: t.tenant.id,
          runId: runs[0].id,
          rowNumber: i + 2,
          reasons: ["Missing policy number"],
          raw: [["Name", value]] as [string, string][],
        })),
      );
      const customers = 2 + t.index;
      for (let i = 0; i < customers; i++) {
        const customer = await createCustomer(t.db, t.tenant.id, { name: `Scope ${t.tag} ${i}`, connectionId: connection.id });
        await createPolicy(t.db, t.tenant.id, { customerId: customer.id, connectionId: connection.id });
      }
      return { connectionId: connection.id, runIds: runs.map((r) => r.id), rejected, customers, policies: customers };
    });
  });

  test("runs, the latest run and the imported counts of a connection", async () => {
    await expectTenantScoped(
      pair,
      async (me, other) => ({
        runs: await listRuns(me.ctx, me.seed.connectionId),
        latest: await getLatestRun(me.ctx, me.seed.connectionId),
        counts: await importedCounts(me.db, me.tenant.id, me.seed.connectionId),
        theirRuns: await listRuns(me.ctx, other.seed.connectionId),
        theirLatest: await getLatestRun(me.ctx, other.seed.connectionId),
        theirCounts: await importedCounts(me.db, me.tenant.id, other.seed.connectionId),
      }),
      (r) => ({
        runs: ids(r.runs),
        latest: r.latest?.id,
        counts: r.counts,
        theirRuns: r.theirRuns,
        theirLatest: r.theirLatest as unknown,
        theirCounts: r.theirCounts,
      }),
      (me) => ({
        runs: sorted(me.seed.runIds),
        latest: me.seed.runIds[0],
        counts: { customers: me.seed.customers, policies: me.seed.policies },
        theirRuns: [],
        theirLatest: null,
        theirCounts: { customers: 0, policies: 0 },
      }),
    );
  });

  test("the rejected rows CSV: the tenant's own run has its rows; the other tenant's run id gives none", async () => {
    await expectTenantScoped(
      pair,
      async (me, other) => ({
        mine: await text(rejectionsCsv(me.ctx, me.seed.runIds[0])),
        theirs: await text(rejectionsCsv(me.ctx, other.seed.runIds[0])),
      }),
      (r) => ({
        mine: r.mine
          .trimEnd()
          .split("\r\n")
          .slice(1)
          .map((line) => line.split(",")[2]),
        theirs: r.theirs,
      }),
      (me) => ({ mine: me.seed.rejected, theirs: "Row,Reasons\r\n" }),
    );
  });
});
