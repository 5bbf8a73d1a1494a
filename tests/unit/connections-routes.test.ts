import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { connections } from "~/db/schema";
import * as configurationRedirect from "~/routes/configuration.filter-options.$connectionId";
import * as mappingRoute from "~/routes/_app.configure-integration.configuration.$connectionId";
import * as filtersRoute from "~/routes/_app.configure-integration.filter-options.$connectionId";
import * as predictionRoute from "~/routes/_app.configure-integration.prediction.$connectionId";
import * as tasksRoute from "~/routes/_app.configure-integration.task-creation.$connectionId";
import * as listRoute from "~/routes/_app.connect-database";
import * as detailRoute from "~/routes/_app.connect-database_.$connectionId";
import * as disconnectRoute from "~/routes/_app.connect-database_.$connectionId_.disconnect";
import * as createRoute from "~/routes/_app.create-connection.($connectionId)";
import * as stateRoute from "~/routes/resources.connection-state.$connectionId";
import * as rejectionsRoute from "~/routes/resources.connections.$connectionId.rejections";
import { createReadyFileConnection } from "~/services/connections/connection-fixtures.server";
import { saveConnectionSettings } from "~/services/connections/connections.server";
import { createTestTenant, makeRequest, sessionCookieFor } from "../support/factories";

type Args = { request: Request; params: Record<string, string>; context: Record<string, unknown> };
type Fn = (args: Args) => Promise<unknown>;

/** The HTTP status a loader or action answers with (thrown or returned). */
async function statusOf(fn: Fn, request: Request, params: Record<string, string>) {
  try {
    const result = await fn({ request, params, context: {} });
    if (result instanceof Response) return { status: result.status, location: result.headers.get("Location") };
    const init = (result as { init?: { status?: number } } | null)?.init;
    return { status: init?.status ?? 200, location: null };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("Location") };
    throw thrown;
  }
}

let owner: Awaited<ReturnType<typeof createTestTenant>>;
let ownerCookie: string;
let strangerCookie: string;
let completedId: string;

beforeAll(async () => {
  owner = await createTestTenant();
  ownerCookie = await sessionCookieFor(owner.user);
  const stranger = await createTestTenant();
  strangerCookie = await sessionCookieFor(stranger.user);
  completedId = (await createReadyFileConnection(owner.ctx, { policies: 40 })).id;
});

describe("tenant isolation: another tenant's connection id is a 404 on every wizard route and action", () => {
  const routes: [string, Fn | undefined, string, Record<string, string>?][] = [
    ["step 1 loader", createRoute.loader as Fn, "/create-connection/ID?integrationId=ezlynx"],
    ["step 1 save", createRoute.action as Fn, "/create-connection/ID?integrationId=ezlynx", { intent: "save", name: "Mine now" }],
    ["step 1 test", createRoute.action as Fn, "/create-connection/ID?integrationId=ezlynx", { intent: "test", name: "x" }],
    ["start import", createRoute.action as Fn, "/create-connection/ID?integrationId=ezlynx", { intent: "start-import" }],
    ["mapping loader", mappingRoute.loader as Fn, "/configure-integration/configuration/ID"],
    ["mapping save", mappingRoute.action as Fn, "/configure-integration/configuration/ID", { intent: "save" }],
    ["mapping draft", mappingRoute.action as Fn, "/configure-integration/configuration/ID", { intent: "draft" }],
    ["prediction loader", predictionRoute.loader as Fn, "/configure-integration/prediction/ID"],
    ["prediction save", predictionRoute.action as Fn, "/configure-integration/prediction/ID", { object: "all" }],
    ["task creation loader", tasksRoute.loader as Fn, "/configure-integration/task-creation/ID"],
    [
      "task creation save",
      tasksRoute.action as Fn,
      "/configure-integration/task-creation/ID",
      { assigneeRule: "producer", dueDaysBeforeExpiration: "30" },
    ],
    [
      "task creation add",
      tasksRoute.action as Fn,
      "/configure-integration/task-creation/ID",
      { intent: "add", kind: "work_group", label: "X" },
    ],
    ["filter options loader", filtersRoute.loader as Fn, "/configure-integration/filter-options/ID"],
    ["filter options save", filtersRoute.action as Fn, "/configure-integration/filter-options/ID", {}],
    ["old filter-options path", configurationRedirect.loader as Fn, "/configuration/filter-options/ID"],
    ["connection page", detailRoute.loader as Fn, "/connect-database/ID"],
    ["disconnect page", disconnectRoute.loader as Fn, "/connect-database/ID/disconnect"],
    ["disconnect", disconnectRoute.action as Fn, "/connect-database/ID/disconnect", { deleteData: "on" }],
    ["rejected rows", rejectionsRoute.loader as Fn, "/resources/connections/ID/rejections"],
    ["state get", stateRoute.loader as Fn, "/resources/connection-state/ID"],
  ];

  test.each(routes)("%s", async (_name, fn, path, form) => {
    const request = makeRequest(path.replace("ID", completedId), { cookie: strangerCookie, form });
    expect(await statusOf(fn!, request, { connectionId: completedId })).toMatchObject({ status: 404 });
  });

  test("state save", async () => {
    const request = new Request(`http://localhost/resources/connection-state/${completedId}`, {
      method: "POST",
      headers: { Cookie: strangerCookie, "Content-Type": "application/json" },
      body: JSON.stringify({ key: "mapping", draft: {} }),
    });
    expect(await statusOf(stateRoute.action as Fn, request, { connectionId: completedId })).toMatchObject({ status: 404 });
  });

  test("sync now", async () => {
    const request = makeRequest("/connect-database", { cookie: strangerCookie, form: { intent: "sync", id: completedId } });
    expect(await statusOf(listRoute.action as Fn, request, {})).toMatchObject({ status: 404 });
  });

  test("a malformed id is a 404 too, not a 500", async () => {
    const request = makeRequest("/configure-integration/prediction/not-a-uuid", { cookie: ownerCookie });
    expect(await statusOf(predictionRoute.loader as Fn, request, { connectionId: "not-a-uuid" })).toMatchObject({ status: 404 });
  });

  test("the owner still sees it, and nothing was changed by the stranger", async () => {
    const request = makeRequest(`/connect-database/${completedId}`, { cookie: ownerCookie });
    expect(await statusOf(detailRoute.loader as Fn, request, { connectionId: completedId })).toMatchObject({ status: 200 });
    const [row] = await owner.db.select().from(connections).where(eq(connections.id, completedId));
    expect(row).toMatchObject({ status: "not_connected", step: "COMPLETED", name: "EZLynx export" });
  });
});

