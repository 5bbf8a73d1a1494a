import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { asc, sql } from "drizzle-orm";
import { carriers, customers, files, policies, remarkets, renewalFlags, tenantCarriers } from "~/db/schema";
import { ensureCarrierCatalogue } from "~/services/connections/carrier-catalogue.server";
import { notify } from "~/services/platform/notifications.server";
import { loader as api } from "~/routes/api.$";
import { LIST_LIMIT_MAX } from "~/utils/cursor.server";
import { bearerFor, createTestTenant } from "../support/factories";

// Lists page with `limit` + an opaque `cursor`; `nextCursor` is null on the last page, and rows
// inserted while a caller walks the list neither repeat nor shift the pages it has not read. Each
// list sorts by `sort=<field>` or `sort=-<field>` the same way, under every sort alike.

async function get(auth: string, path: string) {
  const response = await api({
    request: new Request(`http://localhost${path}`, { headers: { Authorization: auth } }),
    params: {},
    context: {},
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test reads the operation's own JSON
  return { status: response.status, type: response.headers.get("Content-Type"), json: (await response.json()) as any };
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
    // newest and oldest are the page's words for -createdAt and createdAt: their cursors are the same.
    const newest = await get(auth, "/api/files?limit=2&sort=newest");
    const again = await get(auth, `/api/files?limit=2&sort=-createdAt&cursor=${newest.json.data.nextCursor}`);
    expect(again.status).toBe(200);
    expect(again.json.data.files.map((f: { name: string }) => f.name)).not.toContain(newest.json.data.files[0].name);
    await expectSortRules(auth, "/api/files", "name", ["createdAt", "name", "newest", "oldest"]);
  });

  test("sort=name and sort=-name: by name then id, every file once, stable under inserts", async () => {
    const t = await createTestTenant();
    const auth = await bearerFor(t.user);
    const add = async (name: string) => {
      const [row] = await t.db
        .insert(files)
        .values({
          tenantId: t.tenant.id,
          uploadedBy: t.user.id,
          name,
          extension: "csv",
          contentType: "text/csv",
          size: 1,
          storageKey: `test/${randomUUID()}`,
        })
        .returning({ id: files.id, name: files.name });
      return row;
    };
    // Two files share each name (uploaded twice): the id orders them.
    const mine = [];
    for (let n = 0; n < 7; n++) mine.push(await add(`file-${"abcd"[Math.floor(n / 2)]}.csv`));
    // A file arriving mid-walk before the cursor is not seen; one after it is, in its place.
    let late: { id: string; name: string } | undefined;
    const ascending = await walk(auth, "/api/files?sort=name", async () => {
      await add("early.csv");
      late = await add("file-z.csv");
    });
    expect(ascending).toEqual(byNameThenId([...mine, late!]));
    const descending = await walk(auth, "/api/files?sort=-name", async () => {});
    const all = [...mine, late!, { id: "", name: "early.csv" }];
    const expected = [...all]
      .sort((a, b) => (a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? 1 : -1))
      .map((r) => r.id)
      .filter((id) => id !== "");
    expect(descending.filter((id) => expected.includes(id))).toEqual(expected);
    expect(descending).toHaveLength(9);
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
    const rows: Row[] = Array.isArray(page.json.data)
      ? page.json.data
      : (page.json.data.items ?? page.json.data.rows ?? page.json.data.files);
    expect(rows.length).toBeLessThanOrEqual(3);
    seen.push(...rows.map((r) => r.id));
    cursor = Array.isArray(page.json.data) ? page.json.nextCursor : page.json.data.nextCursor;
    if (pages === 0) await midWalk();
    pages++;
  } while (cursor);
  return seen;
}

/**
 * The sort rules every list keeps: an unknown field is a 400 problem naming the fields, and a
 * cursor made for one sort is a 400 under another (it marks a place in that order only).
 */
async function expectSortRules(auth: string, path: string, another: string, fields: string[]) {
  const sep = path.includes("?") ? "&" : "?";
  const unknown = await get(auth, `${path}${sep}sort=-shoeSize`);
  expect(unknown.status, path).toBe(400);
  expect(unknown.type).toMatch(/^application\/problem\+json/);
  for (const field of fields) expect(unknown.json.errors.sort[0]).toContain(field);
  expect((await get(auth, `${path}${sep}sort=`)).status).toBe(400);
  const first = await get(auth, `${path}${sep}limit=1`);
  const cursor = Array.isArray(first.json.data) ? first.json.nextCursor : first.json.data.nextCursor;
  expect(cursor, `${path} needs two rows for this check`).toBeTruthy();
  const mismatched = await get(auth, `${path}${sep}limit=1&sort=${another}&cursor=${cursor}`);
  expect(mismatched.status).toBe(400);
  expect(mismatched.type).toMatch(/^application\/problem\+json/);
  expect(mismatched.json.errors.cursor[0]).toMatch(/made for sort=/);
  // The sort it was made for continues it.
  expect((await get(auth, `${path}${sep}limit=1&cursor=${cursor}`)).status).toBe(200);
}

/** The checks every paged list keeps: each row once in order, no row of another agency, 400s for bad input. */
async function expectPaged(
  path: string,
  t: Tenant,
  ids: string[] | (() => string[]),
  other: { auth: string; ids: string[] },
  midWalk: () => Promise<unknown>,
) {
  const auth = await bearerFor(t.user);
  const seen = await walk(auth, path, midWalk);
  expect(seen).toEqual(typeof ids === "function" ? ids() : ids);
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

async function addCustomer(t: Tenant, name: string, createdAt?: Date) {
  const [row] = await t.db
    .insert(customers)
    .values({ tenantId: t.tenant.id, sourceKey: randomUUID(), name, createdAt })
    .returning({ id: customers.id, name: customers.name, createdAt: customers.createdAt });
  return row;
}

/** A home policy of a customer, expiring on `expirationDate`. */
async function addPolicy(t: Tenant, customerId: string, policyNumber: string, expirationDate = "2027-01-01") {
  const [row] = await t.db
    .insert(policies)
    .values({
      tenantId: t.tenant.id,
      customerId,
      sourceKey: randomUUID(),
      policyNumber,
      lineOfBusiness: "HOME",
      carrierName: "Travelers",
      effectiveDate: "2026-01-01",
      expirationDate,
    })
    .returning({ id: policies.id, policyNumber: policies.policyNumber });
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
    await expectSortRules(await bearerFor(t.user), "/api/customers/all", "-createdAt", ["name", "createdAt"]);
  });

  test("sort=-createdAt: newest then id, every customer once, stable under inserts", async () => {
    const t = await createTestTenant();
    const auth = await bearerFor(t.user);
    const base = Date.parse("2026-01-01T00:00:00Z");
    // Two customers share each creation time: the id orders them.
    const mine = [];
    for (let n = 0; n < 7; n++) mine.push(await addCustomer(t, `Customer ${n}`, new Date(base + Math.floor(n / 2) * 1000)));
    let older: { id: string; createdAt: Date } | undefined;
    const seen = await walk(auth, "/api/customers/all?sort=-createdAt", async () => {
      // A newer customer lands before the cursor (not seen); an older one after it (seen, last).
      await addCustomer(t, "Newcomer", new Date(base + 60_000));
      older = await addCustomer(t, "Oldtimer", new Date(base - 60_000));
    });
    const newestThenId = (rows: { id: string; createdAt: Date }[]) =>
      [...rows]
        .sort((a, b) =>
          a.createdAt.getTime() === b.createdAt.getTime() ? (a.id < b.id ? -1 : 1) : b.createdAt.getTime() - a.createdAt.getTime(),
        )
        .map((r) => r.id);
    expect(seen).toEqual(newestThenId([...mine, older!]));
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
    let midWalk: { id: string; at: number } | undefined;
    await expectPaged("/api/notifications", t, newest(mine), { auth: await bearerFor(other.user), ids: newest(theirs) }, async () => {
      midWalk = await add(t, 99, base + 60_000);
    });
    await expectSortRules(await bearerFor(t.user), "/api/notifications", "createdAt", ["createdAt"]);

    // Oldest first (ties still by id, descending): one added mid-walk lands after the cursor, so it is seen, last.
    let latest: { id: string; at: number } | undefined;
    const oldest = await walk(await bearerFor(t.user), "/api/notifications?sort=createdAt", async () => {
      latest = await add(t, 100, base + 120_000);
    });
    const oldestFirst = (rows: { id: string; at: number }[]) =>
      [...rows].sort((a, b) => (a.at === b.at ? (a.id < b.id ? 1 : -1) : a.at - b.at)).map((r) => r.id);
    expect(oldest).toEqual(oldestFirst([...mine, midWalk!, latest!]));
  });
});

