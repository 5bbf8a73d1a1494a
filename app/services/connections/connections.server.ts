import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray, isNull, notExists, or, sql } from "drizzle-orm";
import {
  connections,
  connectionTaskOptions,
  customers,
  employeeAccounts,
  importRuns,
  notifications,
  policies,
  type ConnectionFilters,
  type ConnectionMapping,
} from "~/db/schema";
import { getIntegration, type Integration } from "~/utils/integrations";
import { seal, unseal } from "~/utils/sealed.server";
import { laterStep, type Step } from "~/utils/setup-steps";
import { recordAudit } from "../platform/audit.server";
import { connectorFor, isAllowedApiUrl } from "./connectors/index.server";
import type { TestResult } from "./connectors/types";
import { clock, type TenantContext } from "../platform/context.server";
import { sanitizeFileName } from "../files/file-types.server";
import { createUploadedFile } from "../files/files.server";
import type { DbOrTx } from "~/db/client.server";
import { NotFoundError, ServiceError } from "../platform/errors.server";
import { enqueueForecastRecompute } from "../renewals/forecast.server";

export type ConnectionRow = typeof connections.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Ctx = Pick<TenantContext, "db" | "tenantId">;

/** The tenant's connection, or 404 (also for a malformed id or another tenant's id). */
export async function getConnection(ctx: Ctx, connectionId: string | undefined): Promise<ConnectionRow> {
  if (!connectionId || !UUID.test(connectionId)) throw new NotFoundError("Connection not found");
  const [row] = await ctx.db
    .select()
    .from(connections)
    .where(and(eq(connections.id, connectionId), eq(connections.tenantId, ctx.tenantId)));
  if (!row) throw new NotFoundError("Connection not found");
  return row;
}

export function requireIntegration(id: string | null | undefined): Integration {
  const integration = getIntegration(id);
  if (!integration) throw new NotFoundError("Unknown integration");
  return integration;
}

/** What the connections page lists: every connection with its latest import. */
export async function listConnections(ctx: Ctx) {
  const rows = await ctx.db
    .select({
      id: connections.id,
      integrationId: connections.integrationId,
      name: connections.name,
      status: connections.status,
      step: connections.step,
      parentConnectionId: connections.parentConnectionId,
      lastSyncAt: connections.lastSyncAt,
      lastDurationMs: connections.lastDurationMs,
      recordsImported: connections.recordsImported,
      lastError: connections.lastError,
      invalidCredentials: connections.invalidCredentials,
      createdAt: connections.createdAt,
    })
    .from(connections)
    .where(eq(connections.tenantId, ctx.tenantId))
    .orderBy(desc(connections.createdAt));
  const active = await ctx.db
    .select({ connectionId: importRuns.connectionId, rowsRead: importRuns.rowsRead, rowsTotal: importRuns.rowsTotal })
    .from(importRuns)
    .where(and(eq(importRuns.tenantId, ctx.tenantId), inArray(importRuns.status, ["queued", "running"])));
  const activeBy = new Map(active.map((a) => [a.connectionId, a]));
  return rows.map((r) => ({ ...r, activeRun: activeBy.get(r.id) ?? null }));
}

/** AMS and file connections a CRM can be attached to (seed sub-connections). */
export async function listParentCandidates(ctx: Ctx, excludeId?: string) {
  const rows = await ctx.db
    .select({ id: connections.id, name: connections.name, integrationId: connections.integrationId, status: connections.status })
    .from(connections)
    .where(and(eq(connections.tenantId, ctx.tenantId), isNull(connections.parentConnectionId)));
  return rows.filter((r) => r.id !== excludeId && r.status !== "disconnected" && getIntegration(r.integrationId)?.kind !== "crm");
}

export type UploadedFile = { key: string; name: string; bytes: number };

export type ConnectionSettingsInput = {
  integrationId: string;
  name: string;
  /** Credential fields as typed; a blank secret keeps the saved one. */
  credentials: Record<string, string>;
  file?: UploadedFile | null;
  parentConnectionId?: string | null;
  syncIntervalHours?: number;
};

