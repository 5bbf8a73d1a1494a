import { sql } from "drizzle-orm";
import { date, index, integer, numeric, pgTable, text, timestamp, unique, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./identity";

// The agency's book of business: what imports write and what the forecast and re-marketing read.
// Dates without a time are ISO strings (yyyy-mm-dd) so no time zone can shift an expiry by a day.

/** The carrier catalogue (major US P&C carriers) shared by all tenants. */
export const carriers = pgTable(
  "carriers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    naicCode: text("naic_code"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("carriers_name_unique").on(sql`lower(${t.name})`)],
);

export const customers = pgTable(
  "customers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    /** Which connection imported it (null for demo or manual data). */
    connectionId: uuid("connection_id"),
    /**
     * The source's own key (client number / lookup code), unique per connection: two live
     * connections (an AMS and a CRM) may both have a client 1001 (docs/decisions/009-customer-source-keys.md).
     */
    sourceKey: text("source_key").notNull(),
    customerType: text("customer_type", { enum: ["personal", "commercial"] })
      .notNull()
      .default("personal"),
    firstName: text("first_name"),
    lastName: text("last_name"),
    businessName: text("business_name"),
    /** Display name: business name, or "First Last". */
    name: text("name").notNull(),
    email: text("email"),
    phone: text("phone"),
    address1: text("address1"),
    address2: text("address2"),
    city: text("city"),
    state: text("state"),
    zip: text("zip"),
    producer: text("producer"),
    csr: text("csr"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // NULLS NOT DISTINCT: demo and manual data (no connection) stay unique per tenant.
    unique("customers_source_unique").on(t.tenantId, t.connectionId, t.sourceKey).nullsNotDistinct(),
    index("customers_tenant_name_idx").on(t.tenantId, t.name),
    index("customers_tenant_email_idx").on(t.tenantId, sql`lower(${t.email})`),
    // The customer list's filter choices walk these (a loose index scan: one probe per distinct value).
    index("customers_tenant_state_idx").on(t.tenantId, t.state),
    index("customers_tenant_producer_idx").on(t.tenantId, t.producer),
  ],
);

export const LINES_OF_BUSINESS = ["PAUTO", "HOME", "DFIRE", "UMBRP", "BOP", "CGL", "WC", "CAUTO", "OTHER"] as const;
export const POLICY_STATUSES = ["active", "renewed", "cancelled", "expired", "quoted", "non_renewed"] as const;

export const policies = pgTable(
  "policies",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    customerId: uuid("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    connectionId: uuid("connection_id"),
    /** customer key + policy number + effective date (policy numbers repeat across customers). */
    sourceKey: text("source_key").notNull(),
    policyNumber: text("policy_number").notNull(),
    lineOfBusiness: text("line_of_business", { enum: LINES_OF_BUSINESS }).notNull(),
    lineOfBusinessRaw: text("line_of_business_raw"),
    carrierId: uuid("carrier_id").references(() => carriers.id, { onDelete: "set null" }),
    /** The carrier's name as resolved (catalogue or agency carrier), so spellings never split a carrier. */
    carrierName: text("carrier_name").notNull(),
    /** The carrier as the source spelled it ("ERIE INS CO"), kept for the record. */
    carrierNameRaw: text("carrier_name_raw"),
    status: text("status", { enum: POLICY_STATUSES }).notNull().default("active"),
    inceptionDate: date("inception_date", { mode: "string" }),
    effectiveDate: date("effective_date", { mode: "string" }).notNull(),
    expirationDate: date("expiration_date", { mode: "string" }).notNull(),
    termMonths: integer("term_months"),
    premium: numeric("premium", { precision: 12, scale: 2, mode: "number" }),
    priorPremium: numeric("prior_premium", { precision: 12, scale: 2, mode: "number" }),
    renewalPremium: numeric("renewal_premium", { precision: 12, scale: 2, mode: "number" }),
    riskState: text("risk_state"),
    producer: text("producer"),
    csr: text("csr"),
    claims3y: integer("claims_3y"),
    lastModifiedAt: timestamp("last_modified_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("policies_source_unique").on(t.tenantId, t.connectionId, t.sourceKey).nullsNotDistinct(),
    index("policies_tenant_expiration_idx").on(t.tenantId, t.expirationDate),
    index("policies_customer_idx").on(t.customerId),
    // Customers with an active policy (the customer list's count and column): an index-only scan.
    index("policies_tenant_active_customer_idx")
      .on(t.tenantId, t.customerId)
      .where(sql`${t.status} = 'active'`),
  ],
);

/** The AMS's people (producers, CSRs) that tasks are assigned to. */
export const employeeAccounts = pgTable(
  "employee_accounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    connectionId: uuid("connection_id"),
    sourceKey: text("source_key").notNull(),
    name: text("name").notNull(),
    email: text("email"),
    role: text("role"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("employee_accounts_source_unique").on(t.tenantId, t.sourceKey)],
);
