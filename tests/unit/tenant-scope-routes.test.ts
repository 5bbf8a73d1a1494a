import { eq } from "drizzle-orm";
import { beforeAll, describe, test } from "vitest";
import { bulkActions, connections } from "~/db/schema";
import * as dashboardRoute from "~/routes/_app._index";
import * as carriersRoute from "~/routes/_app.carriers";
import * as connectionsRoute from "~/routes/_app.connect-database";
import * as customerRoute from "~/routes/_app.customers.$id";
import * as customersRoute from "~/routes/_app.customers._index";
import * as filesRoute from "~/routes/_app.files._index";
import * as forecastRoute from "~/routes/_app.forecast";
import * as notificationsRoute from "~/routes/_app.notifications";
import * as quotesRoute from "~/routes/_app.quotes._index";
import * as remarketRoute from "~/routes/_app.remarket";
import * as reportsRoute from "~/routes/_app.reports";
import * as teamRoute from "~/routes/_app.settings.team";
import * as tasksRoute from "~/routes/_app.tasks";
import * as monthlyUsageApi from "~/routes/api.billing-subscription.monthly-usage";
import * as remarketUsageApi from "~/routes/api.billing-subscription.remarket-usage";
import * as connectionsApi from "~/routes/api.connections._index";
import * as quotesApi from "~/routes/api.qoutes.policy.$policyId";
import * as connectionsApiV2 from "~/routes/api.v2.connections";
import * as tasksCsvRoute from "~/routes/tasks.export[.]csv";
import { addTenantCarrier, listCatalogue } from "~/services/connections/carriers.server";
import { createUploadedFile, newStorageKey } from "~/services/files/files.server";
import { notify } from "~/services/platform/notifications.server";
import { selectQuote } from "~/services/renewals/quotes.server";
import { logBulkAction } from "~/services/renewals/worklist.server";
import { seedFlaggedBook, type ScopedBook } from "../support/book-factories";
import { addTestUser, bearerFor, makeRequest, sessionCookieFor } from "../support/factories";
import { expectTenantScoped, ids, sorted, twoTenants, type ScopedTenant, type TenantPair } from "../support/tenant-scope";

// One route-level check per domain: every page and /api route that shows a list answers the
// signed-in tenant with its own rows and totals only (issue 19). The services are tested one by
// one beside them (app/services/*.tenant-scope.test.ts); this proves the routes pass the session's
// tenant, not some other, and show nothing else.

type Seed = ScopedBook & {
  fileIds: string[];
  notificationIds: string[];
  tenantCarrierIds: string[];
  connectionIds: string[];
  bulkIds: string[];
  memberIds: string[];
  cookie: string;
  bearer: string;
};

type Me = ScopedTenant<Seed>;
type Loader = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<unknown>;

/** What a loader answered: its data (plain, `data()`-wrapped or JSON), whatever the route returns. */
async function load<T = Record<string, unknown>>(
  loader: unknown,
  me: Me,
  path: string,
  params: Record<string, string> = {},
  api = false,
): Promise<T> {
  const request = makeRequest(path, api ? { headers: { Authorization: me.seed.bearer } } : { cookie: me.seed.cookie });
  const result = await (loader as Loader)({ request, params, context: {} });
  if (result instanceof Response) {
    if (!result.ok) throw new Error(`${path} answered ${result.status}`);
    return (result.headers.get("Content-Type")?.includes("json") ? await result.json() : await result.text()) as T;
  }
  if (result && typeof result === "object" && "type" in result && result.type === "DataWithResponseInit")
    return (result as unknown as { data: T }).data;
  return result as T;
}

/** A row list's ids, sorted. */
const idsOf = (rows: unknown, key = "id") => ids(rows as Record<string, unknown>[], key);

