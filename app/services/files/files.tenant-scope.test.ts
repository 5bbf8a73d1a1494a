import { beforeAll, describe, test } from "vitest";
import { expectTenantScoped, ids, sorted, twoTenants, type TenantPair } from "../../../tests/support/tenant-scope";
import { addTestUser } from "../../../tests/support/factories";
import { saveDomainConfig, listDomainConfigs } from "./file-config.server";
import { createUploadedFile, listFiles, newStorageKey } from "./files.server";

type Seed = { fileIds: string[]; mineIds: string[]; names: string[] };

/** A file row as an upload leaves it (the bytes are not needed to list it). */
async function upload(ctx: Parameters<typeof createUploadedFile>[0], name: string, domain: "policies" | "customers" = "policies") {
  const { id } = await createUploadedFile(ctx, {
    name,
    extension: "csv",
    size: 10,
    domain,
    storageKey: newStorageKey(ctx.tenantId, "csv"),
  });
  return id;
}

// The files list (all, mine, filtered, with its duplicate badges) answers each tenant with its own.
describe("files: tenant scope", () => {
  let pair: TenantPair<Seed>;
  beforeAll(async () => {
    pair = await twoTenants(async (t) => {
      const colleague = await addTestUser(t.tenant.id);
      const names = Array.from({ length: 2 + t.index }, (_, i) => `scope-${t.tag}-${i}.csv`);
      const mineIds: string[] = [];
      for (const name of names) mineIds.push(await upload(t.ctx, name));
      // Both tenants also hold a file of the same name: a duplicate only within its own tenant.
      mineIds.push(await upload(t.ctx, "same-name-in-both.csv", "customers"));
      const fileIds = [...mineIds, await upload(colleague.ctx, `scope-${t.tag}-colleague.csv`)];
      return { fileIds, mineIds, names };
    });
  });

  test("listFiles: all, mine, by status and by domain, with totals; no duplicate across tenants", async () => {
    await expectTenantScoped(
      pair,
      async (me) => ({
        all: await listFiles(me.ctx, { view: "all", sort: "newest", page: 1 }),
        mine: await listFiles(me.ctx, { view: "mine", sort: "oldest", page: 1 }),
        uploaded: await listFiles(me.ctx, { view: "all", status: "Uploaded", sort: "newest", page: 1 }),
        customers: await listFiles(me.ctx, { view: "all", domain: "customers", sort: "newest", page: 1 }),
      }),
      (r) => ({
        all: ids(r.all.files),
        allTotal: r.all.total,
        mine: ids(r.mine.files),
        mineTotal: r.mine.total,
        uploadedTotal: r.uploaded.total,
        customers: r.customers.total,
        duplicates: r.all.files.filter((f) => f.duplicate).length,
      }),
      (me) => ({
        all: sorted(me.seed.fileIds),
        allTotal: me.seed.fileIds.length,
        mine: sorted(me.seed.mineIds),
        mineTotal: me.seed.mineIds.length,
        uploadedTotal: me.seed.fileIds.length,
        customers: 1,
        duplicates: 0,
      }),
    );
  });

  test("listDomainConfigs: each tenant's own parse options", async () => {
    const configs = await twoTenants(async (t) => {
      await saveDomainConfig(t.ctx, {
        domain: "policies",
        delimiter: t.index ? ";" : "|",
        headerRow: 1 + t.index,
        dateFormat: "auto",
        encoding: "auto",
      });
      return { tenant: t.tenant.id };
    });
    await expectTenantScoped(
      configs,
      (me) => listDomainConfigs(me.ctx),
      (r) => r.find((c) => c.domain === "policies") as Record<string, unknown> | undefined,
      (me) => ({ domain: "policies", delimiter: me.index ? ";" : "|", headerRow: 1 + me.index, dateFormat: "auto", encoding: "auto" }),
    );
  });
});
