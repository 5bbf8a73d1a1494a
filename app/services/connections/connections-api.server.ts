import { defaultExclusions } from "~/services/connections/mapping/values";
import type { ConnectionMapping } from "~/db/schema";
import { getIntegration } from "~/utils/integrations";
import { scanSource } from "./connection-scan.server";
import { loadMappingSource, suggestFields } from "./connection-mapping.server";
import {
  connectorOf,
  disconnectConnection,
  getConnection,
  getConnectionState,
  listConnections,
  listTaskOptions,
  saveConnectionSettings,
  saveConnectionState,
  saveMapping,
  type UploadedFile,
  upsertPeople,
} from "./connections.server";
import type { TenantContext } from "../platform/context.server";
import { ServiceError } from "../platform/errors.server";
import { formatDuration, getLatestRun, startImport } from "./imports.server";
import { CANONICAL_FIELDS, fieldLabel, missingRequiredFields } from "./mapping/fields";

// The seed §7 connection calls as JSON for the API (/api/connections/*, /api/mappings/save-config):
// the same services as the wizard's pages, every one scoped to the caller's tenant (another
// tenant's connection id is a 404, as a missing one).

type Ctx = TenantContext;

function requireAdminRole(ctx: Ctx) {
  if (ctx.role !== "admin") throw new ServiceError("Only admins can change connections.", 403);
}

/** Seed /v2/connections: the tenant's connections with their latest import progress. */
export async function apiListConnections(ctx: Ctx) {
  return listConnections(ctx);
}

/** Seed /connections/status/{id}: status, setup step, last sync and the latest import. */
export async function apiConnectionStatus(ctx: Ctx, connectionId: string) {
  const c = await getConnection(ctx, connectionId);
  const run = await getLatestRun(ctx, c.id);
  return {
    id: c.id,
    name: c.name,
    integrationId: c.integrationId,
    status: c.status,
    step: c.step,
    invalidCredentials: c.invalidCredentials,
    lastError: c.lastError,
    lastSyncAt: c.lastSyncAt,
    lastDurationMs: c.lastDurationMs,
    recordsImported: c.recordsImported,
    fileId: c.fileId,
    latestRun: run
      ? {
          id: run.id,
          status: run.status,
          rowsTotal: run.rowsTotal,
          rowsRead: run.rowsRead,
          rowsImported: run.rowsImported,
          rowsRejected: run.rowsRejected,
          rowsFiltered: run.rowsFiltered,
          customersCount: run.customersCount,
          policiesCount: run.policiesCount,
          durationMs: run.durationMs,
          error: run.error,
          startedAt: run.startedAt,
          finishedAt: run.finishedAt,
        }
      : null,
  };
}

/**
 * Seed connections/ezlynx/upload-csv: an EZLynx export uploaded through the API, saved exactly as
 * the wizard's step 1 saves it (a new connection, or the export of an existing EZLynx connection
 * replaced). The caller then maps it (connections/salesforce/mapping suggests, /mappings/save-config
 * saves) and queues the import with start-etl/{id}.
 */
export async function apiUploadEzlynxExport(ctx: Ctx, input: { connectionId: string | null; name: string | null; file: UploadedFile }) {
  requireAdminRole(ctx);
  const existing = input.connectionId ? await getConnection(ctx, input.connectionId) : null;
  const saved = await saveConnectionSettings(ctx, existing?.id ?? null, {
    integrationId: "ezlynx",
    name: input.name ?? existing?.name ?? "EZLynx",
    credentials: {},
    file: input.file,
    parentConnectionId: null,
  });
  return {
    connection: {
      id: saved.id,
      name: saved.name,
      integrationId: saved.integrationId,
      status: saved.status,
      step: saved.step,
      fileId: saved.fileId,
    },
    file: { name: input.file.name, bytes: input.file.bytes },
    created: !existing,
    // A replaced export keeps the saved mapping; a new connection is mapped next (mapping, then save-config).
    mappingSaved: Boolean(saved.mapping),
  };
}

/** Seed /notifications/durationByConnectionId: how long the connection's last import took. */
export async function apiImportDuration(ctx: Ctx, connectionId: string) {
  const c = await getConnection(ctx, connectionId);
  return {
    connectionId: c.id,
    durationMs: c.lastDurationMs,
    duration: c.lastDurationMs === null ? null : formatDuration(c.lastDurationMs),
  };
}

/** Seed /connections/state/get. */
export async function apiGetState(ctx: Ctx, connectionId: string) {
  return getConnectionState(ctx, connectionId);
}

/** Seed /connections/state/save: a step's unsaved draft. */
export async function apiSaveState(ctx: Ctx, input: { connectionId: string; key: string; draft: unknown }) {
  requireAdminRole(ctx);
  const connection = await getConnection(ctx, input.connectionId);
  await saveConnectionState(ctx, connection, input.key, input.draft);
  return getConnectionState(ctx, connection.id);
}

/** Seed connections/start-etl/{id}. */
export async function apiStartImport(ctx: Ctx, connectionId: string) {
  requireAdminRole(ctx);
  return { runId: await startImport(ctx, connectionId) };
}

/** Seed /connections/disconnect/{id} and /connections/disconnect/sub-connection/{id}. */
export async function apiDisconnect(ctx: Ctx, connectionId: string, options: { deleteData: boolean; subConnectionOnly: boolean }) {
  requireAdminRole(ctx);
  const connection = await disconnectConnection(ctx, connectionId, options);
  return { id: connection.id, status: "disconnected" as const, deletedData: options.deleteData };
}

