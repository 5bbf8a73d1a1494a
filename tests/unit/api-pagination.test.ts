import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { asc, sql } from "drizzle-orm";
import { carriers, customers, files, policies, remarkets, tenantCarriers } from "~/db/schema";
import { ensureCarrierCatalogue } from "~/services/connections/carrier-catalogue.server";
import { notify } from "~/services/platform/notifications.server";
import { loader as api } from "~/routes/api.$";
import { LIST_LIMIT_MAX } from "~/utils/cursor.server";
import { bearerFor, createTestTenant } from "../support/factories";

// Lists page with `limit` + an opaque `cursor`; `nextCursor` is null on the last page, and rows
// inserted while a caller walks the list neither repeat nor shift the pages it has not read.

async function get(auth: string, path: string) {
  const response = await api({
    request: new Request(`http://localhost${path}`, { headers: { Authorization: auth } }),
    params: {},
    context: {},
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test reads the operation's own JSON
  return { status: response.status, json: (await response.json()) as any };
}

describe("GET /api/files with limit and cursor", () => {
  test("walks every file once, newest first, stable under inserts; bad cursors and limits are 400s", async () => {
    const t = await createTestTenant();
    const auth = await bearerFor(t.user);
    const base = Date.parse("2026-01-01T00:00:00Z");
    const add = (n: number, at: number) =>
      t.db.insert(files).values({
        tenantId: t.tenant.id,
        uploadedBy: t.user.id,
        name: `file-${n}.csv`,
        extension: "csv",
        contentType: "text/csv",
        size: 1,
        storageKey: `test/${randomUUID()}`,
        // Two files share each millisecond: the id orders them.
        createdAt: new Date(at),
      });
    for (let n = 0; n < 7; n++) await add(n, base + Math.floor(n / 2) * 1000);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await get(auth, `/api/files?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.status).toBe(200);
      expect(page.json.data.total).toBeGreaterThanOrEqual(7);
      seen.push(...page.json.data.files.map((f: { name: string }) => f.name));
      cursor = page.json.data.nextCursor;
      // A newer file arriving mid-walk lands before the cursor: it does not shift the rest.
      if (pages === 0) await add(99, base + 60_000);
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    expect(seen.slice(0, 1)).toEqual(["file-6.csv"]);

    const oldest = await get(auth, "/api/files?limit=2&sort=oldest");
    expect(oldest.json.data.files.map((f: { name: string }) => f.name).sort()).toEqual(["file-0.csv", "file-1.csv"]);

    expect((await get(auth, "/api/files?cursor=not-a-cursor")).status).toBe(400);
    expect((await get(auth, `/api/files?limit=${LIST_LIMIT_MAX + 1}`)).status).toBe(400);
    // Without limit or cursor the page numbers of the original spec still answer, with nextCursor too.
    const legacy = await get(auth, "/api/files?page=1");
    expect(legacy.json.data.files).toHaveLength(8);
    expect(legacy.json.data).toHaveProperty("nextCursor", null);
  });
});

type Tenant = Awaited<ReturnType<typeof createTestTenant>>;
type Row = { id: string };

/**
 * Walks a list 3 rows a page, calling `midWalk` after the first page, and answers the ids in order.
 * nextCursor sits in data, or beside it where data is the original spec's array.
 */
async function walk(auth: string, path: string, midWalk: () => Promise<unknown>) {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await get(auth, `${path}${path.includes("?") ? "&" : "?"}limit=3${cursor ? `&cursor=${cursor}` : ""}`);
    expect(page.status, path).toBe(200);
    const rows: Row[] = Array.isArray(page.json.data) ? page.json.data : (page.json.data.rows ?? page.json.data.files);
    expect(rows.length).toBeLessThanOrEqual(3);
    seen.push(...rows.map((r) => r.id));
    cursor = Array.isArray(page.json.data) ? page.json.nextCursor : page.json.data.nextCursor;
    if (pages === 0) await midWalk();
    pages++;
  } while (cursor);
  return seen;
}

/** The checks every paged list keeps: each row once in order, no row of another agency, 400s for bad input. */
async function expectPaged(
  path: string,
  t: Tenant,
  ids: string[],
  other: { auth: string; ids: string[] },
  midWalk: () => Promise<unknown>,
) {
  const auth = await bearerFor(t.user);
  const seen = await walk(auth, path, midWalk);
  expect(seen).toEqual(ids);
  // The other agency walks its own rows only, and a cursor of ours is just a position for it.
  const theirs = await walk(other.auth, path, async () => {});
  expect(theirs).toEqual(other.ids);
  expect(theirs.filter((id) => seen.includes(id))).toEqual([]);
  const sep = path.includes("?") ? "&" : "?";
  expect((await get(auth, `${path}${sep}cursor=not-a-cursor`)).status).toBe(400);
  const forged = Buffer.from(JSON.stringify(["x", "not-a-uuid"])).toString("base64url");
  expect((await get(auth, `${path}${sep}cursor=${forged}`)).status).toBe(400);
  expect((await get(auth, `${path}${sep}limit=${LIST_LIMIT_MAX + 1}`)).status).toBe(400);
  expect((await get(auth, `${path}${sep}limit=0`)).status).toBe(400);
}

async function addCustomer(t: Tenant, name: string) {
  const [row] = await t.db
    .insert(customers)
    .values({ tenantId: t.tenant.id, sourceKey: randomUUID(), name })
    .returning({ id: customers.id, name: customers.name });
  return row;
}

/** Ids ordered as a list orders name ties: by id (uuid text order is the uuid order). */
const byNameThenId = (rows: { id: string; name: string }[]) =>
  [...rows].sort((a, b) => (a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? -1 : 1)).map((r) => r.id);

describe("GET /api/customers/all with limit and cursor", () => {
  test("by name then id, every customer once, stable under inserts, tenant-scoped", async () => {
    const t = await createTestTenant();
    const other = await createTestTenant();
    // Two customers share each name: the id orders them.
    const mine = [];
    for (let n = 0; n < 7; n++) mine.push(await addCustomer(t, `Customer ${Math.floor(n / 2)}`));
    const theirs = [await addCustomer(other, "Customer 0"), await addCustomer(other, "Zed")];
    // A customer arriving mid-walk before the cursor is not seen and shifts nothing.
    await expectPaged("/api/customers/all", t, byNameThenId(mine), { auth: await bearerFor(other.user), ids: byNameThenId(theirs) }, () =>
      addCustomer(t, "Aaron"),
    );
    // The page numbers of the original spec still answer, with nextCursor beside them.
    const legacy = await get(await bearerFor(t.user), "/api/customers/all?page=1&q=customer");
    expect(legacy.json).toMatchObject({ total: 7, page: 1, nextCursor: null });
    expect(legacy.json.data).toHaveLength(7);
  });
});

describe("GET /api/notifications with limit and cursor", () => {
  test("newest first then id, every notification once, stable under inserts, tenant-scoped", async () => {
    const t = await createTestTenant();
    const other = await createTestTenant();
    const base = Date.parse("2026-01-01T00:00:00Z");
    const add = async (tenant: Tenant, n: number, at: number) => ({
      id: await notify(tenant.db, { tenantId: tenant.tenant.id, kind: "test", title: `n${n}` }, new Date(at)),
      at,
    });
    const mine = [];
    for (let n = 0; n < 7; n++) mine.push(await add(t, n, base + Math.floor(n / 2) * 1000));
    const theirs = [await add(other, 0, base)];
    const newest = (rows: { id: string; at: number }[]) =>
      [...rows].sort((a, b) => (a.at === b.at ? (a.id < b.id ? 1 : -1) : b.at - a.at)).map((r) => r.id);
    await expectPaged("/api/notifications", t, newest(mine), { auth: await bearerFor(other.user), ids: newest(theirs) }, () =>
      add(t, 99, base + 60_000),
    );
  });
});

describe("GET /api/qoutes and /api/quotes with limit and cursor", () => {
  test("by status, newest, id: every re-market once, stable under inserts, tenant-scoped", async () => {
    const t = await createTestTenant();
    const other = await createTestTenant();
    const base = Date.parse("2026-01-01T00:00:00Z");
    const add = async (tenant: Tenant, at: number, status: "open" | "closed" = "open") => {
      const customer = await addCustomer(tenant, `Customer ${at}`);
      const [policy] = await tenant.db
        .insert(policies)
        .values({
          tenantId: tenant.tenant.id,
          customerId: customer.id,
          sourceKey: randomUUID(),
          policyNumber: `P-${at}`,
          lineOfBusiness: "HOME",
          carrierName: "Travelers",
          effectiveDate: "2026-01-01",
          expirationDate: "2027-01-01",
        })
        .returning({ id: policies.id });
      const [row] = await tenant.db
        .insert(remarkets)
        .values({
          tenantId: tenant.tenant.id,
          policyId: policy.id,
          customerId: customer.id,
          quotaYear: 2026,
          // Microseconds apart within a millisecond: a JavaScript date would lose them.
          remarketedAt: sql`${new Date(at).toISOString()}::timestamptz + make_interval(secs => ${(at % 7) / 1_000_000})`,
          incumbentCarrierName: "Travelers",
          status,
        })
        .returning({ id: remarkets.id, status: remarkets.status, at: remarkets.remarketedAt });
      return { ...row, at };
    };
    const mine = [];
    for (let n = 0; n < 7; n++) mine.push(await add(t, base + n, n === 3 ? "closed" : "open"));
    const theirs = [await add(other, base)];
    const order = (rows: { id: string; status: string; at: number }[]) =>
      [...rows]
        .sort((a, b) => (a.status === b.status ? (a.at === b.at ? (a.id < b.id ? 1 : -1) : b.at - a.at) : a.status < b.status ? -1 : 1))
        .map((r) => r.id);
    await expectPaged("/api/qoutes?status=all", t, order(mine), { auth: await bearerFor(other.user), ids: order(theirs) }, () =>
      add(t, base + 60_000, "closed"),
    );
    const open = await walk(await bearerFor(t.user), "/api/quotes", async () => {});
    expect(open).toEqual(order(mine.filter((r) => r.status === "open")));
  });
});

describe("GET /api/carriers/tenant/list with limit and cursor", () => {
  test("by name then id, every carrier of the agency once, stable under inserts, tenant-scoped", async () => {
    const t = await createTestTenant();
    const other = await createTestTenant();
    await ensureCarrierCatalogue(t.db);
    const catalogue = await t.db.select({ id: carriers.id, name: carriers.name }).from(carriers).orderBy(asc(carriers.name)).limit(9);
    const add = async (tenant: Tenant, carrierId: string) => {
      const [row] = await tenant.db
        .insert(tenantCarriers)
        .values({ tenantId: tenant.tenant.id, carrierId })
        .returning({ id: tenantCarriers.id });
      return { id: row.id, name: catalogue.find((c) => c.id === carrierId)!.name };
    };
    const mine = [];
    for (const c of catalogue.slice(1, 8)) mine.push(await add(t, c.id));
    await add(other, catalogue[8].id);
    // The database's collation orders carrier names: the whole list (no limit) is the expected order.
    const whole = async (tenant: Tenant) =>
      ((await get(await bearerFor(tenant.user), "/api/carriers/tenant/list")).json.data as Row[]).map((r) => r.id);
    const expected = await whole(t);
    expect(expected.sort()).toEqual(mine.map((r) => r.id).sort());
    await expectPaged("/api/carriers/tenant/list", t, await whole(t), { auth: await bearerFor(other.user), ids: await whole(other) }, () =>
      add(t, catalogue[0].id),
    );
    // Without limit or cursor the list answers whole, as the original did.
    const all = await get(await bearerFor(t.user), "/api/carriers/tenant/list");
    expect(all.json.data).toHaveLength(8);
    expect(all.json.nextCursor).toBeNull();
  });
});
