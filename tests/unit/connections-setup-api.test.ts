import { describe, expect, test } from "vitest";
import { loader as api } from "~/routes/api.$";
import { storeSampleExport } from "~/services/connections/connection-fixtures.server";
import { saveConnectionSettings } from "~/services/connections/connections.server";
import { bearerFor, createTestTenant } from "../support/factories";

// An import set up entirely over the API: every wizard step after the mapping read and written as
// JSON, with the pages' guard (a later step before an earlier one is saved is a 409).

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test reads each operation's own JSON
type Answer = { status: number; json: any };

async function call(auth: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const headers = new Headers({ Authorization: auth });
  if (body !== undefined) headers.set("Content-Type", "application/json");
  const request = new Request(`http://localhost${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const response = await api({ request, params: {}, context: {} });
  return { status: response.status, json: await response.json() };
}

const preference = {
  window: "12 months",
  thresholdPct: 12,
  actDaysBeforeExpiration: 45,
  excludeFirstTerm: true,
  excludeZeroPremium: false,
};

describe("the setup wizard over the API", () => {
  test("mapping → prediction → task creation → filter options → start-etl, never skipping ahead", async () => {
    const agency = await createTestTenant();
    const auth = await bearerFor(agency.user);
    const file = await storeSampleExport(agency.tenant.id, { policies: 25 });
    const connection = await saveConnectionSettings(agency.ctx, null, {
      integrationId: "csv",
      name: "Over the API",
      credentials: {},
      file,
    });
    const base = `/api/connections/${connection.id}`;

    // Before the mapping: every later step is closed, and so is the import.
    expect((await call(auth, "GET", `${base}/prediction`)).status).toBe(409);
    expect((await call(auth, "PUT", `${base}/prediction`, { preferences: { all: preference } })).status).toBe(409);
    expect((await call(auth, "PUT", `${base}/filter-options`, {})).status).toBe(409);
    expect((await call(auth, "POST", `/api/connections/start-etl/${connection.id}`, {})).status).toBe(409);

    const suggestion = await call(auth, "GET", `/api/connections/salesforce/mapping?connectionId=${connection.id}`);
    const mapped = await call(auth, "POST", "/api/mappings/save-config", {
      connectionId: connection.id,
      mapping: { object: "rows", fields: suggestion.json.data.suggested },
    });
    expect(mapped.status).toBe(200);

    // Prediction: the page's rules (a bad window is refused by field), then the next step opens.
    expect(
      (await call(auth, "PUT", `${base}/task-creation`, { setting: { assigneeRule: "producer", dueDaysBeforeExpiration: 30 } })).status,
    ).toBe(409);
    const badWindow = await call(auth, "PUT", `${base}/prediction`, { preferences: { all: { ...preference, window: "3 months" } } });
    expect(badWindow.status).toBe(400);
    expect(badWindow.json.errors).toHaveProperty(["preferences.all.window"]);
    const predicted = await call(auth, "PUT", `${base}/prediction`, {
      preferences: { all: preference, HOME: { ...preference, thresholdPct: 20 } },
    });
    expect(predicted.status).toBe(200);
    expect(predicted.json.data.step).toBe("TASK_CREATION");
    expect(predicted.json.data.preferences).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ forecastObjectId: "all", window: "yr", thresholdPct: 12 }),
        expect.objectContaining({ forecastObjectId: "HOME", thresholdPct: 20 }),
      ]),
    );

    // Task creation: a fixed assignee must be one of the listed employees.
    const tasks = await call(auth, "GET", `${base}/task-creation`);
    expect(tasks.status).toBe(200);
    const stranger = await call(auth, "PUT", `${base}/task-creation`, {
      setting: { assigneeRule: "fixed", fixedEmployeeAccountId: "nobody", dueDaysBeforeExpiration: 30 },
    });
    expect(stranger.status).toBe(400);
    expect(stranger.json.errors).toHaveProperty(["fixedEmployeeAccountId"]);
    const saved = await call(auth, "PUT", `${base}/task-creation`, {
      setting: { enabled: true, assigneeRule: "producer", dueDaysBeforeExpiration: 30 },
    });
    expect(saved.status).toBe(200);
    expect(saved.json.data).toMatchObject({ step: "FILTER_OPTIONS", setting: { enabled: true, assigneeRule: "producer" } });

    // Filter options: a dimension with nothing included is refused; then the setup is complete.
    const offered = await call(auth, "GET", `${base}/filter-options`);
    expect(offered.status).toBe(200);
    const lines: { value: string }[] = offered.json.data.dimensions.linesOfBusiness;
    expect(lines.length).toBeGreaterThan(1);
    const none = await call(auth, "PUT", `${base}/filter-options`, { included: { linesOfBusiness: [] } });
    expect(none.status).toBe(400);
    expect(none.json.errors).toHaveProperty(["included.linesOfBusiness"]);
    const filtered = await call(auth, "PUT", `${base}/filter-options`, { included: { linesOfBusiness: [lines[0].value] } });
    expect(filtered.status).toBe(200);
    expect(filtered.json.data.step).toBe("COMPLETED");
    expect(filtered.json.data.dimensions.linesOfBusiness.filter((v: { included: boolean }) => v.included)).toHaveLength(1);

    const started = await call(auth, "POST", `/api/connections/start-etl/${connection.id}`, {});
    expect(started.status).toBe(200);
    expect(started.json.data).toHaveProperty("runId");
  });

  test("another agency's connection is a 404; staff may not change a step", async () => {
    const agency = await createTestTenant();
    const other = await createTestTenant();
    const file = await storeSampleExport(agency.tenant.id, { policies: 5 });
    const connection = await saveConnectionSettings(agency.ctx, null, { integrationId: "csv", name: "Mine", credentials: {}, file });
    expect((await call(await bearerFor(other.user), "GET", `/api/connections/${connection.id}/prediction`)).status).toBe(404);
    const staff = await createTestTenant({ role: "staff" });
    expect((await call(await bearerFor(staff.user), "GET", `/api/connections/${connection.id}/prediction`)).status).toBe(403);
  });
});
