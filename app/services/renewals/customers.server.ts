import { and, count, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { queryRows } from "~/db/rows.server";
import { LIST_LIMIT_DEFAULT, listSort, type SortOf } from "~/utils/cursor.server";
import { auditEvents, customers, forecastRuns, policies, remarkets, renewalFlags, users, type BookCustomerCounts } from "~/db/schema";
import { clock, type TenantContext } from "../platform/context.server";
import { NotFoundError } from "../platform/errors.server";
import { requireUuid } from "../platform/ids.server";
import { countBookCustomers } from "./forecast.server";
import { forecastForPolicies } from "./forecast-views.server";
import { quotesForCustomer } from "./quotes.server";
import { remarketsForCustomer } from "./remarket.server";
import { tasksForCustomer } from "./tasks.server";

type Ctx = Pick<TenantContext, "db" | "tenantId" | "now">;

export const CUSTOMERS_PAGE_SIZE = 20;

export type CustomerFilters = {
  q?: string;
  state?: string;
  producer?: string;
  segment?: "all" | "active" | "remarketed";
};

const hasActivePolicy = (tenantId: string) =>
  sql`exists (select 1 from ${policies} p where p.tenant_id = ${tenantId} and p.customer_id = "customers"."id" and p.status = 'active')`;

function customerWhere(ctx: Ctx, f: CustomerFilters, year: number) {
  const parts: (SQL | undefined)[] = [eq(customers.tenantId, ctx.tenantId)];
  if (f.q) {
    const q = `%${f.q
      .trim()
      .toLowerCase()
      .replace(/[\\%_]/g, "\\$&")}%`;
    parts.push(or(sql`lower(${customers.name}) like ${q}`, sql`lower(${customers.email}) like ${q}`));
  }
  if (f.state) parts.push(eq(customers.state, f.state));
  if (f.producer) parts.push(eq(customers.producer, f.producer));
  if (f.segment === "active") parts.push(hasActivePolicy(ctx.tenantId));
  if (f.segment === "remarketed") {
    parts.push(
      sql`exists (select 1 from ${remarkets} r where r.tenant_id = ${ctx.tenantId} and r.customer_id = "customers"."id" and r.quota_year = ${year})`,
    );
  }
  return and(...parts);
}

/** No search and no filter: every customer of the tenant. */
export function isUnfiltered(f: CustomerFilters) {
  return !f.q && !f.state && !f.producer && (f.segment ?? "all") === "all";
}

/** The customer list's orders: by name (customers_tenant_name_idx) unless asked otherwise, ties by id. */
export const CUSTOMER_SORT = listSort({
  fields: { name: { expr: customers.name, kind: "text" }, createdAt: { expr: customers.createdAt, kind: "timestamp" } },
  then: [{ expr: customers.id, kind: "uuid" }],
  default: "name",
});

/** Keyset paging (the API): at most `limit` rows after `cursor`, the page number then ignored. */
export type CustomerPaging = { limit?: number; cursor?: string; sort?: SortOf<typeof CUSTOMER_SORT> };

/**
 * Customers (seed customers/all) with search by name or e-mail, filters and a page, in a
 * CUSTOMER_SORT order (by name then id unless asked); `nextCursor` continues after the last row.
 */
export async function listCustomers(
  ctx: Ctx,
  filters: CustomerFilters,
  page: number,
  paging: CustomerPaging = {},
  /** The count of all the tenant's customers, when the caller has it and `filters` are empty: not counted again. */
  knownTotal?: number,
) {
  const year = clock(ctx).getUTCFullYear();
  const where = customerWhere(ctx, filters, year);
  const keyset = paging.limit !== undefined || paging.cursor !== undefined;
  const size = keyset ? (paging.limit ?? LIST_LIMIT_DEFAULT) : CUSTOMERS_PAGE_SIZE;
  const sort = paging.sort ?? CUSTOMER_SORT.default;
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({
        id: customers.id,
        name: customers.name,
        email: customers.email,
        phone: customers.phone,
        state: customers.state,
        producer: customers.producer,
        activePolicies:
          sql<number>`(select count(*) from ${policies} p where p.tenant_id = ${ctx.tenantId} and p.customer_id = "customers"."id" and p.status = 'active')`.mapWith(
            Number,
          ),
        flagged:
          sql<number>`(select count(*) from ${renewalFlags} f where f.tenant_id = ${ctx.tenantId} and f.customer_id = "customers"."id" and f.status = 'open')`.mapWith(
            Number,
          ),
        cursorKey: CUSTOMER_SORT.key(sort),
      })
      .from(customers)
      .where(and(where, CUSTOMER_SORT.after(sort, paging.cursor)))
      .orderBy(...CUSTOMER_SORT.orderBy(sort))
      .limit(size + 1)
      .offset(keyset ? 0 : (page - 1) * CUSTOMERS_PAGE_SIZE),
    knownTotal !== undefined && isUnfiltered(filters)
      ? [{ total: knownTotal }]
      : ctx.db.select({ total: count() }).from(customers).where(where),
  ]);
  return { ...CUSTOMER_SORT.page(rows, size, sort), total };
}

/**
 * Seed customers/counts: total, with an active policy, re-marketed this (quota) year. The first two
 * are the last forecast computation's (it follows every import and disconnection; `countedAt` says
 * when), so a large book is not counted on every view; a tenant without one is counted now. The
 * re-marketed count moves with every re-market and is read as it stands (a few rows a year).
 */