describe("every list page and /api list answers the signed-in tenant only", () => {
  let pair: TenantPair<Seed>;
  beforeAll(async () => {
    pair = await twoTenants(async (t) => {
      const book = await seedFlaggedBook(t.ctx, { tag: t.tag, size: 2 + t.index, remarketed: 1 + t.index, state: t.index ? "NY" : "TX" });
      await selectQuote(t.ctx, book.quoteIds[0]);
      const fileIds: string[] = [];
      for (let i = 0; i <= t.index; i++) {
        fileIds.push(
          (
            await createUploadedFile(t.ctx, {
              name: `scope-${t.tag}-${i}.csv`,
              extension: "csv",
              size: 10,
              domain: "policies",
              storageKey: newStorageKey(t.tenant.id, "csv"),
            })
          ).id,
        );
      }
      const notificationIds: string[] = [];
      for (let i = 0; i <= t.index; i++)
        notificationIds.push(await notify(t.db, { tenantId: t.tenant.id, kind: "test", title: `Scope ${t.tag} ${i}` }));
      const tenantCarrierIds: string[] = [];
      for (const carrier of (await listCatalogue(t.ctx, {})).slice(0, 1 + t.index))
        tenantCarrierIds.push((await addTenantCarrier(t.ctx, carrier.id)).id);
      const added = await t.db
        .insert(connections)
        .values(
          Array.from({ length: 1 + t.index }, (_, i) => ({
            tenantId: t.tenant.id,
            integrationId: "csv" as const,
            name: `Scope ${t.tag} ${i}`,
          })),
        )
        .returning({ id: connections.id });
      for (let i = 0; i <= t.index; i++)
        await logBulkAction(t.ctx, { action: "snooze", requested: 1, succeeded: 1, failures: [], details: `Until ${t.tag}` });
      const bulk = await t.db.select({ id: bulkActions.id }).from(bulkActions).where(eq(bulkActions.tenantId, t.tenant.id));
      const memberIds = [t.user.id];
      for (let i = 0; i <= t.index; i++) memberIds.push((await addTestUser(t.tenant.id)).user.id);
      return {
        ...book,
        fileIds,
        notificationIds,
        tenantCarrierIds,
        connectionIds: added.map((c) => c.id),
        bulkIds: bulk.map((b) => b.id),
        memberIds,
        cookie: await sessionCookieFor(t.user),
        bearer: await bearerFor(t.user),
      };
    });
  });

  test("customers: /customers (list, counts, recently marketed, filter choices) and /customers/:id", async () => {
    await expectTenantScoped(
      pair,
      async (me) => ({
        list: await load<{
          rows: unknown[];
          total: number;
          counts: { total: number };
          recent: unknown[];
          options: { producers: string[] };
        }>(customersRoute.loader, me, "/customers"),
        detail: await load<{ policies: unknown[]; remarkets: unknown[] }>(
          customerRoute.loader,
          me,
          `/customers/${me.seed.customerIds[0]}`,
          { id: me.seed.customerIds[0] },
        ),
      }),
      ({ list, detail }) => ({
        rows: idsOf(list.rows),
        total: list.total,
        counted: list.counts.total,
        recent: idsOf(list.recent, "remarketId"),
        producers: list.options.producers,
        policies: idsOf(detail.policies),
      }),
      (me) => ({
        rows: sorted(me.seed.customerIds),
        total: me.seed.customerIds.length,
        counted: me.seed.customerIds.length,
        recent: sorted(me.seed.remarketIds),
        producers: [me.seed.producer],
        policies: [me.seed.policyIds[0]],
      }),
    );
  });

  test("renewals: the /remarket worklist", async () => {
    await expectTenantScoped(
      pair,
      (me) => load<{ rows: unknown[]; total: number; options: { carriers: string[] } }>(remarketRoute.loader, me, "/remarket"),
      (r) => ({ rows: idsOf(r.rows), total: r.total, carriers: r.options.carriers }),
      (me) => ({ rows: sorted(me.seed.openFlagIds), total: me.seed.openFlagIds.length, carriers: [me.seed.carrier] }),
    );
  });

  test("re-markets and quotes: /quotes and /api/qoutes/policy/:id", async () => {
    await expectTenantScoped(
      pair,
      async (me) => ({
        page: await load<{ rows: unknown[]; total: number }>(quotesRoute.loader, me, "/quotes?status=all"),
        api: await load<{ data: unknown[] }>(
          quotesApi.loader,
          me,
          `/api/qoutes/policy/${me.seed.policyIds[0]}`,
          { policyId: me.seed.policyIds[0] },
          true,
        ),
      }),
      (r) => ({ rows: idsOf(r.page.rows), total: r.page.total, quotes: idsOf(r.api.data) }),
      (me) => ({ rows: sorted(me.seed.remarketIds), total: me.seed.remarketIds.length, quotes: [me.seed.quoteIds[0]] }),
    );
  });

  test("tasks: /tasks and the open-tasks CSV", async () => {
    await expectTenantScoped(
      pair,
      async (me) => ({
        page: await load<{ rows: unknown[]; total: number }>(tasksRoute.loader, me, "/tasks?status=all"),
        csv: await load<string>(tasksCsvRoute.loader, me, "/tasks.export.csv"),
      }),
      (r) => ({ rows: idsOf(r.page.rows), total: r.page.total, csvLines: r.csv.trimEnd().split("\r\n").length - 1 }),
      (me) => ({ rows: sorted(me.seed.taskIds), total: me.seed.taskIds.length, csvLines: me.seed.taskIds.length }),
    );
  });

  test("files: /files", async () => {
    await expectTenantScoped(
      pair,
      (me) => load<{ files: unknown[]; pageCount: number }>(filesRoute.loader, me, "/files?view=all"),
      (r) => idsOf(r.files),
      (me) => sorted(me.seed.fileIds),
    );
  });

  test("notifications: /notifications", async () => {
    await expectTenantScoped(
      pair,
      (me) => load<{ groups: { items: unknown[] }[]; total: number }>(notificationsRoute.loader, me, "/notifications"),
      (r) => ({ ids: idsOf(r.groups.flatMap((g) => g.items)), total: r.total }),
      (me) => ({ ids: sorted(me.seed.notificationIds), total: me.seed.notificationIds.length }),
    );
  });

  test("carriers: /carriers (the agency's and the catalogue's added markers)", async () => {
    await expectTenantScoped(
      pair,
      (me) => load<{ mine: unknown[]; catalogue: { tenantCarrierId: string | null }[] }>(carriersRoute.loader, me, "/carriers"),
      (r) => ({ mine: idsOf(r.mine), added: r.catalogue.flatMap((c) => (c.tenantCarrierId ? [c.tenantCarrierId] : [])).sort() }),
      (me) => ({ mine: sorted(me.seed.tenantCarrierIds), added: sorted(me.seed.tenantCarrierIds) }),
    );
  });

  test("connections: /connect-database, /api/connections and /api/v2/connections", async () => {
    await expectTenantScoped(
      pair,
      async (me) => ({
        page: await load<{ connections: unknown[] }>(connectionsRoute.loader, me, "/connect-database"),
        api: await load<{ data: unknown[] }>(connectionsApi.loader, me, "/api/connections", {}, true),
        v2: await load<{ data: unknown[] }>(connectionsApiV2.loader, me, "/api/v2/connections", {}, true),
      }),
      (r) => ({ page: idsOf(r.page.connections), api: idsOf(r.api.data), v2: idsOf(r.v2.data) }),
      (me) => ({ page: sorted(me.seed.connectionIds), api: sorted(me.seed.connectionIds), v2: sorted(me.seed.connectionIds) }),
    );
  });

  test("reports: /reports (retention, quota return, bulk action log)", async () => {
    await expectTenantScoped(
      pair,
      (me) =>
        load<{ byCarrier: { key: string; rewritten: number }[]; quota: { used: number }[]; log: { rows: unknown[]; total: number } }>(
          reportsRoute.loader,
          me,
          "/reports?from=2000-01-01&to=2100-01-01",
        ),
      (r) => ({ byCarrier: r.byCarrier, used: r.quota.reduce((n, m) => n + m.used, 0), log: idsOf(r.log.rows), logTotal: r.log.total }),
      (me) => ({
        byCarrier: [{ key: me.seed.carrier, renewed: 0, rewritten: 1, lost: 0, retainedPremium: 1200, lostPremium: 0 }],
        used: me.seed.remarketIds.length,
        log: sorted(me.seed.bulkIds),
        logTotal: me.seed.bulkIds.length,
      }),
    );
  });

  test("usage: /api/billing-subscription/remarket-usage and monthly-usage", async () => {
    await expectTenantScoped(
      pair,
      async (me) => ({
        usage: await load<{ data: { remarketQuota: { currentYearUsage: number } } }>(
          remarketUsageApi.loader,
          me,
          "/api/billing-subscription/remarket-usage",
          {},
          true,
        ),
        monthly: await load<{ data: { total: number } }>(monthlyUsageApi.loader, me, "/api/billing-subscription/monthly-usage", {}, true),
      }),
      (r) => ({ used: r.usage.data.remarketQuota.currentYearUsage, monthly: r.monthly.data.total }),
      (me) => ({ used: me.seed.remarketIds.length, monthly: me.seed.remarketIds.length }),
    );
  });

  test("forecast: /forecast (renewals, summary, last run)", async () => {
    await expectTenantScoped(
      pair,
      (me) =>
        load<{ list: { rows: unknown[]; total: number }; summary: { renewals: number }[]; run: { evaluated: number } | null }>(
          forecastRoute.loader,
          me,
          "/forecast",
        ),
      (r) => ({
        rows: idsOf(r.list.rows, "policyId"),
        total: r.list.total,
        renewals: r.summary.reduce((n, m) => n + m.renewals, 0),
        evaluated: r.run?.evaluated,
      }),
      (me) => ({
        rows: sorted(me.seed.policyIds),
        total: me.seed.policyIds.length,
        renewals: me.seed.policyIds.length,
        evaluated: me.seed.policyIds.length,
      }),
    );
  });

  test("dashboard: /", async () => {
    await expectTenantScoped(
      pair,
      (me) =>
        load<{ forecast: { open: number; dueSoon: number }; quota: { used: number }; connections: { total: number } }>(
          dashboardRoute.loader,
          me,
          "/",
        ),
      (r) => ({ open: r.forecast.open, dueSoon: r.forecast.dueSoon, used: r.quota.used, connections: r.connections.total }),
      (me) => ({
        open: me.seed.openFlagIds.length,
        dueSoon: me.seed.openFlagIds.length,
        used: me.seed.remarketIds.length,
        connections: me.seed.connectionIds.length,
      }),
    );
  });

  test("team: /settings/team", async () => {
    await expectTenantScoped(
      pair,
      (me) => load<{ members: unknown[] }>(teamRoute.loader, me, "/settings/team"),
      (r) => idsOf(r.members),
      (me) => sorted(me.seed.memberIds),
    );
  });
});
