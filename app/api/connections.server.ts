import { z } from "zod";
import {
  apiAttributes,
  apiConnectionStatus,
  apiDisconnect,
  apiFilterValues,
  apiGetState,
  apiImportDuration,
  apiListConnections,
  apiMapping,
  apiObjects,
  apiSaveMapping,
  apiSaveState,
  apiStartImport,
  apiTaskOptions,
  apiUploadEzlynxExport,
  apiValues,
} from "~/services/connections/connections-api.server";
import {
  apiGetFilters,
  apiGetPrediction,
  apiGetTaskCreation,
  apiSaveFilters,
  apiSavePrediction,
  apiSaveTaskCreation,
} from "~/services/connections/setup-steps-api.server";
import { FILTER_DIMENSIONS } from "~/db/schema/connections";
import { PreferenceSchema, predictionSchema } from "~/utils/setup-step-forms";
import { getStorage } from "~/services/files/storage.server";
import { ServiceError } from "~/services/platform/errors.server";
import { connectionIdField, defineOperation, parseInput } from "~/utils/api.server";
import { readExportUpload } from "~/utils/export-upload.server";
import { problem } from "~/utils/problem.server";
import { cleanJson, singleLineText } from "~/utils/schemas";

// Seed §7 connection calls: the same services as the wizard's pages (connections-api.server.ts).

const tag = "Connections";
const byConnection = z.object({ connectionId: connectionIdField });
const pathId = z.object({ id: z.string() });
const disconnectInput = pathId.extend({ deleteData: z.boolean({ error: "deleteData must be true or false." }).default(false) });

const listConnections = (path: string) =>
  defineOperation({
    method: "GET",
    path,
    tag,
    errors: [422, 502],
    summary: "The agency's connections",
    run: async (ctx) => ({ data: await apiListConnections(ctx) }),
  });

export const connectionsList = listConnections("/api/connections");
export const connectionsListV2 = listConnections("/api/v2/connections");

export const connectionStatus = defineOperation({
  method: "GET",
  path: "/api/connections/status/{id}",
  tag,
  errors: [422, 502],
  summary: "A connection's status, step, last sync and latest import",
  input: pathId,
  run: async (ctx, input) => ({ data: await apiConnectionStatus(ctx, input.id) }),
});

export const connectionStateGet = defineOperation({
  method: "GET",
  path: "/api/connections/state/get",
  tag,
  errors: [422, 502],
  summary: "The setup wizard's step and saved drafts",
  input: byConnection,
  run: async (ctx, input) => ({ data: await apiGetState(ctx, input.connectionId) }),
});

export const connectionStateSave = defineOperation({
  method: "POST",
  path: "/api/connections/state/save",
  tag,
  errors: [422, 502],
  summary: "Keep a wizard step's draft",
  input: z.object({
    connectionId: connectionIdField,
    key: z.string({ error: "key is required." }).regex(/^[a-z]{1,20}$/, "key is 1 to 20 lowercase letters (the step: mapping, filters…)."),
    draft: cleanJson().refine((d) => JSON.stringify(d ?? null).length <= 200_000, "The draft is larger than 200 KB."),
  }),
  run: async (ctx, input) => ({
    data: await apiSaveState(ctx, { connectionId: input.connectionId, key: input.key, draft: input.draft ?? null }),
  }),
});

export const etlFilterValues = defineOperation({
  method: "GET",
  path: "/api/connections/etl-filter-values",
  tag,
  errors: [422, 502],
  summary: "Distinct lines of business, states, carriers and statuses of a connection's source",
  input: byConnection,
  run: async (ctx, input) => ({ data: await apiFilterValues(ctx, input.connectionId) }),
});

export const startEtl = defineOperation({
  method: "POST",
  path: "/api/connections/start-etl/{id}",
  tag,
  errors: [422, 502],
  summary: "Queue a connection's import",
  input: pathId,
  run: async (ctx, input) => ({ data: await apiStartImport(ctx, input.id) }),
});

export const disconnect = defineOperation({
  method: "POST",
  path: "/api/connections/disconnect/{id}",
  tag,
  errors: [422, 502],
  summary: "Disconnect a connection and its sub-connections",
  input: disconnectInput,
  run: async (ctx, input) => ({ data: await apiDisconnect(ctx, input.id, { deleteData: input.deleteData, subConnectionOnly: false }) }),
});

export const disconnectSubConnection = defineOperation({
  method: "POST",
  path: "/api/connections/disconnect/sub-connection/{id}",
  tag,
  errors: [422, 502],
  summary: "Disconnect one sub-connection",
  input: disconnectInput,
  run: async (ctx, input) => ({ data: await apiDisconnect(ctx, input.id, { deleteData: input.deleteData, subConnectionOnly: true }) }),
});