function splitCredentials(integration: Integration, input: Record<string, string>, saved: Record<string, string> = {}) {
  const settings: Record<string, string> = {};
  const secrets: Record<string, string> = {};
  for (const field of integration.credentials) {
    const value = (input[field.name] ?? "").trim();
    if (field.secret) {
      const kept = value || saved[field.name] || "";
      if (field.required && !kept) throw new ServiceError(`${field.label} is required.`, 400, field.name);
      if (kept) secrets[field.name] = kept;
    } else {
      const kept = value || field.defaultValue || "";
      if (field.required && !kept) throw new ServiceError(`${field.label} is required.`, 400, field.name);
      settings[field.name] = kept;
    }
  }
  if (settings.loginUrl && !isAllowedApiUrl(settings.loginUrl)) {
    throw new ServiceError("Use the https:// address of your Salesforce login.", 400, "loginUrl");
  }
  return { settings, secrets };
}

function savedSecrets(connection: ConnectionRow | null): Record<string, string> {
  if (!connection?.credentialsSealed) return {};
  try {
    return unseal<Record<string, string>>(connection.credentialsSealed, connection.id);
  } catch {
    // A rotated key: the admin enters the secrets again.
    return {};
  }
}

function assertTenantFileKey(ctx: Ctx, file: UploadedFile) {
  // Keys are generated by uploadKeyFor(); anything else (or another tenant's key) is refused.
  if (!file.key.startsWith(`tenants/${ctx.tenantId}/connections/`)) throw new ServiceError("Upload the export file again.", 400, "file");
}

/** A fresh, tenant-scoped storage key for an uploaded export. */
export function uploadKeyFor(tenantId: string, fileName: string) {
  const ext = fileName.toLowerCase().match(/\.(csv|txt|tsv|xlsx|xls)$/)?.[1] ?? "bin";
  return `tenants/${tenantId}/connections/${randomUUID()}.${ext}`;
}

/** Step 1: create the connection, or change its name, credentials or file. */
export async function saveConnectionSettings(ctx: TenantContext, connectionId: string | null, input: ConnectionSettingsInput) {
  const integration = requireIntegration(input.integrationId);
  const existing = connectionId ? await getConnection(ctx, connectionId) : null;
  if (existing && existing.integrationId !== integration.id) throw new NotFoundError("Connection not found");
  const id = existing?.id ?? randomUUID();
  const { settings, secrets } = splitCredentials(integration, input.credentials, savedSecrets(existing));

  let file = existing?.fileKey ? { key: existing.fileKey, name: existing.fileName!, bytes: existing.fileBytes ?? 0 } : null;
  if (input.file) {
    assertTenantFileKey(ctx, input.file);
    file = input.file;
  }
  if (integration.source === "file" && !file) throw new ServiceError("Choose the export file to upload.", 400, "file");

  let parentConnectionId: string | null = null;
  if (input.parentConnectionId) {
    const candidates = await listParentCandidates(ctx, id);
    if (!candidates.some((c) => c.id === input.parentConnectionId))
      throw new ServiceError("Choose one of your connections.", 400, "parentConnectionId");
    parentConnectionId = input.parentConnectionId;
  }

  const now = clock(ctx);
  const fileChanged = Boolean(input.file) && input.file!.key !== existing?.fileKey;
  const values = {
    name: input.name.trim(),
    settings,
    credentialsSealed: Object.keys(secrets).length > 0 ? seal(secrets, id) : null,
    fileKey: file?.key ?? null,
    fileName: file?.name ?? null,
    fileBytes: file?.bytes ?? null,
    parentConnectionId,
    syncIntervalHours: input.syncIntervalHours ?? existing?.syncIntervalHours ?? 24,
    invalidCredentials: false,
    updatedAt: now,
  };
  // One transaction: the connection and its export's row in the files capability (with the
  // queued EDA) are saved together or not at all.
  const adoptedFrom = await ctx.db.transaction(async (tx) => {
    const fileId = fileChanged ? await recordExportFile({ ...ctx, db: tx } as TenantContext, input.file!) : undefined;
    if (existing) {
      await tx
        .update(connections)
        .set({
          ...values,
          ...(fileId ? { fileId } : {}),
          step: laterStep(existing.step, "CONNECTION_MAPPING"),
          status: existing.status === "error" || existing.status === "disconnected" ? "not_connected" : existing.status,
          lastError: null,
          disconnectedAt: null,
          // A new file may have other columns: the saved mapping stays, the wizard shows what no longer matches.
          ...(fileChanged ? { state: {} } : {}),
        })
        .where(and(eq(connections.id, id), eq(connections.tenantId, ctx.tenantId)));
      return null;
    }
    await tx.insert(connections).values({
      ...values,
      id,
      fileId: fileId ?? null,
      tenantId: ctx.tenantId,
      integrationId: integration.id,
      step: "CONNECTION_MAPPING",
      status: "not_connected",
      createdAt: now,
    });
    return adoptDisconnectedData(tx, ctx.tenantId, integration.id, id);
  });
  await recordAudit(ctx.db, {
    tenantId: ctx.tenantId,
    actorUserId: ctx.userId || null,
    action: existing ? "connection.updated" : "connection.created",
    subjectType: "connection",
    subjectId: id,
    details: { integrationId: integration.id, file: file?.name ?? null, ...(adoptedFrom ? { adoptedDataOf: adoptedFrom } : {}) },
  }).catch(() => {});
  return getConnection(ctx, id);
}

