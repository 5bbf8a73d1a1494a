import { describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { loader as api } from "~/routes/api.$";
import { seedFlaggedBook } from "../support/book-factories";
import { addTestUser, bearerFor, createTestTenant } from "../support/factories";

// The seed §7 calls added in issue 17, through the API as a client calls them: the same services
// as the pages, scoped to the caller's agency.

async function call(auth: string, method: string, path: string, body?: unknown) {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = { Authorization: auth };
  if (text !== undefined) Object.assign(headers, { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(text)) });
  const response = await api({ request: new Request(`http://localhost${path}`, { method, headers, body: text }), params: {}, context: {} });
  return { status: response.status, body: await response.json() };
}

async function agencyWithBook(tag: string) {
  const { user, tenant } = await createTestTenant();
  const ctx = { db: await getDb(), tenantId: tenant.id, userId: user.id, role: "admin" as const };
  const book = await seedFlaggedBook(ctx, { tag, size: 2, remarketed: 1 });
  return { user, tenant, book, auth: await bearerFor(user) };
}

describe("issue 17: the added calls", () => {
  test("customers: all, counts, by id and audit trail, only the caller's own", async () => {
    const mine = await agencyWithBook("ops-a");
    const theirs = await agencyWithBook("ops-b");
    const all = await call(mine.auth, "GET", "/api/customers/all?q=ops-a");
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(2);
    expect((all.body.data as { id: string }[]).map((c) => c.id).sort()).toEqual([...mine.book.customerIds].sort());
    expect((await call(mine.auth, "GET", "/api/customers/all?q=ops-b")).body.total).toBe(0);
    expect((await call(mine.auth, "GET", "/api/customers/counts")).body.data).toMatchObject({ total: 2 });
    const one = await call(mine.auth, "GET", `/api/customers/${mine.book.customerIds[0]}`);
    expect(one.status).toBe(200);
    expect((await call(mine.auth, "GET", `/api/customers/${mine.book.customerIds[0]}/audit-details/`)).status).toBe(200);
    expect((await call(mine.auth, "GET", `/api/customers/${theirs.book.customerIds[0]}`)).status).toBe(404);
    expect((await call(mine.auth, "GET", "/api/customers/all?segment=nope")).body.errors).toHaveProperty("segment");
  });

  test("quotes: record one with the page's rules under both spellings, then read it by policy", async () => {
    const mine = await agencyWithBook("ops-q");
    const remarketId = mine.book.remarketIds[0];
    const refused = await call(mine.auth, "POST", "/api/quotes/policy/create-update", {
      remarketId,
      premium: 0,
      effectiveDate: "2027-01-01",
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toMatchObject({ premium: ["Premium must be more than $0: '0'"] });
    const saved = await call(mine.auth, "POST", "/api/qoutes/policy/create-update", {
      remarketId,
      premium: 1234,
      effectiveDate: "2027-01-01",
      carrierName: "Api Mutual",
    });
    expect(saved.status).toBe(200);
    const policyId = mine.book.policyIds[0];
    const listed = await call(mine.auth, "GET", `/api/qoutes/policy/?policyId=${policyId}`);
    expect((listed.body.data as { carrierName: string }[]).map((q) => q.carrierName)).toContain("Api Mutual");
    const alias = await call(mine.auth, "GET", `/api/quotes/policy/${policyId}`);
    expect(alias.body.data).toEqual(listed.body.data);
  });

  test("deep links verify to their target for their agency only", async () => {
    const mine = await agencyWithBook("ops-d");
    const { user: stranger } = await createTestTenant();
    const created = await call(mine.auth, "POST", "/api/deeplinks", { target: "/customers" });
    expect(created.status).toBe(201);
    const id = encodeURIComponent(created.body.data.id);
    expect(await call(mine.auth, "GET", `/api/deeplinks/${id}/verify`)).toMatchObject({
      status: 200,
      body: { data: { target: "/customers" } },
    });
    expect((await call(await bearerFor(stranger), "GET", `/api/deeplinks/${id}/verify`)).status).toBe(404);
    expect((await call(mine.auth, "GET", "/api/deeplinks/forged/verify")).status).toBe(404);
    expect((await call(mine.auth, "POST", "/api/deeplinks", { target: "https://evil.example" })).status).toBe(400);
  });

  test("PATCH /api/user/{id} renames oneself; a staff member cannot rename a colleague", async () => {
    const { user, tenant } = await createTestTenant();
    const { user: staff } = await addTestUser(tenant.id, { role: "staff" });
    const renamed = await call(await bearerFor(user), "PATCH", `/api/user/${user.id}`, { name: "  New Name " });
    expect(renamed).toMatchObject({ status: 200, body: { data: { id: user.id, name: "New Name" } } });
    expect((await call(await bearerFor(staff), "PATCH", `/api/user/${user.id}`, { name: "X" })).status).toBe(403);
    expect((await call(await bearerFor(user), "PATCH", `/api/user/${user.id}`, {})).body.errors).toHaveProperty("name");
  });

  test("forecast preferences: saved with the page's rules, read per forecast object", async () => {
    const { user } = await createTestTenant();
    const auth = await bearerFor(user);
    const bad = await call(auth, "POST", "/api/forecast-preferences", {
      forecastObjectId: "HOME",
      window: "3 weeks",
      thresholdPct: 0,
      actDaysBeforeExpiration: 30,
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["thresholdPct", "window"]);
    const saved = await call(auth, "POST", "/api/forecast-preferences", {
      forecastObjectId: "HOME",
      window: "6 months",
      thresholdPct: 12,
      actDaysBeforeExpiration: 45,
    });
    expect(saved).toMatchObject({ status: 200, body: { data: { forecastObjectId: "HOME", window: "6m", thresholdPct: 12 } } });
    expect((await call(auth, "GET", "/api/forecast-preferences/HOME")).body.data).toMatchObject({
      window: "6m",
      actDaysBeforeExpiration: 45,
    });
    expect((await call(auth, "GET", "/api/forecast-preferences")).body.data).toHaveLength(1);
    expect((await call(auth, "GET", "/api/forecast-summary/tenant")).status).toBe(200);
  });

  test("carriers: add one from the catalogue, give it numbers, find it by carrier", async () => {
    const { user } = await createTestTenant();
    const auth = await bearerFor(user);
    const catalogue = (await call(auth, "GET", "/api/carriers?line=HOME")).body.data as { id: string }[];
    expect(catalogue.length).toBeGreaterThan(0);
    const added = await call(auth, "POST", "/api/carriers/tenant/add-carrier", { carrierId: catalogue[0].id });
    expect(added.status).toBe(201);
    const id = added.body.data.id as string;
    const numbered = await call(auth, "POST", "/api/carriers/tenant/assign-numbers", { id, agencyCode: "AG-1" });
    expect(numbered.body.data).toMatchObject({ id, agencyCode: "AG-1" });
    expect((await call(auth, "GET", `/api/carriers/tenant-carrier-by-carrier?carrierId=${catalogue[0].id}`)).body.data.id).toBe(id);
    expect((await call(auth, "GET", "/api/carriers/tenant/list")).body.data).toHaveLength(1);
    expect((await call(auth, "GET", "/api/carriers/lob/states?line=HOME")).body.data.length).toBeGreaterThan(0);
  });
});
