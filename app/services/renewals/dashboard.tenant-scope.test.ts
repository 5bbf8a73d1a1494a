import { describe, test } from "vitest";
import { connections } from "~/db/schema";
import { seedFlaggedBook } from "../../../tests/support/book-factories";
import { expectTenantScoped, twoTenants } from "../../../tests/support/tenant-scope";
import { getDashboard } from "./dashboard.server";

// The dashboard's figures (one statement of sub-selects) count the tenant's own rows only.
describe("dashboard: tenant scope", () => {
  test("flags due and open, quota used, connections", async () => {
    const pair = await twoTenants(async (t) => {
      const book = await seedFlaggedBook(t.ctx, { tag: t.tag, size: 3 + t.index, remarketed: 1 });
      const rows = Array.from({ length: 1 + t.index }, (_, i) => ({
        tenantId: t.tenant.id,
        integrationId: "csv" as const,
        name: `Scope ${t.tag} ${i}`,
        status: "error" as const,
      }));
      await t.db.insert(connections).values(rows);
      return { ...book, connections: rows.length };
    });
    await expectTenantScoped(
      pair,
      (me) => getDashboard({ db: me.db, tenantId: me.tenant.id, timeZone: "America/New_York" }),
      (r) => ({
        dueSoon: r.forecast.dueSoon,
        open: r.forecast.open,
        used: r.quota.used,
        connections: r.connections.total,
        inError: r.connections.inError,
        hasBook: r.hasBook,
      }),
      (me) => ({
        dueSoon: me.seed.openFlagIds.length,
        open: me.seed.openFlagIds.length,
        used: me.seed.remarketIds.length,
        connections: me.seed.connections,
        inError: me.seed.connections,
        hasBook: true,
      }),
    );
  });
});