/**
 * An export uploaded in step 1 is also a file of the files capability: listed on /files, with
 * its EDA report like any other upload (the bytes are shared: the row points at the same key).
 */
async function recordExportFile(ctx: TenantContext, file: UploadedFile) {
  const extension = file.name.toLowerCase().endsWith(".xlsx") ? "xlsx" : "csv";
  const name = sanitizeFileName(file.name) || `export.${extension}`;
  const { id } = await createUploadedFile(ctx, { name, extension, size: file.bytes, domain: "policies", storageKey: file.key });
  return id;
}

/**
 * The same source connected again: a new connection takes over the imported data of the most
 * recently disconnected connection of the same integration (data kept at disconnect), so its
 * imports update those customers and policies instead of doubling them. Source keys are unique
 * per connection (docs/decisions/009-customer-source-keys.md). Returns the connection it came from.
 */
async function adoptDisconnectedData(tx: DbOrTx, tenantId: string, integrationId: string, connectionId: string) {
  const [previous] = await tx
    .select({ id: connections.id })
    .from(connections)
    .where(
      and(
        eq(connections.tenantId, tenantId),
        eq(connections.integrationId, integrationId as ConnectionRow["integrationId"]),
        eq(connections.status, "disconnected"),
        sql`${connections.id} <> ${connectionId}`,
        sql`exists (select 1 from ${customers} where ${customers.tenantId} = ${tenantId} and ${customers.connectionId} = ${connections.id})`,
      ),
    )
    .orderBy(desc(connections.disconnectedAt))
    .limit(1);
  if (!previous) return null;
  for (const table of [customers, policies, employeeAccounts]) {
    await tx
      .update(table)
      .set({ connectionId })
      .where(and(eq(table.tenantId, tenantId), eq(table.connectionId, previous.id)));
  }
  return previous.id;
}

/** "Test connection": try the entered (or saved) credentials or file without saving anything. */
export async function testConnectionSettings(
  ctx: TenantContext,
  connectionId: string | null,
  input: ConnectionSettingsInput,
): Promise<TestResult> {
  const integration = requireIntegration(input.integrationId);
  const existing = connectionId ? await getConnection(ctx, connectionId) : null;
  const { settings, secrets } = splitCredentials(integration, input.credentials, savedSecrets(existing));
  const id = existing?.id ?? randomUUID();
  const file = input.file ?? (existing?.fileKey ? { key: existing.fileKey, name: existing.fileName!, bytes: 0 } : null);
  if (input.file) assertTenantFileKey(ctx, input.file);
  if (integration.source === "file" && !file) return { ok: false, message: "Choose the export file first." };
  // A throw-away source: a failing test must not flag the saved connection as invalid.
  const connector = connectorFor(
    ctx.db,
    {
      id,
      tenantId: ctx.tenantId,
      integrationId: integration.id,
      name: input.name,
      credentialsSealed: Object.keys(secrets).length ? seal(secrets, id) : null,
      settings,
      fileKey: file?.key ?? null,
      fileName: file?.name ?? null,
    },
    {},
  );
  return connector.testCredentials();
}

