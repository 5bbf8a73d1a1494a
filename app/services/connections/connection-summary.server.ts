import { and, eq, inArray } from "drizzle-orm";
import { employeeAccounts, importRuns } from "~/db/schema";
import { FILTER_DIMENSIONS } from "~/db/schema/connections";
import { formatMoney, formatPercent } from "~/utils/format";
import { getIntegration } from "~/utils/integrations";
import type { ConnectionRow } from "./connections.server";
import type { TenantContext } from "../platform/context.server";
import { listForecastPreferences, DEFAULT_PREFERENCE } from "../renewals/forecast-preferences.server";
import { fieldLabel, CANONICAL_FIELDS } from "./mapping/fields";
import { IDENTITY_RULE_LABELS } from "./mapping/identity";
import { getPreset } from "./mapping/presets";
import { LOB_LABELS } from "./mapping/values";
import { getTaskCreationSetting } from "./task-settings.server";

const DIMENSION_LABELS = { linesOfBusiness: "lines of business", states: "states", carriers: "carriers", statuses: "statuses" };

/** One line or a few per wizard step, for the summary page (step 6). */
export async function connectionSummary(ctx: Pick<TenantContext, "db" | "tenantId">, connection: ConnectionRow) {
  const integration = getIntegration(connection.integrationId)!;
  const [prefs, tasks, active] = await Promise.all([
    listForecastPreferences(ctx),
    getTaskCreationSetting(ctx, connection.id),
    ctx.db
      .select({ id: importRuns.id })
      .from(importRuns)
      .where(
        and(
          eq(importRuns.tenantId, ctx.tenantId),
          eq(importRuns.connectionId, connection.id),
          inArray(importRuns.status, ["queued", "running"]),
        ),
      ),
  ]);
  const mapping = connection.mapping;
  const mapped = mapping ? Object.entries(mapping.fields).filter(([, v]) => v) : [];
  const all = prefs.find((p) => p.forecastObjectId === "all") ?? DEFAULT_PREFERENCE;
  const own = prefs.filter((p) => p.forecastObjectId !== "all");
  let assignee =
    tasks.assigneeRule === "producer" ? "the policy's producer" : tasks.assigneeRule === "csr" ? "the policy's CSR" : "a fixed employee";
  if (tasks.assigneeRule === "fixed" && tasks.fixedEmployeeAccountId) {
    const [person] = await ctx.db
      .select({ name: employeeAccounts.name })
      .from(employeeAccounts)
      .where(and(eq(employeeAccounts.id, tasks.fixedEmployeeAccountId), eq(employeeAccounts.tenantId, ctx.tenantId)));
    if (person) assignee = person.name;
  }
  const excluded = connection.filters?.excluded;
  return {
    connection: [
      `${connection.name} (${integration.name})`,
      integration.source === "file"
        ? `File: ${connection.fileName ?? "none"}`
        : `Credentials saved${connection.invalidCredentials ? " (refused: enter them again)" : ""}`,
    ],
    mapping: mapping
      ? [
          `${mapped.length} of ${CANONICAL_FIELDS.length} fields mapped${mapping.preset ? ` (${getPreset(mapping.preset)?.label ?? mapping.preset})` : ""}`,
          mapped
            .slice(0, 6)
            .map(([k, v]) => `${fieldLabel(k)} ← ${v}`)
            .join(", ") + (mapped.length > 6 ? ", …" : ""),
          `Customers: ${IDENTITY_RULE_LABELS[mapping.identityRule ?? "newest"].replace(/^One/, "one")} (change it in the mapping step before the next import)`,
        ]
      : ["Not mapped yet"],
    prediction: [
      `All lines: ${all.window === "yr" ? "12 months" : "6 months"}, flag from ${formatPercent(all.thresholdPct)}${all.thresholdAmount ? ` or ${formatMoney(all.thresholdAmount)}` : ""}, act ${all.actDaysBeforeExpiration} days before expiration`,
      ...(own.length
        ? [`Own settings for ${own.map((p) => LOB_LABELS[p.forecastObjectId as keyof typeof LOB_LABELS] ?? p.forecastObjectId).join(", ")}`]
        : []),
    ],
    tasks: tasks.enabled
      ? [
          `Create a task for ${assignee}, due ${tasks.dueDaysBeforeExpiration} days before expiration`,
          [tasks.activityCode && `activity ${tasks.activityCode}`, tasks.workGroup && `work group ${tasks.workGroup}`]
            .filter(Boolean)
            .join(", ") || "No activity code or work group",
        ]
      : ["No tasks are created when a policy is re-marketed"],
    filters: excluded
      ? FILTER_DIMENSIONS.map((d) =>
          excluded[d].length
            ? `Leaving out ${excluded[d].length} ${DIMENSION_LABELS[d]}: ${excluded[d].slice(0, 4).join(", ")}${excluded[d].length > 4 ? ", …" : ""}`
            : `All ${DIMENSION_LABELS[d]}`,
        )
      : ["Everything is imported"],
    activeRun: active.length > 0,
  };
}
