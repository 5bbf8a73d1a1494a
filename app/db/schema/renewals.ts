import { sql } from "drizzle-orm";
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { carriers, customers, policies } from "./book";
import { tenants, users } from "./identity";

// Renewals: the forecast, the re-marketing worklist, re-markets, quotes, tasks, the agency's
// carriers and the bulk-action log. Book rows (customers, policies) come from book.ts.

const money = (name: string) => numeric(name, { precision: 12, scale: 2, mode: "number" });
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const tenantId = () =>
  uuid("tenant_id")
    .notNull()
    .references(() => tenants.id, { onDelete: "cascade" });

/** Catalogue: which lines of business a carrier writes (seeded, shared by all tenants). */
export const carrierLines = pgTable(
  "carrier_lines",
  {
    carrierId: uuid("carrier_id")
      .notNull()
      .references(() => carriers.id, { onDelete: "cascade" }),
    lineOfBusiness: text("line_of_business").notNull(),
  },
  (t) => [primaryKey({ columns: [t.carrierId, t.lineOfBusiness] })],
);

/** Catalogue: which states a carrier writes in (seeded, shared by all tenants). */
export const carrierStates = pgTable(
  "carrier_states",
  {
    carrierId: uuid("carrier_id")
      .notNull()
      .references(() => carriers.id, { onDelete: "cascade" }),
    state: text("state").notNull(),
  },
  (t) => [primaryKey({ columns: [t.carrierId, t.state] }), index("carrier_states_state_idx").on(t.state)],
);

/** The agency's own carriers: appointment numbers and (encrypted) portal credentials. */
export const tenantCarriers = pgTable(
  "tenant_carriers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantId(),
    carrierId: uuid("carrier_id")
      .notNull()
      .references(() => carriers.id, { onDelete: "cascade" }),
    agencyCode: text("agency_code"),
    producerCode: text("producer_code"),
    portalUsername: text("portal_username"),
    /** AES-256-GCM sealed secret (utils/secret-box.server.ts); never sent to the browser. */
    portalSecret: text("portal_secret"),
    credentialsInvalid: boolean("credentials_invalid").notNull().default(false),
    credentialsCheckedAt: timestamp("credentials_checked_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("tenant_carriers_unique").on(t.tenantId, t.carrierId)],
);

/** The last forecast computation of a tenant (what the pages show as "computed at"). */
export const forecastRuns = pgTable("forecast_runs", {
  tenantId: uuid("tenant_id")
    .primaryKey()
    .references(() => tenants.id, { onDelete: "cascade" }),
  computedAt: timestamp("computed_at", { withTimezone: true }).notNull(),
  evaluated: integer("evaluated").notNull(),
  flagged: integer("flagged").notNull(),
  durationMs: integer("duration_ms").notNull(),
  /** Distinct values of the worklist filters, kept here so the worklist never scans for them. */
  filterOptions: jsonb("filter_options").$type<WorklistFilterOptions>().notNull(),
  /** Milliseconds per phase of the computation (read and evaluate, write, per-customer cap, flags). */
  phases: jsonb("phases").$type<Record<string, number>>(),
  /**
   * Renewals, premium and flags per month of the window, written by the computation in the same
   * transaction as the forecast rows it sums (nothing else writes those), so /forecast's summary
   * and its page count never aggregate the window. Null: computed before this column existed.
   */
  monthly: jsonb("monthly").$type<ForecastMonthTotals[]>(),
  /**
   * The book's customers and those with an active policy, counted by the computation that follows
   * every import and disconnection, so /customers never counts a large book on a page load.
   * Null: computed before this column existed.
   */
  customerCounts: jsonb("customer_counts").$type<BookCustomerCounts>(),
  /**
   * The catalogue carriers of the book's active policies, kept by the same computation, so
   * /carriers can point out those the agency has not added without scanning the book.
   * Null: computed before this column existed.
   */
  bookCarrierIds: jsonb("book_carrier_ids").$type<string[]>(),
});

export type BookCustomerCounts = { total: number; active: number };

export type ForecastMonthTotals = { month: string; renewals: number; premium: number; renewalPremium: number; flagged: number };

export type WorklistFilterOptions = { carriers: string[]; lines: string[]; producers: string[]; states: string[] };

/** One row per renewal in the window: the computed forecast (rewritten by each computation). */
export const renewalForecasts = pgTable(
  "renewal_forecasts",
  {
    tenantId: tenantId(),
    // No foreign key to policies: a million-row table rewritten by every computation, and a
    // deleted policy's row is invisible anyway (reads join policies) until the next computation.
    policyId: uuid("policy_id").notNull(),
    customerId: uuid("customer_id").notNull(),
    /** The policy's line of business (the what-if applies per forecast object without a join). */
    lineOfBusiness: text("line_of_business").notNull().default(""),
    expirationDate: date("expiration_date", { mode: "string" }).notNull(),
    priorPremium: money("prior_premium"),
    currentPremium: money("current_premium"),
    renewalPremium: money("renewal_premium"),
    /** True when the renewal premium is our prediction, not the carrier's offer. */
    predicted: boolean("predicted").notNull().default(false),
    predictionLevel: text("prediction_level"),
    predictionSample: integer("prediction_sample"),
    predictionRate: numeric("prediction_rate", { precision: 9, scale: 6, mode: "number" }),
    changePct: numeric("change_pct", { precision: 9, scale: 2, mode: "number" }),
    changeAmount: money("change_amount"),
    /** Inside the window of its line's forecast preference (rows up to 12 months ahead are kept for the what-if). */
    inWindow: boolean("in_window").notNull().default(true),
    flagged: boolean("flagged").notNull().default(false),
    /** Why a renewal over the threshold was not flagged (first term, zero premium, frequency cap…). */
    exclusion: text("exclusion"),
    /** Passes the rules that do not depend on thresholds or timing (the what-if counts these). */
    eligible: boolean("eligible").notNull().default(false),
    why: jsonb("why").$type<FlagWhy>(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.policyId] }), index("renewal_forecasts_expiration_idx").on(t.tenantId, t.expirationDate)],
);

