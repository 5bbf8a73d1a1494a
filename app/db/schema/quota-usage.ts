import { integer, pgTable, primaryKey, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./identity";

/**
 * Re-markets used per tenant and quota year. A minimal counter so the renewals capability can
 * prove "concurrent re-markets never overrun the quota"; the billing capability owns quotas and
 * may replace this table (only services/quota.server.ts reads or writes it).
 */
export const remarketQuotaUsage = pgTable(
  "remarket_quota_usage",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    quotaYear: integer("quota_year").notNull(),
    used: integer("used").notNull().default(0),
    quota: integer("quota").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.quotaYear] })],
);
