import { boolean, integer, numeric, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./identity";

/**
 * Forecast preferences per tenant and forecast object (seed forecast-preferences/{forecast_object_id}):
 * 'all' or a line of business code. Set in the wizard's prediction step and on /forecast.
 */
export const forecastPreferences = pgTable(
  "forecast_preferences",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    forecastObjectId: text("forecast_object_id").notNull(),
    /** Seed §5 period code: '6m' or 'yr'. */
    window: text("window", { enum: ["6m", "yr"] })
      .notNull()
      .default("yr"),
    thresholdPct: numeric("threshold_pct", { precision: 6, scale: 2, mode: "number" }).notNull().default(10),
    thresholdAmount: numeric("threshold_amount", { precision: 12, scale: 2, mode: "number" }),
    actDaysBeforeExpiration: integer("act_days_before_expiration").notNull().default(60),
    excludeFirstTerm: boolean("exclude_first_term").notNull().default(true),
    excludeZeroPremium: boolean("exclude_zero_premium").notNull().default(true),
    /**
     * Fewest past renewals a prediction may rest on before it falls to the next, broader basis
     * (carrier × line × state → carrier × line → line → agency). Read from the 'all' row; null
     * is the default (forecast-preferences.server.ts).
     */
    minPredictionSample: integer("min_prediction_sample"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.forecastObjectId] })],
);

/**
 * What re-marketing a policy creates (the wizard's task-creation step). One row per connection;
 * `connectionId` null holds the tenant default (demo data, manual policies).
 */
export const taskCreationSettings = pgTable("task_creation_settings", {
  id: uuid("id").primaryKey().defaultRandom(),
  tenantId: uuid("tenant_id")
    .notNull()
    .references(() => tenants.id, { onDelete: "cascade" }),
  connectionId: uuid("connection_id"),
  enabled: boolean("enabled").notNull().default(true),
  assigneeRule: text("assignee_rule", { enum: ["producer", "csr", "fixed"] })
    .notNull()
    .default("producer"),
  fixedEmployeeAccountId: uuid("fixed_employee_account_id"),
  activityCode: text("activity_code"),
  workGroup: text("work_group"),
  dueDaysBeforeExpiration: integer("due_days_before_expiration").notNull().default(45),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
