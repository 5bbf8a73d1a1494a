import { randomUUID } from "node:crypto";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { users } from "~/db/schema";
import * as activityCodes from "~/routes/api.connections.appliedepic.activity-code";
import * as employeesEpic from "~/routes/api.connections.appliedepic.employee-accounts";
import * as workGroups from "~/routes/api.connections.appliedepic.work-group";
import * as disconnect from "~/routes/api.connections.disconnect.$id";
import * as disconnectSub from "~/routes/api.connections.disconnect.sub-connection.$id";
import * as uploadCsv from "~/routes/api.connections.ezlynx.upload-csv";
import * as filterValues from "~/routes/api.connections.etl-filter-values";
import * as list from "~/routes/api.connections._index";
import * as employeesQq from "~/routes/api.connections.qqcatalyst.employee-accounts";
import * as values from "~/routes/api.connections.salesforce.mapping.attribute.$attribute.values";
import * as mapping from "~/routes/api.connections.salesforce.mapping._index";
import * as attributes from "~/routes/api.connections.salesforce.mapping.object.$object.attributes";
import * as objects from "~/routes/api.connections.salesforce.mapping.objects";
import * as startEtl from "~/routes/api.connections.start-etl.$id";
import * as stateGet from "~/routes/api.connections.state.get";
import * as stateSave from "~/routes/api.connections.state.save";
import * as status from "~/routes/api.connections.status.$id";
import * as saveConfig from "~/routes/api.mappings.save-config";
import * as duration from "~/routes/api.notifications.durationByConnectionId";
import * as listV2 from "~/routes/api.v2.connections";
import { createReadyFileConnection, storeSampleExport } from "~/services/connections/connection-fixtures.server";
import { sampleExportText } from "~/services/connections/sample-export.server";
import { getStorage } from "~/services/files/storage.server";
import { saveConnectionSettings } from "~/services/connections/connections.server";
import { bearerFor, createTestTenant, sessionCookieFor } from "../support/factories";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read each route's own JSON
type Answer = { data?: any; type?: string; title?: string; status?: number; detail?: string; errors?: Record<string, string[]> };
type Fn = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<Response>;

let owner: Awaited<ReturnType<typeof createTestTenant>>;
let ownerAuth: string;
let strangerAuth: string;
let ready: Awaited<ReturnType<typeof createReadyFileConnection>>;

beforeAll(async () => {
  owner = await createTestTenant();
  ownerAuth = await bearerFor(owner.user);
  const stranger = await createTestTenant();
  strangerAuth = await bearerFor(stranger.user);
  ready = await createReadyFileConnection(owner.ctx, { policies: 60 });
});

const callAs = (fn: Fn, path: string, options: Parameters<typeof call>[2] = {}) => call(fn, path, options);

/** Call a route like the server would and read its JSON. */
async function call(
  fn: Fn,
  path: string,
  options: { auth?: string | null; body?: unknown; params?: Record<string, string>; cookie?: string; contentType?: string } = {},
) {
  const headers = new Headers();
  if (options.auth !== null) headers.set("Authorization", options.auth ?? ownerAuth);
  if (options.cookie) headers.set("Cookie", options.cookie);
  const init: RequestInit = { method: options.body === undefined ? "GET" : "POST", headers };
  if (options.body !== undefined) {
    headers.set("Content-Type", options.contentType ?? "application/json");
    init.body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fn({ request: new Request(`http://localhost${path}`, init), params: options.params ?? {}, context: {} });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    response = thrown;
  }
  const json = (await response.json()) as Answer;
  // Every failure is RFC 9457 problem+json, its status repeated in the body.
  if (!response.ok) {
    expect(response.headers.get("Content-Type")).toBe("application/problem+json");
    expect(json).toMatchObject({
      type: expect.any(String),
      title: expect.any(String),
      status: response.status,
      detail: expect.any(String),
    });
  }
  return { status: response.status, json };
}

const get = (fn: unknown) => (fn as { loader: Fn }).loader;
const post = (fn: unknown) => (fn as { action: Fn }).action;