export const importDuration = defineOperation({
  method: "GET",
  path: "/api/notifications/durationByConnectionId",
  tag,
  errors: [422, 502],
  summary: "How long a connection's last import took",
  input: byConnection,
  run: async (ctx, input) => ({ data: await apiImportDuration(ctx, input.connectionId) }),
});

const taskOptions = (path: string, list: "employees" | "activityCodes" | "workGroups", summary: string) =>
  defineOperation({
    method: "GET",
    path,
    tag,
    errors: [422, 502],
    summary,
    input: byConnection,
    run: async (ctx, input) => ({ data: await apiTaskOptions(ctx, input.connectionId, list) }),
  });

export const epicEmployees = taskOptions("/api/connections/appliedepic/employee-accounts", "employees", "People tasks are assigned to");
export const qqEmployees = taskOptions("/api/connections/qqcatalyst/employee-accounts", "employees", "People tasks are assigned to");
export const epicActivityCodes = taskOptions(
  "/api/connections/appliedepic/activity-code",
  "activityCodes",
  "The task step's activity codes",
);
export const epicWorkGroups = taskOptions("/api/connections/appliedepic/work-group", "workGroups", "The task step's work groups");

export const salesforceMapping = defineOperation({
  method: "GET",
  path: "/api/connections/salesforce/mapping",
  tag,
  errors: [422, 502],
  summary: "The saved mapping and the suggested one",
  input: byConnection,
  run: async (ctx, input) => ({ data: await apiMapping(ctx, input.connectionId) }),
});

export const mappingObjects = defineOperation({
  method: "GET",
  path: "/api/connections/salesforce/mapping/objects",
  tag,
  errors: [422, 502],
  summary: "The source's objects",
  input: byConnection,
  run: async (ctx, input) => ({ data: await apiObjects(ctx, input.connectionId) }),
});

export const mappingAttributes = defineOperation({
  method: "GET",
  path: "/api/connections/salesforce/mapping/object/{object}/attributes",
  tag,
  errors: [422, 502],
  summary: "An object's attributes",
  input: z.object({ connectionId: connectionIdField, object: singleLineText().min(1).max(200) }),
  run: async (ctx, input) => ({ data: await apiAttributes(ctx, input.connectionId, input.object) }),
});

export const mappingValues = defineOperation({
  method: "GET",
  path: "/api/connections/salesforce/mapping/attribute/{attribute}/values",
  tag,
  errors: [422, 502],
  summary: "An attribute's distinct values",
  input: z.object({
    connectionId: connectionIdField,
    attribute: singleLineText().min(1).max(200),
    object: singleLineText().min(1, "object must not be empty.").max(200).optional(),
    limit: z.coerce
      .number({ error: "limit must be a number." })
      .int("limit must be a whole number.")
      .min(1, "limit must be 1 to 500.")
      .max(500, "limit must be 1 to 500.")
      .default(200),
  }),
  run: async (ctx, input) => ({ data: await apiValues(ctx, input) }),
});

export const saveMappingConfig = defineOperation({
  method: "POST",
  path: "/api/mappings/save-config",
  tag,
  errors: [422, 502],
  summary: "Save the mapping step",
  input: z.object({
    connectionId: connectionIdField,
    mapping: z.object(
      {
        object: singleLineText({ error: "mapping.object is required." }).min(1, "mapping.object is required.").max(200),
        fields: z.record(singleLineText(), singleLineText().min(1).max(200), {
          error: "mapping.fields maps each field to a source attribute.",
        }),
        valueMaps: z
          .object({
            lineOfBusiness: z.record(singleLineText(), singleLineText()).default({}),
            status: z.record(singleLineText(), singleLineText()).default({}),
          })
          .default({ lineOfBusiness: {}, status: {} }),
        preset: singleLineText().max(40).nullable().optional(),
        identityRule: z
          .enum(["newest", "per-name"], { error: 'mapping.identityRule is "newest" or "per-name".' })
          .optional()
          .describe(
            'Rows sharing a customer number but naming different insureds: one customer with the newest row\'s details ("newest", the default) or one customer per insured ("per-name")',
          ),
      },
      { error: "mapping is required." },
    ),
  }),
  run: async (ctx, input) => ({ data: await apiSaveMapping(ctx, input) }),
});

const uploadFields = z.object({
  connectionId: connectionIdField.optional(),
  name: singleLineText().min(1, "name cannot be blank.").max(100, "name is at most 100 characters.").optional(),
});

/**
 * multipart/form-data with the export in `file` (.csv or .xlsx), and optionally `connectionId`
 * (replace an EZLynx connection's export) or `name` (of a new connection). All or nothing: when
 * anything is refused, the uploaded bytes are deleted. An `Idempotency-Key` header (16 to 200
 * characters) makes a retry answer the first outcome instead of creating a second connection.
 */
