import { beforeAll, describe, expect, test } from "vitest";
import { connectionTaskOptions, connections, employeeAccounts, importRuns } from "~/db/schema";
import { expectTenantScoped, ids, sorted, twoTenants, type SeedTarget, type TenantPair } from "../../../tests/support/tenant-scope";
import { apiListConnections, apiTaskOptions } from "./connections-api.server";
import {
  getConnection,
  latestConnectionNotification,
  listConnections,
  listParentCandidates,
  listSubConnections,
  listTaskOptions,
} from "./connections.server";
import { notify } from "../platform/notifications.server";

type Seed = { topIds: string[]; subId: string; runningId: string; employeeIds: string[]; codeIds: string[]; notice: string };

/**
 * File connections (A: 2, B: 3), a CRM sub-connection under the first, an import running on the
 * first, employee accounts (one of no connection: offered with every connection of the tenant),
 * an activity code and a notification about the first.
 */
async function seedConnections(t: SeedTarget): Promise<Seed> {
  const top = await t.db
    .insert(connections)
    .values(
      Array.from({ length: 2 + t.index }, (_, i) => ({
        tenantId: t.tenant.id,
        integrationId: "csv" as const,
        name: `Scope ${t.tag} ${i}`,
        status: "connected" as const,
        step: "COMPLETED" as const,
      })),
    )
    .returning({ id: connections.id });
  const topIds = top.map((c) => c.id);
  const [sub] = await t.db
    .insert(connections)
    .values({ tenantId: t.tenant.id, integrationId: "salesforce", name: `Scope ${t.tag} CRM`, parentConnectionId: topIds[0] })
    .returning({ id: connections.id });
  await t.db.insert(importRuns).values({ tenantId: t.tenant.id, connectionId: topIds[0], status: "running", rowsRead: 5, rowsTotal: 10 });
  const people = await t.db
    .insert(employeeAccounts)
    .values([
      { tenantId: t.tenant.id, connectionId: topIds[0], sourceKey: `emp:${t.tag}:1`, name: `Employee ${t.tag} 1` },
      { tenantId: t.tenant.id, connectionId: null, sourceKey: `emp:${t.tag}:2`, name: `Employee ${t.tag} 2` },
    ])
    .returning({ id: employeeAccounts.id });
  const codes = await t.db
    .insert(connectionTaskOptions)
    .values({ tenantId: t.tenant.id, connectionId: topIds[0], kind: "activity_code", code: `ACT-${t.tag}`, label: `Activity ${t.tag}` })
    .returning({ id: connectionTaskOptions.id });
  const notice = `Import finished ${t.tag}`;
  await notify(t.db, { tenantId: t.tenant.id, kind: "import.finished", title: notice, link: `/connect-database/${topIds[0]}` });
  return { topIds, subId: sub.id, runningId: topIds[0], employeeIds: people.map((p) => p.id), codeIds: codes.map((c) => c.id), notice };
}

// The connections page, the wizard's lists and the API's list are each tenant's own.
describe("connections: tenant scope", () => {
  let pair: TenantPair<Seed>;
  beforeAll(async () => {
    pair = await twoTenants(seedConnections);
  });

  test("listConnections and the API's list, with the running import", async () => {
    await expectTenantScoped(
      pair,
      async (me) => ({ page: await listConnections(me.ctx), api: await apiListConnections(me.ctx) }),
      (r) => ({ page: ids(r.page), api: ids(r.api), running: r.page.filter((c) => c.activeRun).map((c) => c.id) }),
      (me) => ({
        page: sorted([...me.seed.topIds, me.seed.subId]),
        api: sorted([...me.seed.topIds, me.seed.subId]),
        running: [me.seed.runningId],
      }),
    );
  });

  test("parent candidates and sub-connections", async () => {
    await expectTenantScoped(
      pair,
      async (me, other) => ({
        candidates: await listParentCandidates(me.ctx),
        subs: await listSubConnections(me.ctx, me.seed.topIds[0]),
        theirSubs: await listSubConnections(me.ctx, other.seed.topIds[0]),
      }),
      (r) => ({ candidates: ids(r.candidates), subs: ids(r.subs), theirSubs: r.theirSubs }),
      (me) => ({ candidates: sorted(me.seed.topIds), subs: [me.seed.subId], theirSubs: [] }),
    );
  });

  test("the task step's lists (people and activity codes), also through the API", async () => {
    await expectTenantScoped(
      pair,
      async (me) => {
        const connection = await getConnection(me.ctx, me.seed.topIds[0]);
        return { lists: await listTaskOptions(me.ctx, connection), api: await apiTaskOptions(me.ctx, connection.id, "employees") };
      },
      (r) => ({ employees: ids(r.lists.employees), codes: ids(r.lists.activityCodes), api: ids(r.api as { id: string }[]) }),
      (me) => ({ employees: sorted(me.seed.employeeIds), codes: sorted(me.seed.codeIds), api: sorted(me.seed.employeeIds) }),
    );
  });

  test("the latest notification about a connection: the other tenant's connection has none for me", async () => {
    await expectTenantScoped(
      pair,
      async (me, other) => ({
        mine: await latestConnectionNotification(me.ctx, me.seed.topIds[0]),
        theirs: await latestConnectionNotification(me.ctx, other.seed.topIds[0]),
      }),
      (r) => ({ mine: r.mine?.title, theirs: r.theirs as unknown }),
      (me) => ({ mine: me.seed.notice, theirs: null }),
    );
    expect(pair[0].seed.notice).not.toBe(pair[1].seed.notice);
  });
});