describe("/api/connections: tenant isolation (another tenant's connection id is a 404)", () => {
  const cases: [string, () => Promise<{ status: number }>][] = [
    ["status", () => call(get(status), `/api/connections/status/${ready.id}`, { auth: strangerAuth, params: { id: ready.id } })],
    ["state get", () => call(get(stateGet), `/api/connections/state/get?connectionId=${ready.id}`, { auth: strangerAuth })],
    [
      "state save",
      () =>
        call(post(stateSave), "/api/connections/state/save", {
          auth: strangerAuth,
          body: { connectionId: ready.id, key: "mapping", draft: { x: 1 } },
        }),
    ],
    [
      "start-etl",
      () => call(post(startEtl), `/api/connections/start-etl/${ready.id}`, { auth: strangerAuth, body: {}, params: { id: ready.id } }),
    ],
    [
      "disconnect",
      () =>
        call(post(disconnect), `/api/connections/disconnect/${ready.id}`, {
          auth: strangerAuth,
          body: { deleteData: true },
          params: { id: ready.id },
        }),
    ],
    [
      "disconnect sub-connection",
      () =>
        call(post(disconnectSub), `/api/connections/disconnect/sub-connection/${ready.id}`, {
          auth: strangerAuth,
          body: {},
          params: { id: ready.id },
        }),
    ],
    [
      "etl-filter-values",
      () => call(get(filterValues), `/api/connections/etl-filter-values?connectionId=${ready.id}`, { auth: strangerAuth }),
    ],
    ["mapping", () => call(get(mapping), `/api/connections/salesforce/mapping?connectionId=${ready.id}`, { auth: strangerAuth })],
    ["objects", () => call(get(objects), `/api/connections/salesforce/mapping/objects?connectionId=${ready.id}`, { auth: strangerAuth })],
    [
      "attributes",
      () =>
        call(get(attributes), `/api/connections/salesforce/mapping/object/rows/attributes?connectionId=${ready.id}`, {
          auth: strangerAuth,
          params: { object: "rows" },
        }),
    ],
    [
      "values",
      () =>
        call(get(values), `/api/connections/salesforce/mapping/attribute/LOB/values?connectionId=${ready.id}`, {
          auth: strangerAuth,
          params: { attribute: "LOB" },
        }),
    ],
    [
      "save-config",
      () =>
        call(post(saveConfig), "/api/mappings/save-config", {
          auth: strangerAuth,
          body: { connectionId: ready.id, mapping: ready.mapping },
        }),
    ],
    [
      "appliedepic employee-accounts",
      () => call(get(employeesEpic), `/api/connections/appliedepic/employee-accounts?connectionId=${ready.id}`, { auth: strangerAuth }),
    ],
    [
      "qqcatalyst employee-accounts",
      () => call(get(employeesQq), `/api/connections/qqcatalyst/employee-accounts?connectionId=${ready.id}`, { auth: strangerAuth }),
    ],
    [
      "activity codes",
      () => call(get(activityCodes), `/api/connections/appliedepic/activity-code?connectionId=${ready.id}`, { auth: strangerAuth }),
    ],
    [
      "work groups",
      () => call(get(workGroups), `/api/connections/appliedepic/work-group?connectionId=${ready.id}`, { auth: strangerAuth }),
    ],
    [
      "import duration",
      () => call(get(duration), `/api/notifications/durationByConnectionId?connectionId=${ready.id}`, { auth: strangerAuth }),
    ],
  ];
  test.each(cases)("%s", async (_name, run) => {
    expect((await run()).status).toBe(404);
  });

  test("the list holds only the caller's connections", async () => {
    const mine = await call(get(list), "/api/connections");
    expect(mine.status).toBe(200);
    expect(mine.json.data.map((c: { id: string }) => c.id)).toContain(ready.id);
    const theirs = await call(get(listV2), "/api/v2/connections", { auth: strangerAuth });
    expect(theirs.json.data).toEqual([]);
  });
});

describe("/api/connections: bearer only", () => {
  test("the session cookie alone is refused", async () => {
    const cookie = await sessionCookieFor(owner.user);
    const result = await call(get(status), `/api/connections/status/${ready.id}`, { auth: null, cookie, params: { id: ready.id } });
    expect(result).toMatchObject({ status: 401, json: { detail: "User is not authenticated" } });
  });
});