describe("wizard guards: a step cannot be entered before the earlier ones are saved", () => {
  let freshId: string;
  beforeAll(async () => {
    const storage = await import("~/services/connections/connection-fixtures.server");
    const file = await storage.storeSampleExport(owner.tenant.id, { policies: 30 });
    freshId = (await saveConnectionSettings(owner.ctx, null, { integrationId: "csv", name: "Fresh", credentials: {}, file })).id;
  });

  test.each([
    ["prediction", predictionRoute.loader as Fn, "prediction"],
    ["task creation", tasksRoute.loader as Fn, "task-creation"],
    ["filter options", filtersRoute.loader as Fn, "filter-options"],
  ])("GET %s before the mapping is saved → the mapping step", async (_n, fn, segment) => {
    const request = makeRequest(`/configure-integration/${segment}/${freshId}`, { cookie: ownerCookie });
    expect(await statusOf(fn, request, { connectionId: freshId })).toEqual({
      status: 302,
      location: `/configure-integration/configuration/${freshId}`,
    });
  });

  test("POST to a later step is refused the same way, and saves nothing", async () => {
    const request = makeRequest(`/configure-integration/filter-options/${freshId}`, {
      cookie: ownerCookie,
      form: { "offered:states": "TX", states: "TX" },
    });
    expect(await statusOf(filtersRoute.action as Fn, request, { connectionId: freshId })).toEqual({
      status: 302,
      location: `/configure-integration/configuration/${freshId}`,
    });
    const [row] = await owner.db.select().from(connections).where(eq(connections.id, freshId));
    expect(row.step).toBe("CONNECTION_MAPPING");
    expect(row.filters).toBeNull();
  });

  test("the summary (COMPLETED) is not shown before the last step: step 1 form instead", async () => {
    const request = makeRequest(`/create-connection/${freshId}?integrationId=csv`, { cookie: ownerCookie });
    const data = (await createRoute.loader({ request, params: { connectionId: freshId }, context: {} } as never)) as { summary: unknown };
    expect(data.summary).toBeNull();
  });

  test("saving the mapping opens the next step; saved steps can be revisited", async () => {
    const save = makeRequest(`/configure-integration/configuration/${freshId}`, {
      cookie: ownerCookie,
      form: {
        intent: "save",
        object: "rows",
        "field:customerKey": "Client Number",
        "field:customerName": "Applicant Name",
        "field:policyNumber": "Policy #",
        "field:lineOfBusiness": "LOB",
        "field:carrier": "Carrier",
        "field:effectiveDate": "Effective Date",
        "field:expirationDate": "Exp Date",
        "field:premium": "Written Premium",
        "lobValue:0": "AUTOP",
        "lob:0": "PAUTO",
      },
    });
    expect(await statusOf(mappingRoute.action as Fn, save, { connectionId: freshId })).toEqual({
      status: 302,
      location: `/configure-integration/prediction/${freshId}`,
    });
    const [row] = await owner.db.select().from(connections).where(eq(connections.id, freshId));
    expect(row.step).toBe("PREDICTION_SETTING");
    expect(row.mapping?.valueMaps.lineOfBusiness).toEqual({ AUTOP: "PAUTO" });
    const back = makeRequest(`/configure-integration/configuration/${freshId}`, { cookie: ownerCookie });
    expect(await statusOf(mappingRoute.loader as Fn, back, { connectionId: freshId })).toMatchObject({ status: 200 });
    const ahead = makeRequest(`/configure-integration/task-creation/${freshId}`, { cookie: ownerCookie });
    expect(await statusOf(tasksRoute.loader as Fn, ahead, { connectionId: freshId })).toEqual({
      status: 302,
      location: `/configure-integration/prediction/${freshId}`,
    });
  });

  test("a mapping without the required fields is not saved (400 with the missing ones)", async () => {
    const save = makeRequest(`/configure-integration/configuration/${freshId}`, {
      cookie: ownerCookie,
      form: { intent: "save", object: "rows", "field:premium": "Written Premium" },
    });
    const result = (await mappingRoute.action({ request: save, params: { connectionId: freshId }, context: {} } as never)) as unknown as {
      data: { error: Record<string, string[]> };
      init: { status: number };
    };
    expect(result.init.status).toBe(400);
    expect(result.data.error[""]).toEqual([
      "Map the required fields first: Customer name, Policy number, Line of business, Carrier, Effective date, Expiration date.",
    ]);
    // Each missing one is marked on its own select.
    expect(Object.keys(result.data.error).filter((name) => name.startsWith("field:"))).toEqual(
      ["customerName", "policyNumber", "lineOfBusiness", "carrier", "effectiveDate", "expirationDate"].map((key) => `field:${key}`),
    );
  });

  test("prediction and task creation: refused values come back on their fields; saved ones move on", async () => {
    type Reply = {
      data: { error: Record<string, string[]>; initialValue: Record<string, Record<string, string>> };
      init: { status: number };
    };
    const prediction = (form: Record<string, string>) =>
      predictionRoute.action({
        request: makeRequest(`/configure-integration/prediction/${freshId}`, { cookie: ownerCookie, form }),
        params: { connectionId: freshId },
        context: {},
      } as never);
    const all = { "all.window": "12 months", "all.thresholdPct": "12", "all.thresholdAmount": "", "all.actDaysBeforeExpiration": "60" };
    const home = {
      "HOME.own": "on",
      "HOME.window": "6 months",
      "HOME.thresholdPct": "-1",
      "HOME.thresholdAmount": "$1,500",
      "HOME.actDaysBeforeExpiration": "45",
    };
    const refused = (await prediction({
      intent: "save",
      ...all,
      "all.thresholdPct": "lots",
      ...home,
      "PAUTO.thresholdPct": "nonsense",
    })) as Reply;
    expect(refused.init.status).toBe(400);
    // PAUTO's own box is not ticked: its fields do not count.
    expect(refused.data.error).toEqual({ "all.thresholdPct": ["Enter a percentage."], "HOME.thresholdPct": ["Use 0 or more."] });
    expect(refused.data.initialValue.all).toMatchObject({ thresholdPct: "lots", actDaysBeforeExpiration: "60" });
    const saved = (await prediction({ intent: "save", ...all, ...home, "HOME.thresholdPct": "20" })) as unknown as Response;
    expect(saved.headers.get("Location")).toBe(`/configure-integration/task-creation/${freshId}`);
    const { listForecastPreferences } = await import("~/services/renewals/forecast-preferences.server");
    expect(await listForecastPreferences(owner.ctx)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          forecastObjectId: "HOME",
          window: "6m",
          thresholdPct: 20,
          thresholdAmount: 1500,
          actDaysBeforeExpiration: 45,
        }),
      ]),
    );

    const tasks = (form: Record<string, string>) =>
      tasksRoute.action({
        request: makeRequest(`/configure-integration/task-creation/${freshId}`, { cookie: ownerCookie, form }),
        params: { connectionId: freshId },
        context: {},
      } as never) as Promise<Reply>;
    const noEmployee = await tasks({
      intent: "save",
      enabled: "on",
      assigneeRule: "fixed",
      dueDaysBeforeExpiration: "30",
      activityCode: "",
    });
    expect(noEmployee).toMatchObject({
      init: { status: 400 },
      data: {
        error: { fixedEmployeeAccountId: ["Choose the employee."] },
        initialValue: { assigneeRule: "fixed", dueDaysBeforeExpiration: "30" },
      },
    });
    const stranger = await tasks({
      intent: "save",
      assigneeRule: "fixed",
      fixedEmployeeAccountId: crypto.randomUUID(),
      dueDaysBeforeExpiration: "30",
    });
    expect(stranger.data.error).toEqual({ fixedEmployeeAccountId: ["Choose one of the listed employees."] });
    const blankName = await tasks({ intent: "add", kind: "work_group", code: "WG9", label: " " });
    expect(blankName).toMatchObject({
      init: { status: 400 },
      data: { error: { label: ["Enter a name."] }, initialValue: { kind: "work_group", code: "WG9" } },
    });
  });

  test("filter options: a dimension with nothing ticked is refused with its message, the ticks kept", async () => {
    const request = makeRequest(`/configure-integration/filter-options/${completedId}`, {
      cookie: ownerCookie,
      form: { intent: "save", "offered:states": "TX", "offered:carriers": "Travelers", carriers: "Travelers" },
    });
    const result = (await filtersRoute.action({ request, params: { connectionId: completedId }, context: {} } as never)) as unknown as {
      data: { error: Record<string, string[]>; initialValue: Record<string, unknown> };
      init: { status: number };
    };
    expect(result.init.status).toBe(400);
    expect(result.data.error).toEqual({ states: ["Tick at least one of the states."] });
    expect(result.data.initialValue).toMatchObject({ carriers: "Travelers" });
  });

  test("/configuration/filter-options/:id redirects permanently to the canonical path", async () => {
    const request = makeRequest(`/configuration/filter-options/${completedId}`, { cookie: ownerCookie });
    expect(await statusOf(configurationRedirect.loader as Fn, request, { connectionId: completedId })).toEqual({
      status: 301,
      location: `/configure-integration/filter-options/${completedId}`,
    });
  });
});

