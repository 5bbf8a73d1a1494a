import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { files } from "./files";
import { tenants } from "./identity";

// Connections to agency management systems / CRMs / exports, the wizard's saved state, and the
// import runs (ETL) with their rejected rows. The imported data itself lives in book.ts.

export const INTEGRATION_IDS = ["ezlynx", "appliedepic", "qqcatalyst", "hawksoft", "salesforce", "csv"] as const;
export type IntegrationId = (typeof INTEGRATION_IDS)[number];

/** Seed §3 integration setup steps, in order. */
export const SETUP_STEPS = [
  "NOT_SET",
  "CONNECTION_SETTING",
  "CONNECTION_MAPPING",
  "PREDICTION_SETTING",
  "TASK_CREATION",
  "FILTER_OPTIONS",
  "COMPLETED",
] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

export const CONNECTION_STATUSES = ["not_connected", "connected", "syncing", "error", "disconnected"] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

/** Canonical field → source attribute, plus value maps for coded fields. */
export type ConnectionMapping = {
  object: string;
  fields: Record<string, string>;
  valueMaps: { lineOfBusiness: Record<string, string>; status: Record<string, string> };
  preset?: string | null;
  /**
   * Rows sharing a customer key that name different insureds: one customer per key and insured
   * name ("per-name"), or one per key with its newest row's details ("newest", the default).
   */
  identityRule?: "newest" | "per-name";
};

export const FILTER_DIMENSIONS = ["linesOfBusiness", "states", "carriers", "statuses"] as const;
export type FilterDimension = (typeof FILTER_DIMENSIONS)[number];

/**
 * The filter-options step: the values the admin unticked, per dimension. Only ticked values
 * are imported; storing the unticked ones means a value first seen in a later sync is not
 * silently dropped.
 */
export type ConnectionFilters = { excluded: Record<FilterDimension, string[]> };

export const connections = pgTable(
  "connections",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    integrationId: text("integration_id", { enum: INTEGRATION_IDS }).notNull(),
    name: text("name").notNull(),
    status: text("status", { enum: CONNECTION_STATUSES }).notNull().default("not_connected"),
    /** The step the wizard is at: every step before it is saved. */
    step: text("step", { enum: SETUP_STEPS }).notNull().default("CONNECTION_SETTING"),
    /** A CRM attached to an AMS connection (seed disconnect/sub-connection). */
    parentConnectionId: uuid("parent_connection_id").references((): AnyPgColumn => connections.id, {
      onDelete: "set null",
    }),
    /** AES-256-GCM sealed JSON of the secret credential fields; never sent to the browser. */
    credentialsSealed: text("credentials_sealed"),
    /** Non-secret settings (instance URL, login URL, user name) shown back in the form. */
    settings: jsonb("settings").$type<Record<string, string>>().notNull().default({}),
    /** File integrations: the uploaded export in file storage (tenant-scoped generated key). */
    fileKey: text("file_key"),
    fileName: text("file_name"),
    fileBytes: integer("file_bytes"),
    /** The export's row in the files capability (on /files, with its EDA report). */
    fileId: uuid("file_id").references(() => files.id, { onDelete: "set null" }),
    mapping: jsonb("mapping").$type<ConnectionMapping>(),
    filters: jsonb("filters").$type<ConnectionFilters>(),
    /** Seed connections/state/save|get: drafts per step, so a closed tab resumes where it was. */
    state: jsonb("state").$type<Record<string, unknown>>().notNull().default({}),
    syncIntervalHours: integer("sync_interval_hours").notNull().default(24),
    /** Share of rejected rows above which an import fails as a whole (0.2 = 20 %). */
    maxRejectedShare: numeric("max_rejected_share", { precision: 4, scale: 3, mode: "number" }).notNull().default(0.2),
    invalidCredentials: boolean("invalid_credentials").notNull().default(false),
    lastError: text("last_error"),
    lastSyncAt: timestamp("last_sync_at", { withTimezone: true }),
    lastDurationMs: integer("last_duration_ms"),
    recordsImported: integer("records_imported").notNull().default(0),
    disconnectedAt: timestamp("disconnected_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("connections_tenant_idx").on(t.tenantId, t.createdAt)],
);

export const IMPORT_RUN_STATUSES = ["queued", "running", "succeeded", "failed"] as const;

/** One import (seed start-etl). Counters and the checkpoint commit with each batch. */
export const importRuns = pgTable(
  "import_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    connectionId: uuid("connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    trigger: text("trigger", { enum: ["manual", "schedule"] })
      .notNull()
      .default("manual"),
    status: text("status", { enum: IMPORT_RUN_STATUSES }).notNull().default("queued"),
    rowsTotal: integer("rows_total"),
    rowsRead: integer("rows_read").notNull().default(0),
    rowsImported: integer("rows_imported").notNull().default(0),
    rowsRejected: integer("rows_rejected").notNull().default(0),
    /** Valid rows left out by the filter options. */
    rowsFiltered: integer("rows_filtered").notNull().default(0),
    /** Who runs it now: a runner that finds another id here has been replaced and stops. */
    runnerId: text("runner_id"),
    /** Source rows fully committed: a restarted job skips them. */
    checkpoint: integer("checkpoint").notNull().default(0),
    customersCount: integer("customers_count"),
    policiesCount: integer("policies_count"),
    durationMs: integer("duration_ms"),
    error: text("error"),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("import_runs_connection_idx").on(t.tenantId, t.connectionId, t.createdAt),
    // At most one unfinished import per connection.
    uniqueIndex("import_runs_one_active")
      .on(t.connectionId)
      .where(sql`${t.status} in ('queued', 'running')`),
  ],
);

/** Rows that failed validation, with reasons; downloadable as CSV. */
export const importRejections = pgTable(
  "import_rejections",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    runId: uuid("run_id")
      .notNull()
      .references(() => importRuns.id, { onDelete: "cascade" }),
    rowNumber: integer("row_number").notNull(),
    reasons: jsonb("reasons").$type<string[]>().notNull(),
    /** The source row as [column, value] pairs (jsonb keeps array order, not object key order). */
    raw: jsonb("raw").$type<[string, string][]>().notNull(),
  },
  (t) => [uniqueIndex("import_rejections_row_unique").on(t.runId, t.rowNumber)],
);

/** Activity codes and work groups offered by the task-creation step (from the connector, editable). */
export const connectionTaskOptions = pgTable(
  "connection_task_options",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    connectionId: uuid("connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["activity_code", "work_group"] }).notNull(),
    code: text("code").notNull(),
    label: text("label").notNull(),
  },
  (t) => [uniqueIndex("connection_task_options_unique").on(t.connectionId, t.kind, t.code)],
);