export const ezlynxUploadCsv = defineOperation({
  method: "POST",
  path: "/api/connections/ezlynx/upload-csv",
  tag,
  errors: [422, 502],
  summary: "Upload an EZLynx export (multipart/form-data: file, connectionId or name)",
  from: "multipart",
  idempotent: true,
  run: async (ctx, _input, request) => {
    if (!(request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
      throw problem(415, "Send the export as multipart/form-data, in a field named file.");
    }
    const upload = await readExportUpload(request, ctx.tenantId);
    // Kept only when this request's upload became a connection's export.
    let used = false;
    try {
      if (upload.error || !upload.file) throw new ServiceError(upload.error ?? "Attach the export in a field named file.", 400, "file");
      const text = (name: string) => {
        const value = upload.formData.get(name);
        return typeof value === "string" && value !== "" ? value : undefined;
      };
      const input = parseInput(uploadFields, { connectionId: text("connectionId"), name: text("name") });
      const data = await apiUploadEzlynxExport(ctx, {
        connectionId: input.connectionId ?? null,
        name: input.name ?? null,
        file: upload.file,
      });
      used = true;
      return { data };
    } finally {
      if (!used && upload.file)
        await getStorage()
          .delete(upload.file.key)
          .catch(() => {});
    }
  },
});

// The wizard's prediction, task-creation and filter-options steps as JSON, with the pages' rules
// and guard (setup-steps-api.server.ts): an import can be set up entirely over the API.

const stepErrors = [409, 422, 502];
const PREFERENCE_EXAMPLE = {
  window: "12 months",
  thresholdPct: 10,
  thresholdAmount: null,
  actDaysBeforeExpiration: 60,
  excludeFirstTerm: true,
  excludeZeroPremium: true,
};

export const predictionGet = defineOperation({
  method: "GET",
  path: "/api/connections/{connectionId}/prediction",
  tag,
  errors: stepErrors,
  summary: "The prediction step's forecast preferences (409 before the mapping is saved)",
  input: byConnection,
  run: async (ctx, input) => ({ data: await apiGetPrediction(ctx, input.connectionId) }),
});

export const predictionSave = defineOperation({
  method: "PUT",
  path: "/api/connections/{connectionId}/prediction",
  tag,
  errors: stepErrors,
  summary: "Save the prediction step: preferences for all lines, optionally one per line of business",
  input: z
    .object({ connectionId: connectionIdField, preferences: predictionSchema(PreferenceSchema.optional()) })
    .meta({ examples: [{ preferences: { all: PREFERENCE_EXAMPLE, HOME: { ...PREFERENCE_EXAMPLE, thresholdPct: 15 } } }] }),
  run: async (ctx, input) => ({ data: await apiSavePrediction(ctx, input) }),
});

export const taskCreationGet = defineOperation({
  method: "GET",
  path: "/api/connections/{connectionId}/task-creation",
  tag,
  errors: stepErrors,
  summary: "The task-creation step's setting and the employees, activity codes and work groups it chooses from",
  input: byConnection,
  run: async (ctx, input) => ({ data: await apiGetTaskCreation(ctx, input.connectionId) }),
});

export const taskCreationSave = defineOperation({
  method: "PUT",
  path: "/api/connections/{connectionId}/task-creation",
  tag,
  errors: stepErrors,
  summary: "Save the task-creation step (409 before the prediction step is saved)",
  description:
    "setting: { enabled, assigneeRule (producer, csr or fixed), fixedEmployeeAccountId, activityCode, workGroup, dueDaysBeforeExpiration }, checked as the page checks it.",
  input: z
    .object({ connectionId: connectionIdField, setting: cleanJson() })
    .meta({ examples: [{ setting: { enabled: true, assigneeRule: "producer", dueDaysBeforeExpiration: 30 } }] }),
  run: async (ctx, input) => ({ data: await apiSaveTaskCreation(ctx, input) }),
});

export const filterOptionsGet = defineOperation({
  method: "GET",
  path: "/api/connections/{connectionId}/filter-options",
  tag,
  errors: stepErrors,
  summary: "The filter-options step: per dimension, the source's values and whether each is imported",
  input: byConnection,
  run: async (ctx, input) => ({ data: await apiGetFilters(ctx, input.connectionId) }),
});

export const filterOptionsSave = defineOperation({
  method: "PUT",
  path: "/api/connections/{connectionId}/filter-options",
  tag,
  errors: stepErrors,
  summary: "Save the filter-options step, which completes the setup (then start-etl runs the import)",
  description:
    "included: the values to import per dimension (linesOfBusiness, states, carriers, statuses); a dimension left out keeps all its values.",
  input: z
    .object({
      connectionId: connectionIdField,
      included: z.partialRecord(z.enum(FILTER_DIMENSIONS), z.array(z.string().max(200)).max(1000)).default({}),
    })
    .meta({ examples: [{ included: { linesOfBusiness: ["HOME", "AUTO"] } }] }),
  run: async (ctx, input) => ({ data: await apiSaveFilters(ctx, input) }),
});