describe("credentials", () => {
  test("are sealed at rest and never sent back to the browser", async () => {
    const saved = await saveConnectionSettings(owner.ctx, null, {
      integrationId: "salesforce",
      name: "CRM",
      credentials: {
        loginUrl: "https://login.salesforce.com",
        clientId: "client-id",
        clientSecret: "very-secret-value",
        refreshToken: "refresh-secret-value",
      },
    });
    const [row] = await owner.db.select().from(connections).where(eq(connections.id, saved.id));
    expect(JSON.stringify(row)).not.toMatch(/very-secret-value|refresh-secret-value/);
    const request = makeRequest(`/create-connection/${saved.id}?integrationId=salesforce`, { cookie: ownerCookie });
    const data = await createRoute.loader({ request, params: { connectionId: saved.id }, context: {} } as never);
    expect(JSON.stringify(data)).not.toMatch(/very-secret-value|refresh-secret-value/);
    expect(JSON.stringify(data)).toContain("client-id");
  });

  test("a blank secret keeps the saved one; a missing one is a field error, not a 500", async () => {
    const saved = await saveConnectionSettings(owner.ctx, null, {
      integrationId: "salesforce",
      name: "CRM 2",
      credentials: { clientId: "c", clientSecret: "s1", refreshToken: "r1" },
    });
    const again = makeRequest(`/create-connection/${saved.id}?integrationId=salesforce`, {
      cookie: ownerCookie,
      form: { intent: "save", name: "CRM 2", clientId: "c", clientSecret: "", refreshToken: "" },
    });
    expect(await statusOf(createRoute.action as Fn, again, { connectionId: saved.id })).toMatchObject({ status: 302 });
    const fresh = makeRequest(`/create-connection/?integrationId=salesforce`, {
      cookie: ownerCookie,
      form: { intent: "save", name: "CRM 3", clientId: "c", clientSecret: "", refreshToken: "r" },
    });
    const result = (await createRoute.action({ request: fresh, params: {}, context: {} } as never)) as {
      data: { result: { error: Record<string, string[]> } };
      init: { status: number };
    };
    expect(result.init.status).toBe(400);
    expect(result.data.result.error.clientSecret).toEqual(["Consumer secret is required."]);
  });
});