export async function customerCounts(ctx: Ctx) {
  const year = clock(ctx).getUTCFullYear();
  const [row] = await queryRows<{ counts: BookCustomerCounts | null; computed_at: Date | string | null; remarketed: number | string }>(
    ctx.db,
    sql`select r.customer_counts as counts, r.computed_at,
      (select count(distinct m.customer_id) from ${remarkets} m where m.tenant_id = ${ctx.tenantId} and m.quota_year = ${year}) as remarketed
      from (select 1) one left join ${forecastRuns} r on r.tenant_id = ${ctx.tenantId}`,
  );
  const stored = row.counts && row.computed_at ? { ...row.counts, countedAt: new Date(row.computed_at) } : null;
  const book = stored ?? { ...(await countBookCustomers(ctx.db, ctx.tenantId)), countedAt: null };
  return { total: book.total, active: book.active, remarketed: Number(row.remarketed), year, countedAt: book.countedAt };
}

/** Seed customers/recentMarketed: the latest re-markets with their customer. */
export async function recentlyMarketed(ctx: Ctx, limit = 5) {
  return ctx.db
    .select({
      remarketId: remarkets.id,
      customerId: remarkets.customerId,
      customerName: customers.name,
      policyNumber: policies.policyNumber,
      remarketedAt: remarkets.remarketedAt,
      status: remarkets.status,
      outcome: remarkets.outcome,
    })
    .from(remarkets)
    .innerJoin(customers, eq(customers.id, remarkets.customerId))
    .innerJoin(policies, eq(policies.id, remarkets.policyId))
    .where(eq(remarkets.tenantId, ctx.tenantId))
    .orderBy(desc(remarkets.remarketedAt))
    .limit(limit);
}

/**
 * Distinct states and producers of the tenant's customers (filter choices), in one statement that
 * walks the (tenant_id, state) and (tenant_id, producer) indexes value by value (a loose index
 * scan): a probe per distinct value instead of reading every customer.
 */
export async function customerFilterOptions(ctx: Ctx) {
  const t = ctx.tenantId;
  const rows = await queryRows<{ kind: "state" | "producer"; v: string }>(
    ctx.db,
    sql`with recursive
      states(v) as (
        (select state from ${customers} where tenant_id = ${t} and state is not null order by state limit 1)
        union all
        select (select c.state from ${customers} c where c.tenant_id = ${t} and c.state > states.v order by c.state limit 1)
        from states where states.v is not null),
      producers(v) as (
        (select producer from ${customers} where tenant_id = ${t} and producer is not null order by producer limit 1)
        union all
        select (select c.producer from ${customers} c where c.tenant_id = ${t} and c.producer > producers.v order by c.producer limit 1)
        from producers where producers.v is not null)
    select 'state' as kind, v from states where v is not null
    union all
    select 'producer' as kind, v from producers where v is not null
    order by kind, v`,
  );
  return {
    states: rows.filter((r) => r.kind === "state" && r.v).map((r) => r.v),
    producers: rows.filter((r) => r.kind === "producer" && r.v).map((r) => r.v),
  };
}

/** Seed customers/{id} and {id}/audit-details: everything about one customer; another tenant's id is a 404. */
export async function getCustomerDetail(ctx: Ctx, customerId: string) {
  requireUuid(customerId, "Customer not found");
  const [customer] = await ctx.db
    .select()
    .from(customers)
    .where(and(eq(customers.tenantId, ctx.tenantId), eq(customers.id, customerId)));
  if (!customer) throw new NotFoundError("Customer not found");
  const policyRows = await ctx.db
    .select({
      id: policies.id,
      policyNumber: policies.policyNumber,
      lineOfBusiness: policies.lineOfBusiness,
      carrierName: policies.carrierName,
      status: policies.status,
      effectiveDate: policies.effectiveDate,
      expirationDate: policies.expirationDate,
      premium: policies.premium,
      priorPremium: policies.priorPremium,
      renewalPremium: policies.renewalPremium,
      riskState: policies.riskState,
      flagId: renewalFlags.id,
      flagStatus: renewalFlags.status,
      flagWhy: renewalFlags.why,
    })
    .from(policies)
    .leftJoin(renewalFlags, and(eq(renewalFlags.tenantId, ctx.tenantId), eq(renewalFlags.policyId, policies.id)))
    .where(and(eq(policies.tenantId, ctx.tenantId), eq(policies.customerId, customerId)))
    .orderBy(desc(policies.expirationDate));
  const policyIds = policyRows.map((p) => p.id);
  const [forecasts, remarketRows, quoteRows, taskRows, audit] = await Promise.all([
    forecastForPolicies(ctx, policyIds),
    remarketsForCustomer(ctx, customerId),
    quotesForCustomer(ctx, customerId),
    tasksForCustomer(ctx, customerId),
    ctx.db
      .select({
        id: auditEvents.id,
        action: auditEvents.action,
        details: auditEvents.details,
        createdAt: auditEvents.createdAt,
        actorName: users.name,
        actorEmail: auditEvents.actorEmail,
      })
      .from(auditEvents)
      .leftJoin(users, eq(users.id, auditEvents.actorUserId))
      .where(
        and(
          eq(auditEvents.tenantId, ctx.tenantId),
          or(
            and(eq(auditEvents.subjectType, "customer"), eq(auditEvents.subjectId, customerId)),
            policyIds.length ? and(eq(auditEvents.subjectType, "policy"), inArray(auditEvents.subjectId, policyIds)) : undefined,
          ),
        ),
      )
      .orderBy(desc(auditEvents.createdAt))
      .limit(100),
  ]);
  return {
    customer,
    policies: policyRows.map((p) => ({ ...p, forecast: forecasts.get(p.id) ?? null })),
    remarkets: remarketRows,
    quotes: quoteRows,
    tasks: taskRows,
    audit,
  };
}
