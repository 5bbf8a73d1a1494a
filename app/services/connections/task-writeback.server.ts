import { and, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "~/db/client.server";
import { connections, customers, employeeAccounts, policies, tasks } from "~/db/schema";
import { getIntegration } from "~/utils/integrations";
import { ApiError, InvalidCredentialsError } from "./connectors/api-client.server";
import { connectorFor } from "./connectors/index.server";
import { registerTaskWriter, type TaskWriteOutcome } from "../renewals/tasks.server";

// Task write-back (the connections side of tasks.server.ts's hook): a re-market's follow-up task
// goes to the connection's system when its connector can take tasks (Salesforce). The API client
// applies the seed §8 rules (401: one refresh, then the connection is flagged invalid and
// everyone told; 500: one retry after 1 s); what still fails is either final (refused
// credentials, a 4xx: the task is marked failed with the reason) or retried by the job queue.
// File connectors never get here: their open tasks are downloaded as CSV from /tasks.

async function supports(db: DbOrTx, input: { tenantId: string; connectionId: string }) {
  const [connection] = await db
    .select({ integrationId: connections.integrationId })
    .from(connections)
    .where(and(eq(connections.id, input.connectionId), eq(connections.tenantId, input.tenantId)));
  return getIntegration(connection?.integrationId)?.source === "api";
}

// How far the system's clock may be behind ours when looking for a task an attempt wrote.
const CLOCK_SKEW_MS = 15 * 60_000;

export async function writeTaskBack(
  db: Db,
  input: { tenantId: string; taskId: string; connectionId: string; retry?: boolean },
): Promise<TaskWriteOutcome> {
  const [task] = await db
    .select({
      title: tasks.title,
      dueDate: tasks.dueDate,
      createdAt: tasks.createdAt,
      writeback: tasks.writeback,
      externalId: tasks.writebackExternalId,
      activityCode: tasks.activityCode,
      workGroup: tasks.workGroup,
      assignee: tasks.assignee,
      assigneeSourceKey: employeeAccounts.sourceKey,
      policyNumber: policies.policyNumber,
      lineOfBusiness: policies.lineOfBusiness,
      expirationDate: policies.expirationDate,
      customerName: customers.name,
    })
    .from(tasks)
    .leftJoin(employeeAccounts, and(eq(employeeAccounts.id, tasks.employeeAccountId), eq(employeeAccounts.tenantId, input.tenantId)))
    .leftJoin(policies, eq(policies.id, tasks.policyId))
    .leftJoin(customers, eq(customers.id, tasks.customerId))
    .where(and(eq(tasks.id, input.taskId), eq(tasks.tenantId, input.tenantId)));
  if (!task) return { status: "failed", reason: "The task no longer exists." };
  // A retried job after a write that went through: never create the task twice.
  if (task.writeback === "done" && task.externalId) return { status: "done", externalId: task.externalId };

  const [connection] = await db
    .select()
    .from(connections)
    .where(and(eq(connections.id, input.connectionId), eq(connections.tenantId, input.tenantId)));
  if (!connection) return { status: "failed", reason: "The connection no longer exists." };
  if (connection.status === "disconnected") return { status: "failed", reason: "The connection is disconnected." };
  if (connection.invalidCredentials) return { status: "failed", reason: "invalid credentials" };
  const connector = connectorFor(db, connection);
  if (!connector.writeTask) return { status: "none" };

  try {
    // A retry after an attempt whose answer never came back (a crash, a time-out, a dropped
    // connection): that attempt may have created the task, so look for it before creating another.
    if (input.retry && connector.findWrittenTask) {
      const since = new Date(task.createdAt.getTime() - CLOCK_SKEW_MS);
      const earlier = await connector.findWrittenTask({ subject: task.title, dueDate: task.dueDate }, since);
      if (earlier) return { status: "done", externalId: earlier.id };
    }
    const written = await connector.writeTask({
      subject: task.title,
      dueDate: task.dueDate,
      description: [
        `Re-market ${task.lineOfBusiness ?? ""} policy ${task.policyNumber ?? ""} for ${task.customerName ?? ""}.`,
        task.expirationDate ? `Expires ${task.expirationDate}.` : "",
        task.assignee ? `Assignee: ${task.assignee}.` : "",
        task.workGroup ? `Work group: ${task.workGroup}.` : "",
        "Created by Remarket.",
      ]
        .filter(Boolean)
        .join(" "),
      assigneeSourceKey: task.assigneeSourceKey ?? null,
      activityCode: task.activityCode,
      workGroup: task.workGroup,
    });
    return { status: "done", externalId: written.id };
  } catch (error) {
    // Seed §8: the client already refreshed once and flagged the connection; no retry helps.
    if (error instanceof InvalidCredentialsError) return { status: "failed", reason: "invalid credentials" };
    // A refusal (validation, permissions) is final; 5xx, time-outs and network errors are retried.
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
      return {
        status: "failed",
        reason: `${getIntegration(connection.integrationId)?.name ?? "The system"} refused the task (${error.status}): ${error.message}`,
      };
    }
    throw error;
  }
}

/** Registered where job handlers are (app/jobs.server.ts) and by tests. */
export function registerTaskWriteback() {
  registerTaskWriter({ supports, write: writeTaskBack });
}
