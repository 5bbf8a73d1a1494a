import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { connections, notifications } from "~/db/schema";
import { createTestTenant } from "../../../../tests/support/factories";
import { startSalesforceStandIn, standInPolicies, type SalesforceStandIn } from "../../../../tests/support/salesforce-stand-in";
import { saveConnectionSettings } from "../connections.server";
import { ApiError, ApiTimeoutError, InvalidCredentialsError, RETRY_AFTER_401_MS, RETRY_AFTER_500_MS } from "./api-client.server";
import { connectorFor } from "./index.server";
import { createSalesforceConnector } from "./salesforce.server";

let sf: SalesforceStandIn;
let sleeps: number[];
let invalidReasons: string[];

// The injected clock: records each wait and returns at once, so the rules run without waiting.
const sleep = async (ms: number) => {
  sleeps.push(ms);
};

function connector(overrides: { timeoutMs?: number; refreshToken?: string } = {}) {
  return createSalesforceConnector(
    { loginUrl: sf.url, clientId: "client", clientSecret: "secret", refreshToken: overrides.refreshToken ?? "good-refresh-token" },
    {
      sleep,
      timeoutMs: overrides.timeoutMs,
      onInvalidCredentials: async (reason) => {
        invalidReasons.push(reason);
      },
    },
  );
}

beforeEach(async () => {
  sf = await startSalesforceStandIn({ records: standInPolicies(25), pageSize: 10 });
  sleeps = [];
  invalidReasons = [];
});
afterEach(async () => {
  await sf.close();
});

describe("Salesforce connector over the REST API", () => {
  test("objects → attributes → values, and records paged with nextRecordsUrl", async () => {
    const c = connector();
    expect((await c.listObjects()).map((o) => o.name)).toContain("InsurancePolicy");
    const attributes = await c.listAttributes("InsurancePolicy");
    expect(attributes.map((a) => a.name)).toEqual(expect.arrayContaining(["Name", "PolicyType", "GrossWrittenPremium"]));
    const values = await c.listValues("InsurancePolicy", "PolicyType");
    expect(values[0]).toEqual({ value: "Auto", count: 7 });
    const pages = [];
    for await (const page of c.readRecords("InsurancePolicy", { attributes: ["Name", "PolicyType"] })) pages.push(page);
    expect(pages.map((p) => p.length)).toEqual([10, 10, 5]);
    expect(pages[2][4]).toEqual({ rowNumber: 25, values: { Id: "0YT000000000024", Name: "SF-1024", PolicyType: "Auto" } });
    // Two follow-up pages for the values query and two for the records.
    expect(sf.requests.filter((r) => r.path.includes("/query/")).length).toBe(4);
    expect(sf.tokenRequests).toBe(1);
  });

  test("employee accounts, activity codes and task write-back", async () => {
    const c = connector();
    expect(await c.listEmployeeAccounts!()).toEqual([
      { sourceKey: "sf:005A", name: "Pat Producer", email: "pat@agency.test", role: "user" },
      { sourceKey: "sf:005B", name: "Sam Service", email: "sam@agency.test", role: "user" },
    ]);
    expect((await c.listActivityCodes!()).map((a) => a.code)).toEqual(["Call", "Renewal Review"]);
    const task = await c.writeTask!({
      subject: "Re-market SF-1",
      dueDate: "2025-09-01",
      description: "",
      assigneeSourceKey: "sf:005A",
      activityCode: "Call",
      workGroup: null,
    });
    expect(task.id).toBe("00T1");
    expect(sf.tasks[0]).toMatchObject({ Subject: "Re-market SF-1", OwnerId: "005A", Type: "Call" });
  });

  test("finds a task an earlier attempt wrote by its subject and due date, whatever its subject holds", async () => {
    const c = connector();
    const since = new Date(Date.now() - 60_000);
    const subject = `Re-market home policy HO-1 for O'Brien "Bud" \\ Sons`;
    const written = await c.writeTask!({
      subject,
      dueDate: "2026-05-01",
      description: "",
      assigneeSourceKey: null,
      activityCode: null,
      workGroup: null,
    });
    expect(await c.findWrittenTask!({ subject, dueDate: "2026-05-01" }, since)).toEqual({ id: written.id });
    expect(await c.findWrittenTask!({ subject: "Re-market home policy HO-1 for O", dueDate: "2026-05-01" }, since)).toBeNull();
    expect(await c.findWrittenTask!({ subject, dueDate: "2026-05-02" }, since)).toBeNull();
    expect(await c.findWrittenTask!({ subject, dueDate: "2026-05-01" }, new Date(Date.now() + 60_000))).toBeNull();
    await expect(c.findWrittenTask!({ subject, dueDate: "2026-05-01 OR Id != null" }, since)).rejects.toThrow("Not a date");
  });

  test("rejects identifiers that could change the SOQL", async () => {
    await expect(connector().listValues("InsurancePolicy", "Name FROM User --")).rejects.toThrow("Not a Salesforce field");
  });
});

