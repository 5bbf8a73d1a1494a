import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { connections, jobs, notifications, tasks } from "~/db/schema";
import { createCustomer, createPolicy } from "../../../tests/support/book-factories";
import { createTestTenant } from "../../../tests/support/factories";
import { startSalesforceStandIn, type SalesforceStandIn } from "../../../tests/support/salesforce-stand-in";
import { createReadyFileConnection } from "./connection-fixtures.server";
import { saveConnectionSettings } from "./connections.server";
import { setConnectorOptionsForTests } from "./connectors/index.server";
import type { JobRecord } from "../platform/jobs.server";
import { remarketPolicy } from "../renewals/remarket.server";
import { saveTaskCreationSetting } from "./task-settings.server";
import { registerTaskWriteback } from "./task-writeback.server";
import { handleTaskWriteback, TASK_WRITEBACK_JOB } from "../renewals/tasks.server";

const NOW = new Date("2026-03-01T17:00:00Z");
let sf: SalesforceStandIn;
const sleeps: number[] = [];

beforeAll(async () => {
  sf = await startSalesforceStandIn();
  setConnectorOptionsForTests({ sleep: async (ms) => void sleeps.push(ms) });
  registerTaskWriteback();
});
beforeEach(() => {
  sleeps.length = 0;
  sf.refuseRefresh = false;
});
afterAll(async () => {
  setConnectorOptionsForTests({});
  await sf.close();
});

/** A tenant with a Salesforce connection (or a file connection) and one of its policies re-marketed. */
async function remarketed(kind: "salesforce" | "file", policyNumber = "HO-77") {
  const t = await createTestTenant();
  const ctx = { ...t.ctx, now: () => NOW };
  const connection =
    kind === "salesforce"
      ? await saveConnectionSettings(ctx, null, {
          integrationId: "salesforce",
          name: "Salesforce CRM",
          credentials: { loginUrl: sf.url, clientId: "client", clientSecret: "secret", refreshToken: "good-refresh-token" },
        })
      : await createReadyFileConnection(ctx, { policies: 5 });
  await saveTaskCreationSetting(ctx, null, {
    enabled: true,
    assigneeRule: "producer",
    fixedEmployeeAccountId: null,
    activityCode: "Call",
    workGroup: "Personal lines",
    dueDaysBeforeExpiration: 30,
  });
  const customer = await createCustomer(t.db, t.tenant.id, { name: "Quinn Baker", connectionId: connection.id });
  const policy = await createPolicy(t.db, t.tenant.id, {
    customerId: customer.id,
    connectionId: connection.id,
    expirationDate: "2026-04-15",
    policyNumber,
  });
  const { taskId } = await remarketPolicy(ctx, policy.id);
  return { ...t, ctx, connection, taskId: taskId! };
}

/** Run this tenant's write-back job as the worker would (its first attempt unless told otherwise). */
async function runWriteback(db: Awaited<ReturnType<typeof createTestTenant>>["db"], tenantId: string, override: Partial<JobRecord> = {}) {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.tenantId, tenantId), eq(jobs.type, TASK_WRITEBACK_JOB)));
  expect(row).toBeDefined();
  const job: JobRecord = { id: row.id, tenantId, type: row.type, payload: row.payload, attempts: 1, maxAttempts: row.maxAttempts };
  await handleTaskWriteback({ ...job, ...override }, { db, progress: async () => {}, signal: new AbortController().signal });
}

const taskRow = async (db: Awaited<ReturnType<typeof createTestTenant>>["db"], taskId: string) =>
  (await db.select().from(tasks).where(eq(tasks.id, taskId)))[0];

