import { boolean, date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenants, users } from "./identity";

const tz = (name: string) => timestamp(name, { withTimezone: true });

export const SUBSCRIPTION_STATUSES = ["trialing", "active", "past_due", "canceled", "unpaid"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * Seed §3 billing state, one row per tenant. The trial lives on the account (it starts with the
 * tenant); the subscription columns are null until one exists (seed: subscription nullable).
 * `*_synced_at` hold the provider timestamp of the state written last, so an older webhook
 * arriving late never overwrites newer state.
 */
export const billingAccounts = pgTable("billing_accounts", {
  tenantId: uuid("tenant_id")
    .primaryKey()
    .references(() => tenants.id, { onDelete: "cascade" }),
  trialEndsAt: tz("trial_ends_at").notNull(),
  trialPeriodOver: boolean("trial_period_over").notNull().default(false),
  trialReminderSentAt: tz("trial_reminder_sent_at"),
  hasPaymentMethod: boolean("has_payment_method").notNull().default(false),
  /** Staff override of the plan's yearly quota (null: the plan's or the trial's). */
  annualQuotaOverride: integer("annual_quota_override"),
  stripeCustomerId: text("stripe_customer_id").unique(),
  subscriptionId: text("subscription_id"),
  subscriptionStatus: text("subscription_status", { enum: SUBSCRIPTION_STATUSES }),
  plan: text("plan"),
  currentPeriodEnd: tz("current_period_end"),
  subscriptionTrialEnd: tz("subscription_trial_end"),
  pastDueSince: tz("past_due_since"),
  subscriptionSyncedAt: tz("subscription_synced_at"),
  createdAt: tz("created_at").notNull().defaultNow(),
  updatedAt: tz("updated_at").notNull().defaultNow(),
});

/** Seed §3 payment methods list. Detached cards stay as tombstones so a late "attached" cannot revive them. */
export const billingPaymentMethods = pgTable(
  "billing_payment_methods",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    providerId: text("provider_id").notNull(),
    brand: text("brand").notNull(),
    last4: text("last4").notNull(),
    expMonth: integer("exp_month"),
    expYear: integer("exp_year"),
    detachedAt: tz("detached_at"),
    syncedAt: tz("synced_at").notNull(),
    createdAt: tz("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("billing_payment_methods_provider_unique").on(t.providerId),
    index("billing_payment_methods_tenant_idx").on(t.tenantId),
  ],
);

/** Seed §3 currentYearUsage: one counter per tenant and quota year (calendar year in the tenant's time zone). */
export const remarketUsage = pgTable(
  "remarket_usage",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    quotaYear: integer("quota_year").notNull(),
    used: integer("used").notNull().default(0),
    updatedAt: tz("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.quotaYear] })],
);

/** Every use, with its time and the tenant's local date, for the monthly usage chart (seed monthly-usage). */
export const remarketUsageEvents = pgTable(
  "remarket_usage_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    quotaYear: integer("quota_year").notNull(),
    localDate: date("local_date", { mode: "string" }).notNull(),
    usedAt: tz("used_at").notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    reference: text("reference"),
  },
  (t) => [index("remarket_usage_events_tenant_date_idx").on(t.tenantId, t.localDate)],
);

/** Stripe event ids already applied: a replayed delivery is acknowledged and ignored. */
export const stripeEvents = pgTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  tenantId: uuid("tenant_id").references(() => tenants.id, { onDelete: "set null" }),
  outcome: text("outcome").notNull(),
  createdAt: tz("created_at").notNull(),
  receivedAt: tz("received_at").notNull().defaultNow(),
});
