import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { loader as openApiLoader } from "~/routes/api.openapi[.]json";
import { loader as api } from "~/routes/api.$";
import { createApiKey } from "~/services/identity/api-keys.server";
import { createDeepLink } from "~/services/platform/deeplinks.server";
import type { TenantContext } from "~/services/platform/context.server";
import { seedFlaggedBook, type ScopedBook } from "../support/book-factories";
import { bearerFor, createTestTenant } from "../support/factories";

// Walks /api/openapi.json: every operation is called without a token (401, or 410 when retired),
// by another agency with this agency's ids (404 where an id names a record), with malformed JSON
// (400), with the caller's own plain input, and with the agency's read-only API key (a write is a
// 403); every answer's status must be one the document
// lists for the operation, and its body must validate (ajv, JSON Schema 2020-12) against the
// schema the document gives for that status.

type Schema = Record<string, unknown>;
type Operation = {
  operationId: string;
  security: unknown[];
  deprecated?: boolean;
  parameters?: { name: string; in: "path" | "query" | "header"; required: boolean; schema?: { enum?: string[]; default?: string } }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

const RANDOM_ID = "00000000-0000-4000-8000-000000000000";
let doc: Doc;
let ajv: Ajv2020;
let mine: { user: { id: string; email: string; tenantId: string }; ctx: TenantContext; book: ScopedBook; deepLink: string };
let stranger: { id: string; tenantId: string };

function inline(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(inline);
  if (schema && typeof schema === "object") {
    const ref = (schema as { $ref?: string }).$ref;
    if (ref?.startsWith("#/components/schemas/")) return inline(doc.components.schemas[ref.slice("#/components/schemas/".length)]);
    return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, inline(v)]));
  }
  return schema;
}

/** The value of a parameter or body field: this agency's record where the name says which, else a harmless one. */
function valueFor(name: string, path: string): string | number {
  const { book, user, deepLink } = mine;
  if (path.startsWith("/api/customers/{id}")) return book.customerIds[0];
  if (path.includes("/{id}/selection")) return book.quoteIds[0];
  if (path === "/api/user/{id}") return user.id;
  if (path.startsWith("/api/deeplinks/{id}")) return deepLink;
  const byName: Record<string, string | number> = {
    premium: 900,
    effectiveDate: "2027-01-01",
    title: "Contract check",
    name: "Renamed Person",
    customerId: book.customerIds[0],
    policyId: book.policyIds[0],
    remarketId: book.remarketIds[0],
    email: user.email,
    domain: "policies",
    line: "HOME",
    forecast_object_id: "HOME",
    object: "Account",
    attribute: "State",
  };
  return byName[name] ?? RANDOM_ID;
}

/** Whether the operation names one of this agency's records, so another agency must get a 404. */
const namesARecord = (path: string, fields: string[]) =>
  /\/api\/(customers\/\{id\}|user\/\{id\}|deeplinks\/\{id\}|q[ou]o?[ut]es\/(\{id\}|policy\/\{policyId\}))/.test(path) ||
  fields.some((f) => ["customerId", "policyId", "remarketId", "email"].includes(f));

function requestFor(path: string, method: string, op: Operation, auth: string | null, body?: string) {
  const fields: string[] = [];
  let url = path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(String(valueFor(name, path))));
  const query = new URLSearchParams();
  for (const p of op.parameters ?? []) {
    if (p.in === "query" && p.required) {
      query.set(p.name, String(valueFor(p.name, path)));
      fields.push(p.name);
    }
  }
  const json = op.requestBody?.content["application/json"]?.schema as { required?: string[] } | undefined;
  let payload = body;
  if (payload === undefined && json) {
    const values: Record<string, unknown> = Object.fromEntries((json.required ?? []).map((name) => [name, valueFor(name, path)]));
    // A quote names its carrier by id or by name: neither is required alone.
    if (path.endsWith("/create-update")) values.carrierName = "Contract Carrier";
    fields.push(...Object.keys(values));
    payload = JSON.stringify(values);
  }
  if (query.size) url += `?${query}`;
  const headers: Record<string, string> = {};
  if (auth) headers.Authorization = auth;
  if (payload !== undefined && method !== "GET") {
    headers["Content-Type"] = op.requestBody?.content["multipart/form-data"] ? "multipart/form-data; boundary=x" : "application/json";
    headers["Content-Length"] = String(Buffer.byteLength(payload));
  }
  const request = new Request(`http://localhost${url}`, { method, headers, body: method === "GET" ? undefined : (payload ?? "") });
  return { request, fields };
}