describe("/api/connections: validation errors are 400 with field messages", () => {
  test("missing or malformed connectionId", async () => {
    expect(await call(get(stateGet), "/api/connections/state/get")).toMatchObject({
      status: 400,
      json: { errors: { connectionId: ["connectionId is required."] } },
    });
    expect(await call(get(filterValues), "/api/connections/etl-filter-values?connectionId=42")).toMatchObject({
      status: 400,
      json: { errors: { connectionId: ["connectionId must be a connection id."] } },
    });
  });

  test("bodies: not JSON, not an object, bad fields", async () => {
    expect(
      (await call(post(stateSave), "/api/connections/state/save", { body: "key=x", contentType: "application/x-www-form-urlencoded" }))
        .status,
    ).toBe(415);
    expect(await call(post(stateSave), "/api/connections/state/save", { body: "{not json" })).toMatchObject({
      status: 400,
      json: { detail: "The body is not valid JSON." },
    });
    const badKey = await call(post(stateSave), "/api/connections/state/save", { body: { connectionId: ready.id, key: "Mapping!" } });
    expect(badKey.status).toBe(400);
    expect(badKey.json.errors?.key?.[0]).toMatch(/lowercase letters/);
    const badFlag = await call(post(disconnect), `/api/connections/disconnect/${ready.id}`, {
      body: { deleteData: "yes" },
      params: { id: ready.id },
    });
    expect(badFlag).toMatchObject({ status: 400, json: { errors: { deleteData: ["deleteData must be true or false."] } } });
    const badLimit = await call(
      get(values),
      `/api/connections/salesforce/mapping/attribute/LOB/values?connectionId=${ready.id}&limit=all`,
      { params: { attribute: "LOB" } },
    );
    expect(badLimit).toMatchObject({ status: 400, json: { errors: { limit: ["limit must be a number."] } } });
  });

  test("save-config: the mapping's problems, field by field", async () => {
    const missingMapping = await call(post(saveConfig), "/api/mappings/save-config", { body: { connectionId: ready.id } });
    expect(missingMapping).toMatchObject({ status: 400, json: { errors: { mapping: ["mapping is required."] } } });
    const incomplete = await call(post(saveConfig), "/api/mappings/save-config", {
      body: {
        connectionId: ready.id,
        mapping: { object: "rows", fields: { policyNumber: "Policy #", premium: "No such column", favouriteColour: "LOB" } },
      },
    });
    expect(incomplete.status).toBe(400);
    expect(incomplete.json.errors).toMatchObject({
      "mapping.fields.premium": ["rows has no attribute No such column."],
      "mapping.fields.favouriteColour": ["favouriteColour is not a field Remarket maps."],
      "mapping.fields.carrier": ["Map Carrier: it is required."],
    });
    const wrongObject = await call(post(saveConfig), "/api/mappings/save-config", {
      body: { connectionId: ready.id, mapping: { object: "Sheet9", fields: {} } },
    });
    expect(wrongObject).toMatchObject({ status: 400, json: { errors: { "mapping.object": ["The source has no object Sheet9."] } } });
  });
});

