import { notifyTaskAssignee } from "~/services/platform/daily-digest.server";
import { format, parseISO, subDays } from "date-fns";
import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "~/db/client.server";
import { customers, employeeAccounts, policies, tasks } from "~/db/schema";
import { recordAudit } from "../platform/audit.server";
import { clock, type TenantContext } from "../platform/context.server";
import { NotFoundError } from "../platform/errors.server";
import { requireUuid } from "../platform/ids.server";
import { enqueueJob, type JobHandler } from "../platform/jobs.server";
import { getTaskCreationSetting } from "../connections/task-settings.server";

export const TASK_WRITEBACK_JOB = "task.writeback";

type TaskSource = {
  remarketId: string;
  policy: {
    id: string;
    policyNumber: string;
    lineOfBusiness: string;
    expirationDate: string;
    connectionId: string | null;
    producer: string | null;
    csr: string | null;
  };
  customer: { id: string; name: string; producer: string | null; csr: string | null };
  today: string;
};

/**
 * The follow-up task a re-market creates, per the task-creation settings of the policy's
 * connection (assignee, activity code, work group, due date). When the policy came through a
 * connector, a write-back job takes the task to the AMS; otherwise staff export tasks as CSV.
 */
export async function createRemarketTask(
  tx: DbOrTx,
  ctx: Pick<TenantContext, "tenantId" | "now"> & { userId?: string },
  source: TaskSource,
) {
  const setting = await getTaskCreationSetting({ db: tx as Db, tenantId: ctx.tenantId }, source.policy.connectionId);
  if (!setting.enabled) return null;
  let assignee: string | null = null;
  let employeeAccountId: string | null = null;
  if (setting.assigneeRule === "fixed" && setting.fixedEmployeeAccountId) {
    const [employee] = await tx
      .select({ id: employeeAccounts.id, name: employeeAccounts.name })
      .from(employeeAccounts)
      .where(and(eq(employeeAccounts.tenantId, ctx.tenantId), eq(employeeAccounts.id, setting.fixedEmployeeAccountId)));
    assignee = employee?.name ?? null;
    employeeAccountId = employee?.id ?? null;
  } else {
    const rule = setting.assigneeRule === "csr" ? "csr" : "producer";
    assignee = source.policy[rule] ?? source.customer[rule] ?? null;
    if (assignee) {
      const [employee] = await tx
        .select({ id: employeeAccounts.id })
        .from(employeeAccounts)
        .where(and(eq(employeeAccounts.tenantId, ctx.tenantId), sql`lower(${employeeAccounts.name}) = ${assignee.toLowerCase()}`))
        .limit(1);
      employeeAccountId = employee?.id ?? null;
    }
  }
  const due = format(subDays(parseISO(source.policy.expirationDate), setting.dueDaysBeforeExpiration), "yyyy-MM-dd");
  // Written back only through a connector that can (Salesforce); file connectors: CSV from /tasks.
  const connectionId = source.policy.connectionId;
  const writesBack = connectionId !== null && (taskWriter ? await taskWriter.supports(tx, { tenantId: ctx.tenantId, connectionId }) : true);
  const [task] = await tx
    .insert(tasks)
    .values({
      tenantId: ctx.tenantId,
      remarketId: source.remarketId,
      policyId: source.policy.id,
      customerId: source.customer.id,
      title: `Re-market ${source.policy.lineOfBusiness} policy ${source.policy.policyNumber} for ${source.customer.name}`,
      assignee,
      employeeAccountId,
      activityCode: setting.activityCode,
      workGroup: setting.workGroup,
      dueDate: due < source.today ? source.today : due,
      writeback: writesBack ? "queued" : "none",
      createdAt: clock(ctx),
    })
    .returning({ id: tasks.id, title: tasks.title, dueDate: tasks.dueDate });
  await notifyTaskAssignee(
    tx,
    { tenantId: ctx.tenantId, taskId: task.id, title: task.title, dueDate: task.dueDate, actingUserId: ctx.userId },
    clock(ctx),
  );
  if (writesBack) {
    await enqueueJob(tx, {
      type: TASK_WRITEBACK_JOB,
      tenantId: ctx.tenantId,
      payload: { taskId: task.id, connectionId },
      dedupeKey: `${TASK_WRITEBACK_JOB}:${task.id}`,
      maxAttempts: 4,
    });
  }
  return task.id;
}

/** What became of a write-back: in the AMS/CRM with its id, not for this connector, or refused for good. */
export type TaskWriteOutcome = { status: "done"; externalId: string } | { status: "none" } | { status: "failed"; reason: string };

/**
 * How tasks reach an AMS/CRM (registered by the connections capability). `write` throws on a
 * failure worth retrying (a 500 after the API client's own retry, a time-out): the queue retries.
 */
export type TaskWriter = {
  supports(db: DbOrTx, input: { tenantId: string; connectionId: string }): Promise<boolean>;
  /** `retry`: an earlier attempt ran and may have written the task before its answer was lost. */
  write(db: Db, input: { tenantId: string; taskId: string; connectionId: string; retry: boolean }): Promise<TaskWriteOutcome>;
};
let taskWriter: TaskWriter | null = null;

/** The connections capability registers how tasks reach each AMS. */
export function registerTaskWriter(writer: TaskWriter) {
  taskWriter = writer;
}