/** The connector of a saved connection. */
export function connectorOf(ctx: Ctx, connection: ConnectionRow) {
  return connectorFor(ctx.db, connection);
}

async function advance(ctx: TenantContext, connection: ConnectionRow, to: Step, values: Partial<typeof connections.$inferInsert> = {}) {
  await ctx.db
    .update(connections)
    .set({ ...values, step: laterStep(connection.step, to), updatedAt: clock(ctx) })
    .where(and(eq(connections.id, connection.id), eq(connections.tenantId, ctx.tenantId)));
}

/** Step 2: the mapping (fields and value maps); also refreshes the people the tasks step offers. */
export async function saveMapping(
  ctx: TenantContext,
  connection: ConnectionRow,
  mapping: ConnectionMapping,
  people: { producers: string[]; csrs: string[] },
) {
  await ctx.db.transaction(async (tx) => {
    const txCtx = { ...ctx, db: tx } as unknown as TenantContext;
    await advance(txCtx, connection, "PREDICTION_SETTING", { mapping, state: dropDraft(connection.state, "mapping") });
    await upsertPeople(tx, ctx.tenantId, connection.id, people);
    await seedTaskOptions(tx, ctx.tenantId, connection.id);
  });
}

function dropDraft(state: Record<string, unknown>, key: string) {
  const next = { ...state };
  delete next[key];
  return next;
}

/** Producer and CSR names from the export become employee accounts (source key by name). */
export async function upsertPeople(
  db: TenantContext["db"] | Parameters<Parameters<TenantContext["db"]["transaction"]>[0]>[0],
  tenantId: string,
  connectionId: string,
  people: { producers: string[]; csrs: string[] },
) {
  const rows = [...people.producers.map((name) => ({ name, role: "producer" })), ...people.csrs.map((name) => ({ name, role: "csr" }))];
  const byKey = new Map(rows.map((r) => [employeeKey(r.name), r]));
  if (byKey.size === 0) return;
  await db
    .insert(employeeAccounts)
    .values([...byKey.entries()].map(([sourceKey, r]) => ({ tenantId, connectionId, sourceKey, name: r.name, role: r.role })))
    .onConflictDoNothing({ target: [employeeAccounts.tenantId, employeeAccounts.sourceKey] });
}

/** Employee accounts from export columns are keyed by the person's name. */
export function employeeKey(name: string) {
  return `emp:${name.trim().toLowerCase().replace(/\s+/g, " ")}`;
}

const DEFAULT_ACTIVITY_CODES = [
  { code: "RMKT", label: "Re-market renewal" },
  { code: "RENEW", label: "Renewal review" },
  { code: "CALL", label: "Call customer" },
];
const DEFAULT_WORK_GROUPS = [
  { code: "PL", label: "Personal lines" },
  { code: "CL", label: "Commercial lines" },
  { code: "RET", label: "Retention" },
];

async function seedTaskOptions(db: Parameters<typeof upsertPeople>[0], tenantId: string, connectionId: string) {
  const values = [
    ...DEFAULT_ACTIVITY_CODES.map((o) => ({ ...o, kind: "activity_code" as const })),
    ...DEFAULT_WORK_GROUPS.map((o) => ({ ...o, kind: "work_group" as const })),
  ].map((o) => ({ ...o, tenantId, connectionId }));
  const [existing] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(connectionTaskOptions)
    .where(and(eq(connectionTaskOptions.tenantId, tenantId), eq(connectionTaskOptions.connectionId, connectionId)));
  if (existing.n > 0) return;
  await db.insert(connectionTaskOptions).values(values).onConflictDoNothing();
}