describe("/api/connections: the seed calls", () => {
  test("browse the source, save the mapping, read filter values and the task lists", async () => {
    const agency = await createTestTenant();
    const auth = await bearerFor(agency.user);
    const file = await storeSampleExport(agency.tenant.id, { policies: 30 });
    const fresh = await saveConnectionSettings(agency.ctx, null, { integrationId: "csv", name: "API made", credentials: {}, file });
    const q = `connectionId=${fresh.id}`;
    const call = (fn: Fn, path: string, options: Parameters<typeof callAs>[2] = {}) => callAs(fn, path, { auth, ...options });
    expect((await call(get(objects), `/api/connections/salesforce/mapping/objects?${q}`)).json.data).toEqual([
      { name: "rows", label: file.name },
    ]);
    const attrs = await call(get(attributes), `/api/connections/salesforce/mapping/object/rows/attributes?${q}`, {
      params: { object: "rows" },
    });
    expect(attrs.json.data.map((a: { name: string }) => a.name)).toContain("Policy #");
    expect(
      (await call(get(attributes), `/api/connections/salesforce/mapping/object/Nope/attributes?${q}`, { params: { object: "Nope" } }))
        .status,
    ).toBe(404);
    const lobs = await call(get(values), `/api/connections/salesforce/mapping/attribute/LOB/values?${q}&limit=3`, {
      params: { attribute: "LOB" },
    });
    expect(lobs.json.data).toMatchObject({ object: "rows", attribute: "LOB" });
    expect(lobs.json.data.values).toHaveLength(3);

    const suggestion = await call(get(mapping), `/api/connections/salesforce/mapping?${q}`);
    expect(suggestion.json.data).toMatchObject({ saved: null, object: "rows", suggested: { policyNumber: "Policy #" } });
    expect((await call(get(filterValues), `/api/connections/etl-filter-values?${q}`)).status).toBe(409);
    const saved = await call(post(saveConfig), "/api/mappings/save-config", {
      body: { connectionId: fresh.id, mapping: { object: "rows", fields: suggestion.json.data.suggested } },
    });
    expect(saved.status).toBe(200);
    expect(saved.json.data).toMatchObject({ scanned: 30, connectionId: fresh.id });
    // The identity rule: chosen over the API as on the page, and kept when a later save leaves it out.
    const perName = {
      connectionId: fresh.id,
      mapping: { object: "rows", fields: suggestion.json.data.suggested, identityRule: "per-name" },
    };
    expect((await call(post(saveConfig), "/api/mappings/save-config", { body: perName })).status).toBe(200);
    expect(
      (
        await call(post(saveConfig), "/api/mappings/save-config", {
          body: { ...perName, mapping: { ...perName.mapping, identityRule: undefined } },
        })
      ).status,
    ).toBe(200);
    expect((await call(get(mapping), `/api/connections/salesforce/mapping?${q}`)).json.data.saved).toMatchObject({
      identityRule: "per-name",
    });
    const wrongRule = await call(post(saveConfig), "/api/mappings/save-config", {
      body: { ...perName, mapping: { ...perName.mapping, identityRule: "oldest" } },
    });
    expect(wrongRule.status).toBe(400);
    const filters = await call(get(filterValues), `/api/connections/etl-filter-values?${q}`);
    expect(filters.json.data.filterValues.linesOfBusiness.length).toBeGreaterThan(0);
    const people = await call(get(employeesEpic), `/api/connections/appliedepic/employee-accounts?${q}`);
    expect(people.json.data.length).toBeGreaterThan(0);
    expect((await call(get(activityCodes), `/api/connections/appliedepic/activity-code?${q}`)).json.data.length).toBeGreaterThan(0);

    const state = await call(post(stateSave), "/api/connections/state/save", {
      body: { connectionId: fresh.id, key: "filters", draft: { states: ["TX"] } },
    });
    expect(state.json.data).toMatchObject({ step: "PREDICTION_SETTING", state: { filters: { states: ["TX"] } } });
    expect((await call(get(stateGet), `/api/connections/state/get?${q}`)).json.data.state).toEqual({ filters: { states: ["TX"] } });
  });

  test("start the import, follow its status and duration, disconnect; staff may read but not change", async () => {
    const connection = await createReadyFileConnection(owner.ctx, { policies: 20 });
    const staff = await createTestTenant({ role: "staff" });
    await owner.db.update(users).set({ tenantId: owner.tenant.id }).where(eq(users.id, staff.user.id));
    const staffAuth = await bearerFor({ id: staff.user.id, tenantId: owner.tenant.id });
    expect(
      (
        await call(post(startEtl), `/api/connections/start-etl/${connection.id}`, {
          auth: staffAuth,
          body: {},
          params: { id: connection.id },
        })
      ).status,
    ).toBe(403);
    expect(
      (await call(get(status), `/api/connections/status/${connection.id}`, { auth: staffAuth, params: { id: connection.id } })).status,
    ).toBe(200);

    const started = await call(post(startEtl), `/api/connections/start-etl/${connection.id}`, { body: {}, params: { id: connection.id } });
    expect(started.status).toBe(200);
    const again = await call(post(startEtl), `/api/connections/start-etl/${connection.id}`, { body: {}, params: { id: connection.id } });
    expect(again).toMatchObject({ status: 409, json: { detail: "An import is already running for this connection." } });
    const current = await call(get(status), `/api/connections/status/${connection.id}`, { params: { id: connection.id } });
    expect(current.json.data).toMatchObject({
      id: connection.id,
      status: "syncing",
      step: "COMPLETED",
      latestRun: { id: started.json.data.runId, status: "queued" },
    });
    expect((await call(get(duration), `/api/notifications/durationByConnectionId?connectionId=${connection.id}`)).json.data).toEqual({
      connectionId: connection.id,
      durationMs: null,
      duration: null,
    });

    expect(
      (
        await call(post(disconnectSub), `/api/connections/disconnect/sub-connection/${connection.id}`, {
          body: {},
          params: { id: connection.id },
        })
      ).status,
    ).toBe(404);
    const gone = await call(post(disconnect), `/api/connections/disconnect/${connection.id}`, {
      body: { deleteData: false },
      params: { id: connection.id },
    });
    expect(gone).toMatchObject({ status: 200, json: { data: { id: connection.id, status: "disconnected", deletedData: false } } });
    expect((await call(get(status), `/api/connections/status/${connection.id}`, { params: { id: connection.id } })).json.data.status).toBe(
      "disconnected",
    );
    expect((await call(get(status), `/api/connections/status/${randomUUID()}`, { params: { id: randomUUID() } })).status).toBe(404);
  });
});