describe("seed §8 rules for outbound API calls", () => {
  test("401: refresh once, wait 500 ms, retry with the new token", async () => {
    const c = connector();
    await c.listObjects();
    sf.expireTokens();
    const objects = await c.listObjects();
    expect(objects.length).toBeGreaterThan(0);
    expect(sf.tokenRequests).toBe(2);
    expect(sleeps).toEqual([RETRY_AFTER_401_MS]);
    const tokens = sf.requests.map((r) => r.token);
    expect(tokens).toEqual(["token-1", "token-1", "token-2"]);
  });

  test("concurrent 401s share one refresh and all retry with the new token", async () => {
    const c = connector();
    await c.listObjects();
    sf.expireTokens();
    sf.requests.length = 0;
    const results = await Promise.all(Array.from({ length: 5 }, () => c.listAttributes("InsurancePolicy")));
    expect(results.every((r) => r.length > 5)).toBe(true);
    expect(sf.tokenRequests).toBe(2);
    const retried = sf.requests.filter((r) => r.token === "token-2");
    expect(retried).toHaveLength(5);
    expect(sleeps).toEqual(Array(5).fill(RETRY_AFTER_401_MS));
  });

  test("requests that start during a refresh wait for it instead of using the old token", async () => {
    const c = connector();
    await c.listObjects();
    sf.expireTokens();
    const release = sf.holdTokens();
    sf.requests.length = 0;
    const first = c.listObjects(); // gets the 401 and starts the refresh
    while (sf.tokenRequests < 2) await new Promise((r) => setTimeout(r, 5)); // the refresh is now under way
    const queued = [c.listAttributes("InsurancePolicy"), c.listAttributes("InsurancePolicy")];
    await new Promise((r) => setTimeout(r, 20));
    expect(sf.requests).toHaveLength(1); // the queued ones wait for the refresh
    release();
    await Promise.all([first, ...queued]);
    expect(sf.tokenRequests).toBe(2);
    // Only the first request ever used the expired token; the queued ones went out with the new one.
    expect(sf.requests.filter((r) => r.token === "token-1")).toHaveLength(1);
    expect(sf.requests.filter((r) => r.token === "token-2")).toHaveLength(3);
  });

  test("a second 401 after the refresh: invalid credentials, reported once", async () => {
    const c = connector();
    await c.listObjects();
    sf.expireTokens();
    sf.issueBadTokens = true;
    await expect(c.listObjects()).rejects.toBeInstanceOf(InvalidCredentialsError);
    await expect(c.listObjects()).rejects.toBeInstanceOf(InvalidCredentialsError);
    expect(invalidReasons).toEqual(["second 401 after a token refresh"]);
    expect(sf.tokenRequests).toBe(2);
  });

  test("a failed refresh: invalid credentials", async () => {
    const c = connector({ refreshToken: "revoked" });
    await expect(c.listObjects()).rejects.toBeInstanceOf(InvalidCredentialsError);
    expect(invalidReasons[0]).toMatch(/^token refresh failed: invalid_grant/);
    expect(sf.requests).toHaveLength(0);
  });

  test("500: one retry after 1000 ms", async () => {
    const c = connector();
    await c.listObjects();
    sf.failNext(500, 1);
    sf.requests.length = 0;
    expect((await c.listObjects()).length).toBeGreaterThan(0);
    expect(sf.requests).toHaveLength(2);
    expect(sleeps).toEqual([RETRY_AFTER_500_MS]);
  });

  test("500 twice: fails after the one retry", async () => {
    const c = connector();
    await c.listObjects();
    sf.failNext(500, 2);
    sf.requests.length = 0;
    const error = await c.listObjects().catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(500);
    expect(sf.requests).toHaveLength(2);
    expect(sleeps).toEqual([RETRY_AFTER_500_MS]);
  });

  test("every call has a time-out", async () => {
    const c = connector({ timeoutMs: 50 });
    await c.listObjects().catch(() => {});
    sf.delayMs = 300;
    await expect(c.listObjects()).rejects.toBeInstanceOf(ApiTimeoutError);
  });

  test("a saved connection whose credentials stop working goes to Error and raises a notification", async () => {
    const { ctx, db, tenant } = await createTestTenant();
    const saved = await saveConnectionSettings(ctx, null, {
      integrationId: "salesforce",
      name: "Agency CRM",
      credentials: { loginUrl: sf.url, clientId: "client", clientSecret: "secret", refreshToken: "good-refresh-token" },
    });
    expect(saved.credentialsSealed).not.toContain("good-refresh-token");
    const c = connectorFor(db, saved, { sleep });
    await c.listObjects();
    sf.expireTokens();
    sf.refuseRefresh = true;
    await expect(c.listObjects()).rejects.toBeInstanceOf(InvalidCredentialsError);
    const [row] = await db.select().from(connections).where(eq(connections.id, saved.id));
    expect(row).toMatchObject({ status: "error", invalidCredentials: true, lastError: "invalid credentials" });
    const notes = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.tenantId, tenant.id), eq(notifications.kind, "connection.invalid_credentials")));
    expect(notes).toHaveLength(1);
    expect(notes[0].title).toBe("Agency CRM: invalid credentials");
  });
});