/** Lists for the task-creation step: people, activity codes and work groups. */
export async function listTaskOptions(ctx: Ctx, connection: ConnectionRow) {
  const [people, options] = await Promise.all([
    ctx.db
      .select({
        id: employeeAccounts.id,
        name: employeeAccounts.name,
        email: employeeAccounts.email,
        role: employeeAccounts.role,
        sourceKey: employeeAccounts.sourceKey,
      })
      .from(employeeAccounts)
      .where(
        and(
          eq(employeeAccounts.tenantId, ctx.tenantId),
          or(eq(employeeAccounts.connectionId, connection.id), isNull(employeeAccounts.connectionId)),
        ),
      )
      .orderBy(employeeAccounts.name),
    ctx.db
      .select({
        id: connectionTaskOptions.id,
        kind: connectionTaskOptions.kind,
        code: connectionTaskOptions.code,
        label: connectionTaskOptions.label,
      })
      .from(connectionTaskOptions)
      .where(and(eq(connectionTaskOptions.tenantId, ctx.tenantId), eq(connectionTaskOptions.connectionId, connection.id)))
      .orderBy(connectionTaskOptions.code),
  ]);
  return {
    employees: people,
    activityCodes: options.filter((o) => o.kind === "activity_code"),
    workGroups: options.filter((o) => o.kind === "work_group"),
  };
}

/** The tasks step's lists are editable: add a person, an activity code or a work group. */
export async function addTaskOption(
  ctx: TenantContext,
  connection: ConnectionRow,
  input: { kind: "employee" | "activity_code" | "work_group"; code: string; label: string; email?: string | null },
) {
  if (input.kind === "employee") {
    await ctx.db
      .insert(employeeAccounts)
      .values({
        tenantId: ctx.tenantId,
        connectionId: connection.id,
        sourceKey: employeeKey(input.label),
        name: input.label.trim(),
        email: input.email || null,
        role: "manual",
      })
      .onConflictDoNothing({ target: [employeeAccounts.tenantId, employeeAccounts.sourceKey] });
    return;
  }
  await ctx.db
    .insert(connectionTaskOptions)
    .values({
      tenantId: ctx.tenantId,
      connectionId: connection.id,
      kind: input.kind,
      code: input.code.trim(),
      label: input.label.trim() || input.code.trim(),
    })
    .onConflictDoUpdate({
      target: [connectionTaskOptions.connectionId, connectionTaskOptions.kind, connectionTaskOptions.code],
      set: { label: input.label.trim() || input.code.trim() },
    });
}

export async function removeTaskOption(
  ctx: TenantContext,
  connection: ConnectionRow,
  input: { kind: "employee" | "activity_code" | "work_group"; id: string },
) {
  if (!UUID.test(input.id)) throw new NotFoundError();
  if (input.kind === "employee") {
    await ctx.db
      .delete(employeeAccounts)
      .where(
        and(
          eq(employeeAccounts.id, input.id),
          eq(employeeAccounts.tenantId, ctx.tenantId),
          eq(employeeAccounts.connectionId, connection.id),
        ),
      );
    return;
  }
  await ctx.db
    .delete(connectionTaskOptions)
    .where(
      and(
        eq(connectionTaskOptions.id, input.id),
        eq(connectionTaskOptions.tenantId, ctx.tenantId),
        eq(connectionTaskOptions.connectionId, connection.id),
      ),
    );
}

/** Steps 3 and 4 only move the wizard on; their data lives in the settings contracts. */
export async function markStepSaved(ctx: TenantContext, connection: ConnectionRow, next: Step) {
  await advance(ctx, connection, next);
}

/** Step 5: the filter options (the unticked values), which completes the setup. */
export async function saveFilters(ctx: TenantContext, connection: ConnectionRow, filters: ConnectionFilters) {
  await advance(ctx, connection, "COMPLETED", { filters, state: dropDraft(connection.state, "filters") });
}

