import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants, users } from "./identity";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

/** Fixed-window counters shared by every app instance (login, code entry). */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  count: integer("count").notNull(),
});

/** One row per one-time form token: the first outcome is replayed to any resubmission. */
export const idempotencyKeys = pgTable("idempotency_keys", {
  key: text("key").primaryKey(),
  status: text("status", { enum: ["pending", "done"] }).notNull(),
  response: jsonb("response").$type<StoredOutcome>(),
  createdAt: createdAt(),
});

export type StoredOutcome = { kind: "redirect"; status: number; location: string } | { kind: "json"; status: number; body: unknown };

export const featureFlagOverrides = pgTable(
  "feature_flag_overrides",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    flag: text("flag").notNull(),
    enabled: boolean("enabled").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.flag] })],
);

/** Mail written here when SMTP is not configured; read by the dev outbox page. */
export const outboxEmails = pgTable("outbox_emails", {
  id: uuid("id").primaryKey().defaultRandom(),
  to: text("to").notNull(),
  subject: text("subject").notNull(),
  text: text("text").notNull(),
  createdAt: createdAt(),
});

/** Who did what, when: shared by every domain (customers, billing, staff actions). */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").references(() => tenants.id, { onDelete: "cascade" }),
    actorUserId: uuid("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    subjectType: text("subject_type"),
    subjectId: text("subject_id"),
    details: jsonb("details").$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_events_subject_idx").on(t.tenantId, t.subjectType, t.subjectId),
    // The dashboard's recent activity: an agency's latest events, read newest first from the index.
    index("audit_events_tenant_time_idx").on(t.tenantId, t.createdAt),
  ],
);

/** The durable job queue: claimed with FOR UPDATE SKIP LOCKED, leased, retried with back-off. */
export const jobs = pgTable(
  "jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").references(() => tenants.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    status: text("status", { enum: ["queued", "running", "succeeded", "failed"] })
      .notNull()
      .default("queued"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(5),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    lockedBy: text("locked_by"),
    lastError: text("last_error"),
    progress: jsonb("progress").$type<Record<string, unknown>>(),
    dedupeKey: text("dedupe_key").unique(),
    createdAt: createdAt(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("jobs_ready_idx")
      .on(t.runAt)
      .where(sql`${t.status} in ('queued', 'running')`),
    index("jobs_tenant_idx").on(t.tenantId, t.type),
  ],
);