describe("GET /api/qoutes and /api/quotes with limit and cursor", () => {
  test("open first, then newest, then id: every re-market once, stable under inserts, tenant-scoped", async () => {
    const t = await createTestTenant();
    const other = await createTestTenant();
    const base = Date.parse("2026-01-01T00:00:00Z");
    const add = async (tenant: Tenant, at: number, status: "open" | "closed" = "open") => {
      const customer = await addCustomer(tenant, `Customer ${at}`);
      const policy = await addPolicy(tenant, customer.id, `P-${at}`);
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
    type Remarket = { id: string; status: string; at: number };
    const mine: Remarket[] = [];
    for (let n = 0; n < 7; n++) mine.push(await add(t, base + n, n === 3 || n === 5 ? "closed" : "open"));
    const theirs = [await add(other, base)];
    const newestThenId = (a: Remarket, b: Remarket) => (a.at === b.at ? (a.id < b.id ? 1 : -1) : b.at - a.at);
    // Open (awaiting a decision) before closed, whatever the alphabet says.
    const order = (rows: Remarket[], first = "open") =>
      [...rows].sort((a, b) => (a.status === b.status ? newestThenId(a, b) : a.status === first ? -1 : 1)).map((r) => r.id);
    // A closed re-market arriving mid-walk lands after the cursor: it is seen, first of the closed.
    let closed: Remarket | undefined;
    await expectPaged(
      "/api/qoutes?status=all",
      t,
      () => order([...mine, closed!]),
      { auth: await bearerFor(other.user), ids: order(theirs) },
      async () => {
        closed = await add(t, base + 60_000, "closed");
      },
    );
    const all = [...mine, closed!];
    // The page numbers (the /quotes page's paging) keep the same order.
    const legacy = await get(await bearerFor(t.user), "/api/quotes?status=all&page=1");
    expect(legacy.json.data.rows.map((r: Row) => r.id)).toEqual(order(all));
    const open = await walk(await bearerFor(t.user), "/api/quotes", async () => {});
    expect(open).toEqual(order(all.filter((r) => r.status === "open")));
    // Closed first (still newest first within each status), and oldest first.
    expect(await walk(await bearerFor(t.user), "/api/quotes?status=all&sort=-status", async () => {})).toEqual(order(all, "closed"));
    let older: Remarket | undefined;
    const oldest = await walk(await bearerFor(t.user), "/api/qoutes?status=all&sort=createdAt", async () => {
      // Older than every row: before the cursor, not seen.
      older = await add(t, base - 60_000, "open");
    });
    expect(oldest).toEqual([...all].sort((a, b) => -newestThenId(a, b)).map((r) => r.id));
    expect(oldest).not.toContain(older!.id);
    await expectSortRules(await bearerFor(t.user), "/api/quotes?status=all", "createdAt", ["status", "createdAt"]);
  });
});

describe("GET /api/carriers/tenant/list with limit and cursor", () => {
  test("by name then id, every carrier of the agency once, stable under inserts, tenant-scoped", async () => {
    const t = await createTestTenant();
    const other = await createTestTenant();
    await ensureCarrierCatalogue(t.db);
    const catalogue = await t.db.select({ id: carriers.id, name: carriers.name }).from(carriers).orderBy(asc(carriers.name)).limit(10);
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
    await expectSortRules(await bearerFor(t.user), "/api/carriers/tenant/list", "-name", ["name"]);

    // Z to A: a carrier added mid-walk whose name sorts before every other (here: last) lands before the cursor, unseen.
    const aToZ = ((await get(await bearerFor(t.user), "/api/carriers/tenant/list")).json.data as Row[]).map((r) => r.id);
    const descending = await walk(await bearerFor(t.user), "/api/carriers/tenant/list?sort=-name", () => add(t, catalogue[9].id));
    expect(descending).toEqual([...aToZ].reverse());
    const zToA = ((await get(await bearerFor(t.user), "/api/carriers/tenant/list?sort=-name")).json.data as Row[]).map((r) => r.id);
    expect(zToA.slice(1)).toEqual(descending);
  });

  test("the catalogue by name, A to Z and Z to A: every carrier once", async () => {
    const t = await createTestTenant();
    const auth = await bearerFor(t.user);
    await ensureCarrierCatalogue(t.db);
    for (const sort of ["name", "-name"]) {
      const whole = ((await get(auth, `/api/carriers?line=HOME&sort=${sort}`)).json.data as Row[]).map((r) => r.id);
      expect(whole.length).toBeGreaterThan(3);
      expect(await walk(auth, `/api/carriers?line=HOME&sort=${sort}`, async () => {})).toEqual(whole);
    }
    await expectSortRules(auth, "/api/carriers", "-name", ["name"]);
  });
});

describe("GET /api/renewals/flagged with limit, cursor and sort", () => {
  test("the worklist's sorts: every flag once, in order, stable under inserts, tenant-scoped", async () => {
    const t = await createTestTenant();
    const other = await createTestTenant();
    const add = async (tenant: Tenant, expirationDate: string, changePct: number) => {
      const customer = await addCustomer(tenant, `Flagged ${randomUUID().slice(0, 8)}`);
      const policy = await addPolicy(tenant, customer.id, `F-${randomUUID().slice(0, 8)}`, expirationDate);
      const renewal = 1000 + changePct * 10;
      const [row] = await tenant.db
        .insert(renewalFlags)
        .values({
          tenantId: tenant.tenant.id,
          policyId: policy.id,
          customerId: customer.id,
          customerName: customer.name,
          policyNumber: policy.policyNumber,
          lineOfBusiness: "HOME",
          carrierName: "Travelers",
          expirationDate,
          currentPremium: 1000,
          renewalPremium: renewal,
          predicted: false,
          changePct,
          changeAmount: renewal - 1000,
          ruleVersion: "test",
          why: {
            ruleVersion: "test",
            forecastObjectId: "all",
            thresholdPct: 10,
            thresholdAmount: null,
            actDaysBeforeExpiration: 90,
            triggered: ["pct"],
            compared: {
              currentPremium: 1000,
              renewalPremium: renewal,
              predicted: false,
              predictionLevel: null,
              predictionSample: null,
              changePct,
              changeAmount: renewal - 1000,
              daysToExpiry: 60,
            },
          },
        })
        .returning({ id: renewalFlags.id });
      return { id: row.id, expirationDate, changePct };
    };
    type Flag = Awaited<ReturnType<typeof add>>;
    // Change ties (12 twice, 25 three times) break on expiry, then id; so do expiry ties.
    const mine: Flag[] = [];
    const plan: [string, number][] = [
      ["2027-03-01", 12],
      ["2027-02-01", 25],
      ["2027-02-01", 25],
      ["2027-01-15", 12],
      ["2027-04-01", 40],
      ["2027-02-01", 25],
      ["2027-05-01", 18],
    ];
    for (const [date, pct] of plan) mine.push(await add(t, date, pct));
    const theirs = [await add(other, "2027-02-01", 30)];
    const byExpiry = (a: Flag, b: Flag) =>
      a.expirationDate === b.expirationDate ? (a.id < b.id ? -1 : 1) : a.expirationDate < b.expirationDate ? -1 : 1;
    const expiryOrder = (rows: Flag[]) => [...rows].sort(byExpiry).map((r) => r.id);
    const biggestChange = (rows: Flag[]) =>
      [...rows].sort((a, b) => (a.changePct === b.changePct ? byExpiry(a, b) : b.changePct - a.changePct)).map((r) => r.id);

    // The default (soonest expiry): a flag expiring later than all lands after the cursor, seen last.
    let late: Flag | undefined;
    await expectPaged(
      "/api/renewals/flagged",
      t,
      () => expiryOrder([...mine, late!]),
      { auth: await bearerFor(other.user), ids: [theirs[0].id] },
      async () => {
        late = await add(t, "2027-12-31", 5);
      },
    );
    const all = [...mine, late!];
    // Biggest change first: a bigger one arriving mid-walk lands before the cursor (unseen); a smaller one after it (seen, last).
    let small: Flag | undefined;
    const seen = await walk(await bearerFor(t.user), "/api/renewals/flagged?sort=-change_pct", async () => {
      await add(t, "2027-02-01", 90);
      small = await add(t, "2027-02-01", 1);
    });
    expect(seen).toEqual(biggestChange([...all, small!]));
    await expectSortRules(await bearerFor(t.user), "/api/renewals/flagged", "-change_pct", [
      "expiry",
      "change_pct",
      "change_amount",
      "premium",
    ]);
  });
});