/** Seed connections/state/save: keep a step's unsaved form so a closed tab resumes it. */
export async function saveConnectionState(ctx: Ctx, connection: ConnectionRow, key: string, draft: unknown) {
  if (!/^[a-z]{1,20}$/.test(key)) throw new ServiceError("Unknown state key");
  await ctx.db
    .update(connections)
    .set({ state: sql`${connections.state} || ${JSON.stringify({ [key]: draft })}::jsonb` })
    .where(and(eq(connections.id, connection.id), eq(connections.tenantId, ctx.tenantId)));
}

/** Seed connections/state/get. */
export async function getConnectionState(ctx: Ctx, connectionId: string) {
  const connection = await getConnection(ctx, connectionId);
  return { step: connection.step, state: connection.state };
}

/**
 * Seed disconnect and disconnect/sub-connection: the connection (and its sub-connections) stop
 * syncing and forget their credentials; imported data stays unless `deleteData`.
 */
export async function disconnectConnection(
  ctx: TenantContext,
  connectionId: string,
  options: { deleteData: boolean; subConnectionOnly?: boolean },
) {
  const connection = await getConnection(ctx, connectionId);
  if (options.subConnectionOnly && !connection.parentConnectionId) throw new NotFoundError("Sub-connection not found");
  const subs = options.subConnectionOnly
    ? []
    : await ctx.db
        .select({ id: connections.id })
        .from(connections)
        .where(and(eq(connections.tenantId, ctx.tenantId), eq(connections.parentConnectionId, connection.id)));
  const ids = [connection.id, ...subs.map((s) => s.id)];
  const now = clock(ctx);
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(connections)
      .set({ status: "disconnected", credentialsSealed: null, disconnectedAt: now, updatedAt: now })
      .where(and(eq(connections.tenantId, ctx.tenantId), inArray(connections.id, ids)));
    await tx
      .update(importRuns)
      .set({ status: "failed", error: "Disconnected", finishedAt: now })
      .where(
        and(
          eq(importRuns.tenantId, ctx.tenantId),
          inArray(importRuns.connectionId, ids),
          inArray(importRuns.status, ["queued", "running"]),
        ),
      );
    if (options.deleteData) {
      await tx.delete(policies).where(and(eq(policies.tenantId, ctx.tenantId), inArray(policies.connectionId, ids)));
      await tx.delete(customers).where(
        and(
          eq(customers.tenantId, ctx.tenantId),
          inArray(customers.connectionId, ids),
          notExists(
            tx
              .select({ one: sql`1` })
              .from(policies)
              .where(and(eq(policies.tenantId, ctx.tenantId), eq(policies.customerId, customers.id))),
          ),
        ),
      );
      await tx
        .delete(employeeAccounts)
        .where(and(eq(employeeAccounts.tenantId, ctx.tenantId), inArray(employeeAccounts.connectionId, ids)));
      // The forecast, its month totals, filter options and customer counts were of the book as it was.
      await enqueueForecastRecompute(tx, ctx.tenantId);
    }
  });
  await recordAudit(ctx.db, {
    tenantId: ctx.tenantId,
    actorUserId: ctx.userId || null,
    action: "connection.disconnected",
    subjectType: "connection",
    subjectId: connection.id,
    details: { deleteData: options.deleteData, subConnections: subs.length },
  }).catch(() => {});
  return connection;
}

/** The newest notification about a connection (its page shows it; the bell lists them all). */
export async function latestConnectionNotification(ctx: Ctx, connectionId: string) {
  const [row] = await ctx.db
    .select({ title: notifications.title, message: notifications.message, createdAt: notifications.createdAt })
    .from(notifications)
    .where(and(eq(notifications.tenantId, ctx.tenantId), eq(notifications.link, `/connect-database/${connectionId}`)))
    .orderBy(desc(notifications.createdAt))
    .limit(1);
  return row ?? null;
}

/** Sub-connections (CRMs attached to this connection). */
export async function listSubConnections(ctx: Ctx, connectionId: string) {
  return ctx.db
    .select({ id: connections.id, name: connections.name, integrationId: connections.integrationId, status: connections.status })
    .from(connections)
    .where(and(eq(connections.tenantId, ctx.tenantId), eq(connections.parentConnectionId, connectionId)));
}