/** Seed /connections/etl-filter-values: the distinct values of each filter dimension in the source. */
export async function apiFilterValues(ctx: Ctx, connectionId: string) {
  const connection = await getConnection(ctx, connectionId);
  if (!connection.mapping) throw new ServiceError("Map the source first: the filter values come from the mapped columns.", 409);
  const scan = await scanSource(connectorOf(ctx, connection), connection.mapping, { previewSize: 0, invalidSamples: 0 });
  // Before the agency saves its choice, the default one (inactive statuses out), as the page offers it.
  return { filterValues: scan.filterValues, excluded: connection.filters?.excluded ?? defaultExclusions(scan.filterValues) };
}

/** Seed connections/salesforce/mapping: the saved mapping, or the suggestion when none is saved. */
export async function apiMapping(ctx: Ctx, connectionId: string) {
  const connection = await getConnection(ctx, connectionId);
  const integration = getIntegration(connection.integrationId)!;
  const source = await loadMappingSource(connectorOf(ctx, connection), connection.mapping?.object);
  const suggestion = suggestFields(
    source.attributes.map((a) => a.name),
    integration,
    connection.mapping?.preset,
  );
  return {
    saved: connection.mapping,
    object: source.object,
    suggested: suggestion.fields,
    fields: CANONICAL_FIELDS.map((f) => ({ key: f.key, label: f.label, required: Boolean(f.required) })),
  };
}

/** Seed connections/salesforce/mapping/objects. */
export async function apiObjects(ctx: Ctx, connectionId: string) {
  const connection = await getConnection(ctx, connectionId);
  return connectorOf(ctx, connection).listObjects();
}

async function requireObject(ctx: Ctx, connectionId: string, object: string) {
  const connection = await getConnection(ctx, connectionId);
  const connector = connectorOf(ctx, connection);
  if (!(await connector.listObjects()).some((o) => o.name === object)) throw new ServiceError(`The source has no object ${object}.`, 404);
  return { connection, connector };
}

/** Seed connections/salesforce/mapping/object/{object}/attributes. */
export async function apiAttributes(ctx: Ctx, connectionId: string, object: string) {
  const { connector } = await requireObject(ctx, connectionId, object);
  return connector.listAttributes(object);
}

/** Seed connections/salesforce/mapping/attribute/{attribute}/values (object: the mapped one unless given). */
export async function apiValues(ctx: Ctx, input: { connectionId: string; attribute: string; object?: string; limit: number }) {
  const connection = await getConnection(ctx, input.connectionId);
  const object = input.object ?? connection.mapping?.object ?? (await connectorOf(ctx, connection).listObjects())[0]?.name ?? "";
  const { connector } = await requireObject(ctx, connection.id, object);
  if (!(await connector.listAttributes(object)).some((a) => a.name === input.attribute)) {
    throw new ServiceError(`${object} has no attribute ${input.attribute}.`, 404);
  }
  return { object, attribute: input.attribute, values: await connector.listValues(object, input.attribute, input.limit) };
}

export class MappingInvalidError extends ServiceError {
  constructor(fieldErrors: Record<string, string[]>) {
    super("The mapping is not complete.", 400, undefined, fieldErrors);
  }
}

/** Seed /mappings/save-config: save a mapping (every required field mapped to an attribute of the object). */
export async function apiSaveMapping(ctx: Ctx, input: { connectionId: string; mapping: ConnectionMapping }) {
  requireAdminRole(ctx);
  const connection = await getConnection(ctx, input.connectionId);
  const connector = connectorOf(ctx, connection);
  const { mapping } = input;
  const objects = await connector.listObjects();
  if (!objects.some((o) => o.name === mapping.object))
    throw new MappingInvalidError({ "mapping.object": [`The source has no object ${mapping.object}.`] });
  const attributes = new Set((await connector.listAttributes(mapping.object)).map((a) => a.name));
  const fieldErrors: Record<string, string[]> = {};
  for (const [key, attribute] of Object.entries(mapping.fields)) {
    if (!CANONICAL_FIELDS.some((f) => f.key === key)) fieldErrors[`mapping.fields.${key}`] = [`${key} is not a field Remarket maps.`];
    else if (!attributes.has(attribute)) fieldErrors[`mapping.fields.${key}`] = [`${mapping.object} has no attribute ${attribute}.`];
  }
  for (const key of missingRequiredFields(mapping.fields))
    fieldErrors[`mapping.fields.${key}`] = [`Map ${fieldLabel(key)}: it is required.`];
  if (Object.keys(fieldErrors).length > 0) throw new MappingInvalidError(fieldErrors);
  const saved: ConnectionMapping = {
    ...mapping,
    preset: mapping.preset ?? connection.mapping?.preset ?? getIntegration(connection.integrationId)?.preset ?? null,
    // Left out, the connection keeps the rule it has.
    identityRule: mapping.identityRule ?? connection.mapping?.identityRule,
  };
  const scan = await scanSource(connector, saved, { previewSize: 0, invalidSamples: 0 });
  await saveMapping(ctx, connection, saved, { producers: scan.producers, csrs: scan.csrs });
  if (connector.listEmployeeAccounts) {
    const people = await connector.listEmployeeAccounts().catch(() => []);
    await upsertPeople(ctx.db, ctx.tenantId, connection.id, { producers: people.map((p) => p.name), csrs: [] });
  }
  return { connectionId: connection.id, mapping: saved, scanned: scan.scanned, valid: scan.valid, invalid: scan.invalid };
}

/** Seed appliedepic/qqcatalyst employee-accounts, activity-code, work-group: the task step's lists. */
export async function apiTaskOptions(ctx: Ctx, connectionId: string, list: "employees" | "activityCodes" | "workGroups") {
  const connection = await getConnection(ctx, connectionId);
  return (await listTaskOptions(ctx, connection))[list];
}