/** The `task.writeback` job: records the outcome on the task (failed with the reason once out of attempts). */
export const handleTaskWriteback: JobHandler = async (job, { db }) => {
  const taskId = String(job.payload.taskId ?? "");
  const connectionId = String(job.payload.connectionId ?? "");
  if (!job.tenantId || !taskId) return;
  let outcome: TaskWriteOutcome;
  try {
    const retry = job.attempts > 1;
    outcome = taskWriter ? await taskWriter.write(db, { tenantId: job.tenantId, taskId, connectionId, retry }) : { status: "none" };
  } catch (error) {
    if (job.attempts < job.maxAttempts) throw error;
    outcome = { status: "failed", reason: error instanceof Error ? error.message : String(error) };
  }
  await db
    .update(tasks)
    .set({
      writeback: outcome.status,
      writebackExternalId: outcome.status === "done" ? outcome.externalId : null,
      writebackError: outcome.status === "failed" ? outcome.reason.slice(0, 500) : null,
      writebackAt: new Date(),
    })
    .where(and(eq(tasks.tenantId, job.tenantId), eq(tasks.id, taskId)));
};

export const TASKS_PAGE_SIZE = 25;

const taskColumns = {
  id: tasks.id,
  title: tasks.title,
  assignee: tasks.assignee,
  activityCode: tasks.activityCode,
  workGroup: tasks.workGroup,
  dueDate: tasks.dueDate,
  status: tasks.status,
  writeback: tasks.writeback,
  writebackExternalId: tasks.writebackExternalId,
  writebackError: tasks.writebackError,
  createdAt: tasks.createdAt,
  completedAt: tasks.completedAt,
  policyId: tasks.policyId,
  remarketId: tasks.remarketId,
  policyNumber: policies.policyNumber,
  customerId: tasks.customerId,
  customerName: customers.name,
};

/** Tasks of the tenant, open first by due date. */
export async function listTasks(ctx: Pick<TenantContext, "db" | "tenantId">, input: { status: "open" | "done" | "all"; page: number }) {
  const where = and(eq(tasks.tenantId, ctx.tenantId), input.status === "all" ? undefined : eq(tasks.status, input.status));
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select(taskColumns)
      .from(tasks)
      .leftJoin(policies, eq(policies.id, tasks.policyId))
      .leftJoin(customers, eq(customers.id, tasks.customerId))
      .where(where)
      .orderBy(asc(tasks.status), asc(tasks.dueDate), desc(tasks.createdAt))
      .limit(TASKS_PAGE_SIZE)
      .offset((input.page - 1) * TASKS_PAGE_SIZE),
    ctx.db.select({ total: count() }).from(tasks).where(where),
  ]);
  return { rows, total };
}

/** Tasks of one customer (customer detail). */
export async function tasksForCustomer(ctx: Pick<TenantContext, "db" | "tenantId">, customerId: string) {
  return ctx.db
    .select(taskColumns)
    .from(tasks)
    .leftJoin(policies, eq(policies.id, tasks.policyId))
    .leftJoin(customers, eq(customers.id, tasks.customerId))
    .where(and(eq(tasks.tenantId, ctx.tenantId), eq(tasks.customerId, customerId)))
    .orderBy(desc(tasks.createdAt));
}

/** Mark a task done (or open again). */
export async function setTaskStatus(ctx: TenantContext, taskId: string, status: "open" | "done") {
  requireUuid(taskId, "Task not found");
  const now = clock(ctx);
  await ctx.db.transaction(async (tx) => {
    const [task] = await tx
      .update(tasks)
      .set({ status, completedAt: status === "done" ? now : null })
      .where(and(eq(tasks.tenantId, ctx.tenantId), eq(tasks.id, taskId)))
      .returning({ id: tasks.id, policyId: tasks.policyId, title: tasks.title });
    if (!task) throw new NotFoundError("Task not found");
    await recordAudit(
      tx,
      {
        tenantId: ctx.tenantId,
        actorUserId: ctx.userId,
        action: `task.${status}`,
        subjectType: "policy",
        subjectId: task.policyId ?? undefined,
        details: { taskId, title: task.title },
      },
      now,
    );
  });
}

const CSV_COLUMNS = ["Task", "Customer", "Policy number", "Assignee", "Activity code", "Work group", "Due date", "Created"] as const;

/** Open tasks as CSV, for agencies whose AMS takes tasks by import (file connectors). */
export async function openTasksCsv(ctx: Pick<TenantContext, "db" | "tenantId">) {
  const rows = await ctx.db
    .select(taskColumns)
    .from(tasks)
    .leftJoin(policies, eq(policies.id, tasks.policyId))
    .leftJoin(customers, eq(customers.id, tasks.customerId))
    .where(and(eq(tasks.tenantId, ctx.tenantId), eq(tasks.status, "open")))
    .orderBy(asc(tasks.dueDate));
  const lines = [CSV_COLUMNS.join(",")];
  for (const r of rows) {
    lines.push(
      [r.title, r.customerName, r.policyNumber, r.assignee, r.activityCode, r.workGroup, r.dueDate, r.createdAt.toISOString().slice(0, 10)]
        .map(csvCell)
        .join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}

/** RFC 4180 quoting; a leading =, +, - or @ is defused so spreadsheets never run it as a formula. */
export function csvCell(value: unknown) {
  let text = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
