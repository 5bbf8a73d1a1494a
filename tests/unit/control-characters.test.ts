import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { connections, tenants, users } from "~/db/schema";
import { loader as customersLoader } from "~/routes/_app.customers._index";
import { loader as remarketLoader } from "~/routes/_app.remarket";
import * as stateSave from "~/routes/api.connections.state.save";
import * as uploadCsv from "~/routes/api.connections.ezlynx.upload-csv";
import { action as draftAction } from "~/routes/resources.connection-state.$connectionId";
import { action as signupAction } from "~/routes/auth.signup";
import { createReadyFileConnection } from "~/services/connections/connection-fixtures.server";
import { sampleExportText } from "~/services/connections/sample-export.server";
import { readCsvBatches } from "~/services/connections/connectors/csv-reader.server";
import { jsonWithoutControls, singleLineText, withoutControls } from "~/utils/schemas";
import { bearerFor, createTestTenant, makeRequest, sessionCookieFor, uniqueEmail } from "../support/factories";

// Issue 12 §3: `?q=a%00` on /customers and /remarket was a 500 (PostgreSQL refuses NUL) with the
// whole statement in the log. Text from query strings, forms and JSON is cleaned by the shared
// schemas before it reaches a service.

type Fn = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<unknown>;
const call = (fn: unknown, request: Request, params: Record<string, string> = {}) => (fn as Fn)({ request, params, context: {} });

async function statusOf(run: Promise<unknown>) {
  try {
    const result = await run;
    if (result instanceof Response) return result.status;
    const init = (result as { init?: { status?: number } } | null)?.init;
    return init?.status ?? 200;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

let me: Awaited<ReturnType<typeof createTestTenant>> & { cookie: string; bearer: string };
beforeAll(async () => {
  const t = await createTestTenant();
  me = { ...t, cookie: await sessionCookieFor(t.user), bearer: await bearerFor(t.user) };
});

describe("the shared text schemas", () => {
  test("remove NUL and the other C0 controls; single-line text turns tabs and line breaks into spaces", () => {
    expect(withoutControls("a\u0000b\u0007c\u007f")).toBe("abc");
    expect(withoutControls("two\tcolumns\r\nline")).toBe("two columns  line");
    expect(withoutControls("keep\tthe\nlines\u0000", { lines: true })).toBe("keep\tthe\nlines");
    expect(singleLineText().max(5).parse("  a\u0000b  ")).toBe("ab");
    expect(jsonWithoutControls({ "k\u0000": ["v\u0000", { n: 1, s: "x\ty\u0001" }] })).toEqual({ k: ["v", { n: 1, s: "x\ty" }] });
  });
});

describe("query strings", () => {
  test.each([
    { path: "/customers", loader: customersLoader },
    { path: "/remarket", loader: remarketLoader },
  ])("$path with a NUL in the search answers the page (was a 500)", async ({ path, loader }) => {
    for (const q of ["a%00", "%00", "a%00b%07c", "%0D%0A"]) {
      expect(await statusOf(call(loader, makeRequest(`${path}?q=${q}&state=%00&producer=x%00`, { cookie: me.cookie })))).toBe(200);
    }
  });
});

describe("forms", () => {
  test("a sign-up whose agency and person names hold NUL is cleaned, not a 500", async () => {
    const email = uniqueEmail("nul");
    const form = {
      agencyName: "Acme\u0000 Agency",
      name: "Nu\u0000l Person",
      email,
      password: "secret-pass",
      confirmPassword: "secret-pass",
    };
    expect(await statusOf(call(signupAction, makeRequest("/auth/signup", { form })))).toBe(302);
    const db = await getDb();
    const [row] = await db
      .select({ name: users.name, agency: tenants.name })
      .from(users)
      .innerJoin(tenants, eq(tenants.id, users.tenantId))
      .where(eq(users.email, email));
    expect(row).toEqual({ name: "Nul Person", agency: "Acme Agency" });
  });
});

describe("JSON", () => {
  test("a wizard draft holding \\u0000 is saved cleaned through the API and the page's resource route", async () => {
    const connection = await createReadyFileConnection(me.ctx, { policies: 5 });
    const body = JSON.stringify({
      connectionId: connection.id,
      key: "mapping",
      draft: { object: "rows\u0000", fields: { "name\u0000": "Insured\u0000" } },
    });
    const api = new Request("http://localhost/api/connections/state/save", {
      method: "POST",
      body,
      headers: { Authorization: me.bearer, "Content-Type": "application/json" },
    });
    expect(await statusOf(call(stateSave.action, api))).toBe(200);
    const [saved] = await me.db.select({ state: connections.state }).from(connections).where(eq(connections.id, connection.id));
    expect((saved.state as Record<string, unknown>).mapping).toEqual({ object: "rows", fields: { name: "Insured" } });

    const page = new Request(`http://localhost/resources/connection-state/${connection.id}`, {
      method: "POST",
      body: JSON.stringify({ key: "filters", draft: ["CA\u0000"] }),
      headers: { Cookie: me.cookie, "Content-Type": "application/json" },
    });
    expect(await statusOf(call(draftAction, page, { connectionId: connection.id }))).toBe(200);
  });

  test("an EZLynx upload named with a NUL is cleaned, not a 500", async () => {
    const form = new FormData();
    form.set("file", new Blob([await sampleExportText({ policies: 3 })], { type: "text/csv" }), "book.csv");
    form.set("name", "Main\u0000 office");
    const request = new Request("http://localhost/api/connections/ezlynx/upload-csv", {
      method: "POST",
      body: form,
      headers: { Authorization: me.bearer },
    });
    const response = (await call(uploadCsv.action, request)) as Response;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: { connection: { name: string } } }).data.connection.name).toBe("Main office");
  });
});

describe("exports", () => {
  test("a NUL byte in a CSV export is dropped when it is read, so the import does not fail on it", async () => {
    const rows = [];
    for await (const batch of readCsvBatches(Readable.from([Buffer.from("name,premium\nAnn\u0000 Lee,100\n")]), ",")) rows.push(...batch);
    expect(rows.map((r) => r.cells)).toEqual([
      ["name", "premium"],
      ["Ann Lee", "100"],
    ]);
  });
});