describe("task write-back", () => {
  test("a re-market on a Salesforce connection queues a job that creates the task there and records its id", async () => {
    const t = await remarketed("salesforce");
    expect(await taskRow(t.db, t.taskId)).toMatchObject({ writeback: "queued", writebackExternalId: null });
    const before = sf.tasks.length;
    await runWriteback(t.db, t.tenant.id);
    expect(sf.tasks.length).toBe(before + 1);
    expect(sf.tasks.at(-1)).toMatchObject({ Subject: expect.stringContaining("HO-77"), ActivityDate: "2026-03-16", Type: "Call" });
    const task = await taskRow(t.db, t.taskId);
    expect(task).toMatchObject({ writeback: "done", writebackExternalId: `00T${before + 1}`, writebackError: null });
    expect(task.writebackAt).toBeInstanceOf(Date);
  });

  test("file connectors write nothing back: no job, the task is for the CSV export", async () => {
    const t = await remarketed("file");
    expect(await taskRow(t.db, t.taskId)).toMatchObject({ writeback: "none" });
    const queued = await t.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.tenantId, t.tenant.id), eq(jobs.type, TASK_WRITEBACK_JOB)));
    expect(queued).toHaveLength(0);
  });

  test("a 500 is retried once after 1000 ms; still failing, the job is retried, and on its last attempt the task is marked failed", async () => {
    const t = await remarketed("salesforce");
    const before = sf.tasks.length;
    sf.failNext(500, 2);
    await expect(runWriteback(t.db, t.tenant.id)).rejects.toThrow();
    expect(sleeps).toContain(1000);
    expect(await taskRow(t.db, t.taskId)).toMatchObject({ writeback: "queued" });
    // The queue's last attempt: the same failure is recorded on the task.
    sf.failNext(500, 2);
    await runWriteback(t.db, t.tenant.id, { attempts: 4, maxAttempts: 4 });
    const task = await taskRow(t.db, t.taskId);
    expect(task.writeback).toBe("failed");
    expect(task.writebackError).toMatch(/500/);
    expect(sf.tasks.length).toBe(before);
  });

  test("an attempt whose answer was lost (the connection dropped after Salesforce created the task): the retry finds that task instead of creating a second", async () => {
    const t = await remarketed("salesforce", "HO-LOST");
    const mine = () => sf.tasks.filter((task) => String(task.Subject).includes("HO-LOST"));
    sf.loseTaskResponses = 1;
    await expect(runWriteback(t.db, t.tenant.id)).rejects.toThrow();
    expect(mine()).toHaveLength(1);
    expect(await taskRow(t.db, t.taskId)).toMatchObject({ writeback: "queued" });

    await runWriteback(t.db, t.tenant.id, { attempts: 2 });
    expect(mine()).toHaveLength(1);
    expect(await taskRow(t.db, t.taskId)).toMatchObject({ writeback: "done", writebackExternalId: mine()[0].Id });
  });

  test("a retry after an attempt that never reached Salesforce creates the task, once", async () => {
    const t = await remarketed("salesforce", "HO-RETRY");
    const mine = () => sf.tasks.filter((task) => String(task.Subject).includes("HO-RETRY"));
    sf.failNext(503, 2);
    await expect(runWriteback(t.db, t.tenant.id)).rejects.toThrow();
    expect(mine()).toHaveLength(0);
    await runWriteback(t.db, t.tenant.id, { attempts: 2 });
    expect(mine()).toHaveLength(1);
    expect(await taskRow(t.db, t.taskId)).toMatchObject({ writeback: "done", writebackExternalId: mine()[0].Id });
  });

  test("refused credentials (401, refresh refused): failed 'invalid credentials', connection flagged, admins told", async () => {
    const t = await remarketed("salesforce");
    sf.expireTokens();
    sf.refuseRefresh = true;
    await runWriteback(t.db, t.tenant.id);
    expect(await taskRow(t.db, t.taskId)).toMatchObject({ writeback: "failed", writebackError: "invalid credentials" });
    const [connection] = await t.db.select().from(connections).where(eq(connections.id, t.connection.id));
    expect(connection).toMatchObject({ status: "error", invalidCredentials: true });
    const notes = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.tenantId, t.tenant.id), eq(notifications.kind, "connection.invalid_credentials")));
    expect(notes).toHaveLength(1);
  });

  test("a 4xx refusal is final: failed with the reason, no retry", async () => {
    const t = await remarketed("salesforce");
    sf.failNext(400, 1);
    await runWriteback(t.db, t.tenant.id);
    const task = await taskRow(t.db, t.taskId);
    expect(task.writeback).toBe("failed");
    expect(task.writebackError).toMatch(/^Salesforce refused the task \(400\)/);
  });
});
