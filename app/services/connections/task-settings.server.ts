import { and, eq, isNull } from "drizzle-orm";
import { taskCreationSettings } from "~/db/schema";
import { clock, type TenantContext } from "../platform/context.server";

export type TaskCreationSetting = {
  enabled: boolean;
  assigneeRule: "producer" | "csr" | "fixed";
  fixedEmployeeAccountId: string | null;
  activityCode: string | null;
  workGroup: string | null;
  dueDaysBeforeExpiration: number;
};

export const DEFAULT_TASK_SETTING: TaskCreationSetting = {
  enabled: true,
  assigneeRule: "producer",
  fixedEmployeeAccountId: null,
  activityCode: null,
  workGroup: null,
  dueDaysBeforeExpiration: 45,
};

const scope = (ctx: Pick<TenantContext, "tenantId">, connectionId: string | null) =>
  and(
    eq(taskCreationSettings.tenantId, ctx.tenantId),
    connectionId ? eq(taskCreationSettings.connectionId, connectionId) : isNull(taskCreationSettings.connectionId),
  );

/** Settings of a connection (null: the tenant default), falling back to the tenant default, then built-ins. */
export async function getTaskCreationSetting(
  ctx: Pick<TenantContext, "db" | "tenantId">,
  connectionId: string | null,
): Promise<TaskCreationSetting> {
  const select = {
    enabled: taskCreationSettings.enabled,
    assigneeRule: taskCreationSettings.assigneeRule,
    fixedEmployeeAccountId: taskCreationSettings.fixedEmployeeAccountId,
    activityCode: taskCreationSettings.activityCode,
    workGroup: taskCreationSettings.workGroup,
    dueDaysBeforeExpiration: taskCreationSettings.dueDaysBeforeExpiration,
  };
  if (connectionId) {
    const [own] = await ctx.db.select(select).from(taskCreationSettings).where(scope(ctx, connectionId));
    if (own) return own;
  }
  const [fallback] = await ctx.db.select(select).from(taskCreationSettings).where(scope(ctx, null));
  return fallback ?? DEFAULT_TASK_SETTING;
}

/** Create or replace the settings of a connection (null: the tenant default). */
export async function saveTaskCreationSetting(ctx: TenantContext, connectionId: string | null, setting: TaskCreationSetting) {
  await ctx.db.transaction(async (tx) => {
    await tx.delete(taskCreationSettings).where(scope(ctx, connectionId));
    await tx.insert(taskCreationSettings).values({ ...setting, tenantId: ctx.tenantId, connectionId, updatedAt: clock(ctx) });
  });
}