describe("/api/connections/ezlynx/upload-csv", () => {
  /** POST the export as multipart/form-data, as a client of the API would. */
  async function upload(
    fields: Record<string, string | { name: string; text: string }>,
    auth: string | null = ownerAuth,
    extraHeaders: Record<string, string> = {},
  ) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) {
      if (typeof value === "string") form.set(name, value);
      else form.set(name, new Blob([value.text], { type: "text/csv" }), value.name);
    }
    const headers = new Headers({ ...(auth ? { Authorization: auth } : {}), ...extraHeaders });
    let response: Response;
    try {
      response = await post(uploadCsv)({
        request: new Request("http://localhost/api/connections/ezlynx/upload-csv", { method: "POST", headers, body: form }),
        params: {},
        context: {},
      });
    } catch (thrown) {
      if (!(thrown instanceof Response)) throw thrown;
      response = thrown;
    }
    return { status: response.status, json: (await response.json()) as Answer };
  }

  /** The export files stored for a tenant's connections (what a refused upload must not leave behind). */
  async function storedExports(tenantId: string) {
    const dir = path.dirname(getStorage().localPath(`tenants/${tenantId}/connections/probe.csv`)!);
    return readdir(dir).catch(() => [] as string[]);
  }

  test("creates an EZLynx connection from the export, and replaces the export of an existing one", async () => {
    const t = await createTestTenant();
    const auth = await bearerFor(t.user);
    const csv = await sampleExportText({ policies: 12 });

    const created = await upload({ file: { name: "book.csv", text: csv }, name: "Main office" }, auth);
    expect(created.status).toBe(200);
    expect(created.json.data).toMatchObject({
      created: true,
      mappingSaved: false,
      file: { name: "book.csv", bytes: Buffer.byteLength(csv) },
      connection: { name: "Main office", integrationId: "ezlynx", step: "CONNECTION_MAPPING" },
    });
    const id = created.json.data.connection.id as string;
    expect(created.json.data.connection.fileId).toEqual(expect.any(String));

    const listed = await call(get(list), "/api/v2/connections", { auth });
    expect(listed.json.data.map((c: { id: string }) => c.id)).toEqual([id]);

    const replaced = await upload({ file: { name: "book-2.csv", text: csv }, connectionId: id }, auth);
    expect(replaced.status).toBe(200);
    expect(replaced.json.data).toMatchObject({ created: false, connection: { id, name: "Main office" }, file: { name: "book-2.csv" } });
    expect(replaced.json.data.connection.fileId).not.toBe(created.json.data.connection.fileId);
    expect(await storedExports(t.tenant.id)).toHaveLength(2);
  });

  test("refuses what it cannot use with a field message, and keeps none of the uploaded bytes", async () => {
    const t = await createTestTenant();
    const auth = await bearerFor(t.user);
    const csv = await sampleExportText({ policies: 3 });

    const wrongType = await upload({ file: { name: "book.pdf", text: "%PDF" } }, auth);
    expect(wrongType.status).toBe(400);
    expect(wrongType.json.errors?.file).toEqual(["Upload the export as a .csv or .xlsx file."]);

    const empty = await upload({ file: { name: "book.csv", text: "" } }, auth);
    expect(empty.status).toBe(400);
    expect(empty.json.errors?.file).toEqual(["The file is empty."]);

    const noFile = await upload({ name: "No file" }, auth);
    expect(noFile.status).toBe(400);
    expect(noFile.json.errors?.file).toEqual(["Attach the export in a field named file."]);

    const badId = await upload({ file: { name: "book.csv", text: csv }, connectionId: "42" }, auth);
    expect(badId.status).toBe(400);
    expect(badId.json.errors?.connectionId).toEqual(["connectionId must be a connection id."]);

    // Another tenant's connection, guessed by id: the same 404 as a missing one.
    const foreign = await upload({ file: { name: "book.csv", text: csv }, connectionId: ready.id }, auth);
    expect(foreign.status).toBe(404);

    // A connection of another integration is not an EZLynx connection to replace.
    const csvConnection = await createReadyFileConnection(t.ctx, { integrationId: "csv", policies: 3 });
    const before = await storedExports(t.tenant.id);
    const otherIntegration = await upload({ file: { name: "book.csv", text: csv }, connectionId: csvConnection.id }, auth);
    expect(otherIntegration.status).toBe(404);

    expect(await storedExports(t.tenant.id)).toEqual(before);
    expect(before).toHaveLength(1); // the CSV connection's own export only
  });

  test("a retry with the same Idempotency-Key answers the first outcome and keeps one connection", async () => {
    const t = await createTestTenant();
    const auth = await bearerFor(t.user);
    const csv = await sampleExportText({ policies: 5 });
    const key = { "Idempotency-Key": `upload-${randomUUID()}` };

    const first = await upload({ file: { name: "book.csv", text: csv }, name: "Retry office" }, auth, key);
    const retry = await upload({ file: { name: "book.csv", text: csv }, name: "Retry office" }, auth, key);
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.json.data).toEqual(first.json.data);
    expect((await call(get(list), "/api/v2/connections", { auth })).json.data).toHaveLength(1);
    expect(await storedExports(t.tenant.id)).toHaveLength(1);

    // The same key from another agency is that agency's own request.
    const other = await createTestTenant();
    const elsewhere = await upload({ file: { name: "book.csv", text: csv }, name: "Retry office" }, await bearerFor(other.user), key);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.json.data.connection.id).not.toBe(first.json.data.connection.id);

    // The same key with another body is refused, and applies nothing.
    const changed = await upload({ file: { name: "book.csv", text: csv }, name: "Another office" }, auth, key);
    expect(changed.status).toBe(422);
    expect((await call(get(list), "/api/v2/connections", { auth })).json.data).toHaveLength(1);

    const short = await upload({ file: { name: "book.csv", text: csv } }, auth, { "Idempotency-Key": "short" });
    expect(short.status).toBe(400);
    expect(await storedExports(t.tenant.id)).toHaveLength(1);
  });

  test("is for admins with a bearer token, as multipart", async () => {
    const csv = await sampleExportText({ policies: 3 });
    expect((await upload({ file: { name: "book.csv", text: csv } }, null)).status).toBe(401);

    const staff = await createTestTenant({ role: "staff" });
    const staffAnswer = await upload({ file: { name: "book.csv", text: csv } }, await bearerFor(staff.user));
    expect(staffAnswer.status).toBe(403);
    expect(await storedExports(staff.tenant.id)).toEqual([]);

    const json = await call(post(uploadCsv), "/api/connections/ezlynx/upload-csv", { body: { file: "book.csv" } });
    expect(json.status).toBe(415);
    expect((await call(get(uploadCsv), "/api/connections/ezlynx/upload-csv")).status).toBe(405);
  });
});
