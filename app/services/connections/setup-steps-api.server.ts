import type { z } from "zod";
import { FILTER_DIMENSIONS } from "~/db/schema/connections";
import { getForecastPreference, listForecastPreferences, saveForecastPreference } from "~/services/renewals/forecast-preferences.server";
import { ALL_LINES_ID } from "~/utils/renewals";
import { parseInput } from "~/utils/api.server";
import {
  excludedFilters,
  FiltersSchema,
  taskSettingSchema,
  toForecastPreferences,
  toTaskCreationSetting,
  type PreferenceSchema,
} from "~/utils/setup-step-forms";
import { STEP_ORDER, stepIndex, type Step } from "~/utils/setup-steps";
import type { TenantContext } from "../platform/context.server";
import { ServiceError } from "../platform/errors.server";
import { scanSource } from "./connection-scan.server";
import { connectorOf, getConnection, listTaskOptions, markStepSaved, saveFilters } from "./connections.server";
import { getTaskCreationSetting, saveTaskCreationSetting } from "./task-settings.server";

// The wizard's prediction and filter-options steps as JSON (app/api/connections.server.ts): the
// same rules (app/utils/setup-step-forms.ts) and services as the pages, and the same guard: a
// step is open once every step before it is saved; skipping ahead is a 409 naming the open step.

/** The caller's connection at `step` or later; an earlier one is a 409, a non-admin a 403. */
export async function requireApiStep(ctx: TenantContext, connectionId: string, step: Step) {
  if (ctx.role !== "admin") throw new ServiceError("Only admins can change connections.", 403);
  const connection = await getConnection(ctx, connectionId);
  if (stepIndex(step) > stepIndex(connection.step)) {
    const at = STEP_ORDER[stepIndex(connection.step)];
    throw new ServiceError(`Save the earlier steps first: this connection is at ${at}.`, 409);
  }
  return connection;
}

/** The prediction step's saved preferences (`all`, and each line that has its own). */
export async function apiGetPrediction(ctx: TenantContext, connectionId: string) {
  const connection = await requireApiStep(ctx, connectionId, "PREDICTION_SETTING");
  const saved = await listForecastPreferences(ctx);
  const all = await getForecastPreference(ctx, ALL_LINES_ID);
  return {
    connectionId: connection.id,
    step: connection.step,
    preferences: [all, ...saved.filter((p) => p.forecastObjectId !== ALL_LINES_ID)],
  };
}

/** Save the prediction step (as its page does) and open the task-creation step. */
export async function apiSavePrediction(
  ctx: TenantContext,
  input: { connectionId: string; preferences: Record<string, z.output<typeof PreferenceSchema> | undefined> },
) {
  const connection = await requireApiStep(ctx, input.connectionId, "PREDICTION_SETTING");
  for (const pref of toForecastPreferences(input.preferences)) await saveForecastPreference(ctx, pref);
  await markStepSaved(ctx, connection, "TASK_CREATION");
  return apiGetPrediction(ctx, connection.id);
}

/** The filter-options step: per dimension, the source's values and whether each is imported. */
export async function apiGetFilters(ctx: TenantContext, connectionId: string) {
  const connection = await requireApiStep(ctx, connectionId, "FILTER_OPTIONS");
  if (!connection.mapping) throw new ServiceError("Save the mapping step first.", 409);
  const scan = await scanSource(connectorOf(ctx, connection), connection.mapping, { previewSize: 0, invalidSamples: 0 });
  const excluded = connection.filters?.excluded;
  return {
    connectionId: connection.id,
    step: connection.step,
    dimensions: Object.fromEntries(
      FILTER_DIMENSIONS.map((d) => [d, scan.filterValues[d].map((v) => ({ ...v, included: !excluded?.[d]?.includes(v.value) }))]),
    ),
  };
}

/**
 * Save the filter-options step, which completes the setup. `included` names the values to import
 * per dimension (a dimension left out keeps all its values); checked by the page's FiltersSchema
 * against the values the source offers.
 */
export async function apiSaveFilters(ctx: TenantContext, input: { connectionId: string; included: Partial<Record<string, string[]>> }) {
  const connection = await requireApiStep(ctx, input.connectionId, "FILTER_OPTIONS");
  if (!connection.mapping) throw new ServiceError("Save the mapping step first.", 409);
  const scan = await scanSource(connectorOf(ctx, connection), connection.mapping, { previewSize: 0, invalidSamples: 0 });
  const form = Object.fromEntries(
    FILTER_DIMENSIONS.flatMap((d) => {
      const offered = scan.filterValues[d].map((v) => v.value);
      return [
        [d, input.included[d] ?? offered],
        [`offered:${d}`, offered],
      ];
    }),
  );
  const parsed = FiltersSchema.safeParse(form);
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (errors[`included.${issue.path.map(String).join(".")}`] ??= []).push(issue.message);
    throw new ServiceError(Object.values(errors).flat().join(" "), 400, undefined, errors);
  }
  await saveFilters(ctx, connection, { excluded: excludedFilters(parsed.data) });
  return apiGetFilters(ctx, connection.id);
}

/** The task-creation step: its setting and the lists it chooses from (employees, activity codes, work groups). */
export async function apiGetTaskCreation(ctx: TenantContext, connectionId: string) {
  const connection = await requireApiStep(ctx, connectionId, "TASK_CREATION");
  const [setting, options] = await Promise.all([getTaskCreationSetting(ctx, connection.id), listTaskOptions(ctx, connection)]);
  return { connectionId: connection.id, step: connection.step, setting, ...options };
}

/** Save the task-creation step (checked by the page's schema against this connection's employees) and open filter options. */
export async function apiSaveTaskCreation(ctx: TenantContext, input: { connectionId: string; setting: unknown }) {
  const connection = await requireApiStep(ctx, input.connectionId, "TASK_CREATION");
  const { employees } = await listTaskOptions(ctx, connection);
  const setting = parseInput(
    taskSettingSchema(
      employees.map((e) => e.id),
      {},
    ),
    input.setting,
  );
  await saveTaskCreationSetting(ctx, connection.id, toTaskCreationSetting(setting));
  await markStepSaved(ctx, connection, "FILTER_OPTIONS");
  return apiGetTaskCreation(ctx, connection.id);
}