export const FLAG_STATUSES = ["open", "remarketed", "dismissed", "snoozed"] as const;
export type FlagStatus = (typeof FLAG_STATUSES)[number];

/** Why a renewal was flagged, kept for errors-and-omissions defence. */
export type FlagWhy = {
  ruleVersion: string;
  forecastObjectId: string;
  thresholdPct: number;
  thresholdAmount: number | null;
  actDaysBeforeExpiration: number;
  triggered: ("pct" | "amount")[];
  compared: {
    currentPremium: number;
    renewalPremium: number;
    predicted: boolean;
    predictionLevel: string | null;
    predictionSample: number | null;
    changePct: number;
    changeAmount: number;
    daysToExpiry: number;
  };
};

/**
 * The worklist: one row per flagged renewal. Display columns are copied from the book so the
 * first page with filters is one index scan (see bench/worklist.js).
 */
export const renewalFlags = pgTable(
  "renewal_flags",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantId(),
    policyId: uuid("policy_id")
      .notNull()
      .references(() => policies.id, { onDelete: "cascade" }),
    customerId: uuid("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    customerName: text("customer_name").notNull(),
    policyNumber: text("policy_number").notNull(),
    lineOfBusiness: text("line_of_business").notNull(),
    carrierName: text("carrier_name").notNull(),
    riskState: text("risk_state"),
    producer: text("producer"),
    expirationDate: date("expiration_date", { mode: "string" }).notNull(),
    priorPremium: money("prior_premium"),
    currentPremium: money("current_premium").notNull(),
    renewalPremium: money("renewal_premium").notNull(),
    predicted: boolean("predicted").notNull(),
    changePct: numeric("change_pct", { precision: 9, scale: 2, mode: "number" }).notNull(),
    changeAmount: money("change_amount").notNull(),
    status: text("status", { enum: FLAG_STATUSES }).notNull().default("open"),
    ruleVersion: text("rule_version").notNull(),
    why: jsonb("why").$type<FlagWhy>().notNull(),
    dismissReason: text("dismiss_reason"),
    snoozedUntil: date("snoozed_until", { mode: "string" }),
    statusChangedAt: timestamp("status_changed_at", { withTimezone: true }),
    statusChangedBy: uuid("status_changed_by").references(() => users.id, { onDelete: "set null" }),
    flaggedAt: timestamp("flagged_at", { withTimezone: true }).notNull().defaultNow(),
    evaluatedAt: timestamp("evaluated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Foreign-key columns lead their index so deleting a tenant, customer or policy never scans.
    uniqueIndex("renewal_flags_policy_unique").on(t.policyId, t.tenantId),
    // The worklist: rows in expiry order, and the filter columns as index keys so every filter
    // combination is checked inside the index (the heap is read only for the 25 rows shown, and
    // the capped count is an index-only scan).
    index("renewal_flags_worklist_idx").on(
      t.tenantId,
      t.status,
      t.expirationDate,
      t.id,
      t.carrierName,
      t.lineOfBusiness,
      t.producer,
      t.riskState,
    ),
    // The most common filter pair: carrier and line narrow the range itself (page and count).
    index("renewal_flags_carrier_line_idx").on(t.tenantId, t.status, t.carrierName, t.lineOfBusiness, t.expirationDate, t.id),
    index("renewal_flags_customer_idx").on(t.customerId, t.tenantId),
    // The dashboard's "flagged this week" and the week before: an index-only count of a two-week range.
    index("renewal_flags_tenant_flagged_idx").on(t.tenantId, t.flaggedAt),
  ],
);

export const REMARKET_OUTCOMES = ["rewritten", "renewed", "lost"] as const;
export const SAVINGS_BASES = ["offer", "current"] as const;
export type SavingsBasis = (typeof SAVINGS_BASES)[number];
export type RemarketOutcome = (typeof REMARKET_OUTCOMES)[number];

/** A policy being re-marketed: one unit of the year's quota (seed policies/remarket). */
export const remarkets = pgTable(
  "remarkets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantId(),
    policyId: uuid("policy_id")
      .notNull()
      .references(() => policies.id, { onDelete: "cascade" }),
    customerId: uuid("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    flagId: uuid("flag_id"),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    quotaYear: integer("quota_year").notNull(),
    remarketedAt: timestamp("remarketed_at", { withTimezone: true }).notNull(),
    /** The renewal premium known when re-marketed (the offer, or our prediction): context only, never a savings basis. */
    baselinePremium: money("baseline_premium"),
    /** The incumbent's actual renewal offer: imported with the policy, or typed on the quote page. */
    incumbentOffer: money("incumbent_offer"),
    incumbentCarrierName: text("incumbent_carrier_name").notNull(),
    status: text("status", { enum: ["open", "closed"] })
      .notNull()
      .default("open"),
    outcome: text("outcome", { enum: REMARKET_OUTCOMES }),
    selectedQuoteId: uuid("selected_quote_id"),
    boundPremium: money("bound_premium"),
    /** Positive: the customer pays less; negative: more. Measured against `savingsBasis`. */
    premiumSaved: money("premium_saved"),
    /** What `premiumSaved` is measured against: the incumbent's offer, or the expiring (current) premium. */
    savingsBasis: text("savings_basis", { enum: SAVINGS_BASES }),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    closedBy: uuid("closed_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    // A resubmitted form (or two people at once) can never re-market one policy term twice.
    uniqueIndex("remarkets_policy_unique").on(t.policyId, t.tenantId),
    index("remarkets_tenant_time_idx").on(t.tenantId, t.remarketedAt),
    index("remarkets_customer_idx").on(t.customerId, t.remarketedAt),
  ],
);

/** Quotes gathered for a re-marketed policy (seed qoutes/…). */
export const quotes = pgTable(
  "quotes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantId(),
    remarketId: uuid("remarket_id")
      .notNull()
      .references(() => remarkets.id, { onDelete: "cascade" }),
    policyId: uuid("policy_id")
      .notNull()
      .references(() => policies.id, { onDelete: "cascade" }),
    carrierId: uuid("carrier_id").references(() => carriers.id, { onDelete: "set null" }),
    carrierName: text("carrier_name").notNull(),
    premium: money("premium").notNull(),
    effectiveDate: date("effective_date", { mode: "string" }).notNull(),
    coverageNotes: text("coverage_notes"),
    selected: boolean("selected").notNull().default(false),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("quotes_remarket_idx").on(t.remarketId), index("quotes_policy_idx").on(t.policyId)],
);

/** The follow-up a re-market creates for the assigned employee (task-creation settings). */
export const tasks = pgTable(
  "tasks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantId(),
    remarketId: uuid("remarket_id").references(() => remarkets.id, { onDelete: "cascade" }),
    policyId: uuid("policy_id").references(() => policies.id, { onDelete: "cascade" }),
    customerId: uuid("customer_id").references(() => customers.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    assignee: text("assignee"),
    employeeAccountId: uuid("employee_account_id"),
    activityCode: text("activity_code"),
    workGroup: text("work_group"),
    dueDate: date("due_date", { mode: "string" }).notNull(),
    status: text("status", { enum: ["open", "done"] })
      .notNull()
      .default("open"),
    /**
     * none: no connector to write to (CSV export instead); queued: the write-back job is on its
     * way; done: in the AMS/CRM (writebackExternalId); failed: gave up (writebackError); skipped: legacy.
     */
    writeback: text("writeback", { enum: ["none", "queued", "done", "failed", "skipped"] })
      .notNull()
      .default("none"),
    writebackExternalId: text("writeback_external_id"),
    writebackError: text("writeback_error"),
    writebackAt: timestamp("writeback_at", { withTimezone: true }),
    createdAt: createdAt(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("tasks_remarket_unique").on(t.remarketId),
    index("tasks_tenant_status_idx").on(t.tenantId, t.status, t.dueDate),
    index("tasks_policy_idx").on(t.policyId),
    index("tasks_customer_idx").on(t.customerId),
  ],
);

export type BulkFailure = { id: string; label: string; reason: string };

/** Every bulk worklist action: who, when, how many, which failed and why. */
export const bulkActions = pgTable(
  "bulk_actions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantId(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action", { enum: ["remarket", "dismiss", "snooze"] }).notNull(),
    requested: integer("requested").notNull(),
    succeeded: integer("succeeded").notNull(),
    failures: jsonb("failures")
      .$type<BulkFailure[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    details: text("details"),
    createdAt: createdAt(),
  },
  (t) => [index("bulk_actions_tenant_idx").on(t.tenantId, t.createdAt)],
);