async function expectDocumented(op: Operation, response: Response, label: string) {
  const status = String(response.status);
  const text = await response.text();
  expect(Object.keys(op.responses), `${label}: ${status} ${text.slice(0, 300)}`).toContain(status);
  const type = (response.headers.get("Content-Type") ?? "").split(";")[0];
  const content = op.responses[status].content;
  if (!content) return response.status;
  const schema = content[type]?.schema;
  expect(schema, `${label}: ${status} answered ${type}`).toBeDefined();
  if (type.includes("json")) {
    const validate = ajv.compile(inline(schema) as Schema);
    const valid = validate(JSON.parse(text));
    expect(valid, `${label}: ${JSON.stringify(validate.errors)} in ${text.slice(0, 300)}`).toBe(true);
  }
  return response.status;
}

beforeAll(async () => {
  doc = (await (await openApiLoader()).json()) as Doc;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  const a = await createTestTenant();
  const db = await getDb();
  const ctx = { db, tenantId: a.tenant.id, userId: a.user.id, role: "admin" as const };
  const book = await seedFlaggedBook(ctx, { tag: "contract", size: 2, remarketed: 1 });
  mine = { user: a.user, ctx, book, deepLink: createDeepLink(ctx, "/customers").id };
  stranger = (await createTestTenant()).user;
});

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );

describe("/api/openapi.json: the contract every operation keeps", () => {
  test("the document is OpenAPI 3.1, every schema in it compiles, and it has every operation", () => {
    expect(doc.openapi).toBe("3.1.0");
    const all = operations();
    expect(all.length).toBeGreaterThan(90);
    for (const { op } of all) {
      for (const response of Object.values(op.responses)) {
        for (const { schema } of Object.values(response.content ?? {})) ajv.compile(inline(schema) as Schema);
      }
      for (const { schema } of Object.values(op.requestBody?.content ?? {})) ajv.compile(inline(schema) as Schema);
    }
  });

  test("every operation: no token, another agency's ids, malformed JSON, plain input and a read-only API key answer as documented", async () => {
    const seen: Record<string, number[]> = {};
    for (const { path, method, op } of operations()) {
      const label = `${method} ${path}`;
      const statuses: number[] = [];
      // No token.
      const anonymous = await api({ request: requestFor(path, method, op, null).request, params: {}, context: {} });
      const status = await expectDocumented(op, anonymous, `${label} without a token`);
      if (op.deprecated) expect(status, label).toBe(410);
      else if (op.security.length > 0) expect(status, label).toBe(401);
      statuses.push(status);
      if (op.deprecated) {
        seen[label] = statuses;
        continue;
      }
      // Another agency with this agency's ids.
      const strangerCall = requestFor(path, method, op, await bearerFor(stranger));
      const theirs = await expectDocumented(
        op,
        await api({ request: strangerCall.request, params: {}, context: {} }),
        `${label} by another agency`,
      );
      if (op.security.length > 0 && namesARecord(path, strangerCall.fields)) expect(theirs, `${label} by another agency`).toBe(404);
      statuses.push(theirs);
      // Malformed JSON.
      if (op.requestBody?.content["application/json"]) {
        const malformed = requestFor(path, method, op, await bearerFor(mine.user), "{not json");
        const bad = await expectDocumented(op, await api({ request: malformed.request, params: {}, context: {} }), `${label} malformed`);
        expect(bad, `${label} malformed`).toBe(400);
        statuses.push(bad);
      }
      // The agency itself, with its own ids.
      const own = requestFor(path, method, op, await bearerFor(mine.user));
      statuses.push(await expectDocumented(op, await api({ request: own.request, params: {}, context: {} }), `${label} by its agency`));
      // The agency's read-only API key (a fresh one each time, so the per-key budget never runs out).
      if (op.security.length > 0) {
        const key = await createApiKey(mine.ctx, { name: `contract ${label}`, scope: "read" });
        const keyed = requestFor(path, method, op, `Bearer ${key.secret}`);
        const status = await expectDocumented(
          op,
          await api({ request: keyed.request, params: {}, context: {} }),
          `${label} by a read-only key`,
        );
        if (method !== "GET") expect(status, `${label} by a read-only key`).toBe(403);
        statuses.push(status);
      }
      // A paginated list takes limit and cursor: limit=1 answers one row at most and a nextCursor that continues.
      if (op.parameters?.some((p) => p.in === "query" && p.name === "cursor")) {
        const paged = async (query: string) => {
          const { request } = requestFor(path, method, op, await bearerFor(mine.user));
          const url = new URL(request.url);
          for (const [k, v] of new URLSearchParams(query)) url.searchParams.set(k, v);
          return api({ request: new Request(url, { headers: request.headers }), params: {}, context: {} });
        };
        const first = await paged("limit=1");
        // nextCursor sits in data, or beside it where data is the original spec's array.
        const body = (await first.clone().json()) as { nextCursor?: string | null; data?: { nextCursor?: string | null } };
        expect(await expectDocumented(op, first, `${label} limit=1`), `${label} limit=1`).toBe(200);
        const holder = Array.isArray(body.data) ? body : body.data;
        expect(holder, `${label} nextCursor`).toHaveProperty("nextCursor");
        if (holder?.nextCursor)
          expect(await expectDocumented(op, await paged(`limit=1&cursor=${holder.nextCursor}`), `${label} next`)).toBe(200);
        expect(await expectDocumented(op, await paged("cursor=%21"), `${label} bad cursor`), `${label} bad cursor`).toBe(400);
        // Every cursor list sorts by sort=<field> or sort=-<field>: each documented value pages as
        // documented, a field it does not list is a 400, and a cursor is refused by another sort.
        const sort = op.parameters.find((p) => p.in === "query" && p.name === "sort");
        expect(sort?.schema?.enum, `${label} documents sort`).toEqual(expect.arrayContaining([sort?.schema?.default]));
        for (const value of sort!.schema!.enum!) {
          const sorted = await paged(`limit=1&sort=${value}`);
          const next = (await sorted.clone().json()) as { nextCursor?: string | null; data?: { nextCursor?: string | null } };
          expect(await expectDocumented(op, sorted, `${label} sort=${value}`), `${label} sort=${value}`).toBe(200);
          const cursor = (Array.isArray(next.data) ? next : next.data)?.nextCursor;
          if (cursor) {
            const label2 = `${label} sort=${value} next`;
            expect(await expectDocumented(op, await paged(`limit=1&sort=${value}&cursor=${cursor}`), label2), label2).toBe(200);
            // The same field the other way round.
            const other = value.startsWith("-") ? value.slice(1) : `-${value}`;
            const label3 = `${label} sort=${other} with a cursor of sort=${value}`;
            if (sort!.schema!.enum!.includes(other))
              expect(await expectDocumented(op, await paged(`limit=1&sort=${other}&cursor=${cursor}`), label3), label3).toBe(400);
          }
        }
        expect(await expectDocumented(op, await paged("sort=-noSuchField"), `${label} bad sort`), `${label} bad sort`).toBe(400);
      }
      // A creating POST takes an Idempotency-Key: a retry answers as the first did.
      if (op.parameters?.some((p) => p.in === "header" && p.name === "Idempotency-Key")) {
        const keyed = () => {
          const { request } = requestFor(path, method, op, null);
          return request;
        };
        const withKey = async () => {
          const base = keyed();
          const headers = new Headers(base.headers);
          headers.set("Authorization", await bearerFor(mine.user));
          headers.set("Idempotency-Key", `contract-${operationKey}`);
          return new Request(base, { headers });
        };
        const operationKey = op.operationId.padEnd(16, "-");
        const first = await expectDocumented(op, await api({ request: await withKey(), params: {}, context: {} }), `${label} keyed`);
        const retry = await api({ request: await withKey(), params: {}, context: {} });
        if (first < 300) expect(retry.headers.get("Idempotent-Replayed"), `${label} retried`).toBe("true");
        expect(await expectDocumented(op, retry, `${label} retried`), `${label} retried`).toBe(first);
        statuses.push(first);
      }
      seen[label] = statuses;
    }
    console.log(`contract: ${Object.keys(seen).length} operations walked`);
  }, 300_000);
});
