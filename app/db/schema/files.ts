import { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import type { EdaReport } from "~/services/files/eda/types";
import { tenants, users } from "./identity";
import { jobs } from "./platform";
import { DATE_FORMATS, DELIMITERS, ENCODINGS, FILE_DOMAINS, FILE_EXTENSIONS, FILE_STATUSES } from "../../utils/file-options";

export { FILE_DOMAINS, FILE_EXTENSIONS, FILE_STATUSES } from "../../utils/file-options";
export type { FileDomain, FileExtension, FileStatus } from "../../utils/file-options";

export type FileMetadata = {
  pages?: number | null;
  title?: string | null;
  author?: string | null;
  words?: number | null;
  version?: string | null;
};

/** One uploaded file. The bytes live in storage under `storageKey`, never under the user's name. */
export const files = pgTable(
  "files",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    uploadedBy: uuid("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    /** The sanitized display name (path separators and control characters removed). */
    name: text("name").notNull(),
    extension: text("extension", { enum: FILE_EXTENSIONS }).notNull(),
    contentType: text("content_type").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    domain: text("domain", { enum: FILE_DOMAINS }).notNull().default("other"),
    storageKey: text("storage_key").notNull().unique(),
    status: text("status", { enum: FILE_STATUSES }).notNull().default("Uploaded"),
    failureReason: text("failure_reason"),
    jobId: uuid("job_id").references(() => jobs.id, { onDelete: "set null" }),
    metadata: jsonb("metadata").$type<FileMetadata>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("files_tenant_created_idx").on(t.tenantId, t.createdAt), index("files_tenant_name_idx").on(t.tenantId, t.name)],
);

/** Every status transition with its time (the file's history). */
export const fileEvents = pgTable(
  "file_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    fileId: uuid("file_id")
      .notNull()
      .references(() => files.id, { onDelete: "cascade" }),
    status: text("status", { enum: FILE_STATUSES }).notNull(),
    message: text("message"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("file_events_file_idx").on(t.fileId, t.createdAt)],
);

/** The EDA report of a tabular file: one per file, replaced if the file is processed again. */
export const fileReports = pgTable("file_reports", {
  fileId: uuid("file_id")
    .primaryKey()
    .references(() => files.id, { onDelete: "cascade" }),
  tenantId: uuid("tenant_id")
    .notNull()
    .references(() => tenants.id, { onDelete: "cascade" }),
  report: jsonb("report").$type<EdaReport>().notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Parse options per tenant and data domain (seed files/config), used by processing. */
export const fileDomainConfigs = pgTable(
  "file_domain_configs",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    domain: text("domain", { enum: FILE_DOMAINS }).notNull(),
    delimiter: text("delimiter", { enum: DELIMITERS }).notNull().default("auto"),
    /** 1-based row holding the column names; rows above it are skipped. 0: no header row. */
    headerRow: integer("header_row").notNull().default(1),
    dateFormat: text("date_format", { enum: DATE_FORMATS }).notNull().default("auto"),
    encoding: text("encoding", { enum: ENCODINGS }).notNull().default("auto"),
    updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.domain] })],
);
