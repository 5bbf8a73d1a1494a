import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Db, DbOrTx } from "~/db/client.server";
import { embeddedPrepared } from "~/db/embedded-cache/prepared.server";
import { queryRows } from "~/db/rows.server";
import type { SubscriptionStatus } from "~/db/schema";
import { effectiveAnnualQuota } from "../billing/billing-account.server";
import { clock } from "../platform/context.server";
import { NotFoundError } from "../platform/errors.server";
import { calendarDate } from "./forecast.server";
import { getPlan, type PlanId } from "../billing/plans.server";
import { quotaYearOf } from "../billing/quota.server";

/** Flagged renewals expiring within this many days are the dashboard's "act now" figure. */
export const DASHBOARD_DUE_DAYS = 30;
/** Flags are counted up to here ("more than 1,000" says enough, and the counts stay under a millisecond at any size). */
export const DASHBOARD_COUNT_CAP = 1_000;

export type DashboardCtx = { db: DbOrTx; tenantId: string; timeZone: string; now?: () => Date };

type Row = {
  due_soon: number | string;
  open_flags: number | string;
  computed_at: Date | string | null;
  used: number | null;
  quota_override: number | null;
  subscription_id: string | null;
  subscription_status: SubscriptionStatus | null;
  plan: string | null;
  connections: number | string;
  connections_in_error: number | string;
  last_sync_at: Date | string | null;
  has_book: boolean;
};

// One text parameter, "tenant id|today|quota year", so the embedded database can PREPARE the
// statement once (see app/db/embedded-cache/prepared.server.ts); it is checked against this pattern before use.
const PARAM = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\|\d{4}-\d{2}-\d{2}\|\d{4}$/;

/**
 * Everything the dashboard shows, in one statement of sub-selects, each an index lookup or a short
 * index range of this tenant's rows: the dashboard is on the server-rendering benchmark's path.
 * Forecast: open flags expiring in the next 30 days (and all open, capped); quota: this year's use
 * of the year's quota; connections: how many, the last sync, how many are in error.
 * `p` is the parameter: a bound value on the Drizzle path, `$1` in the text the embedded database prepares.
 */
function dashboardStatement(p: SQL) {
  // This module's constants are written into the text, so the statement keeps its one parameter.
  const dueDays = sql.raw(String(DASHBOARD_DUE_DAYS));
  const countLimit = sql.raw(String(DASHBOARD_COUNT_CAP + 1));
  const tenant = sql`split_part(${p}, '|', 1)::uuid`;
  const today = sql`split_part(${p}, '|', 2)::date`;
  const year = sql`split_part(${p}, '|', 3)::int`;
  return sql`select
    (select count(*) from (select 1 from renewal_flags where tenant_id = ${tenant} and status = 'open'
      and expiration_date >= ${today} and expiration_date <= ${today} + ${dueDays} limit ${countLimit}) d) as due_soon,
    (select count(*) from (select 1 from renewal_flags where tenant_id = ${tenant} and status = 'open' limit ${countLimit}) o) as open_flags,
    (select computed_at from forecast_runs where tenant_id = ${tenant}) as computed_at,
    (select used from remarket_usage where tenant_id = ${tenant} and quota_year = ${year}) as used,
    b.annual_quota_override as quota_override, b.subscription_id, b.subscription_status, b.plan,
    c.total as connections, c.in_error as connections_in_error, c.last_sync_at,
    -- Ordered on the (tenant_id, expiration_date) index: a bare EXISTS may seq-scan every tenant's policies.
    (select expiration_date from policies where tenant_id = ${tenant} order by expiration_date limit 1) is not null as has_book
  from (select 1) one
    left join billing_accounts b on b.tenant_id = ${tenant}
    left join lateral (
      select count(*) as total, count(*) filter (where status = 'error' or invalid_credentials) as in_error, max(last_sync_at) as last_sync_at
      from connections where tenant_id = ${tenant} and status <> 'disconnected'
    ) c on true`;
}

const dialect = new PgDialect();

const embedded = embeddedPrepared<Row>({
  name: "dashboard_facts",
  statement: () => ({ toSQL: () => dialect.sqlToQuery(dashboardStatement(sql.raw("$1"))) }),
  paramType: "text",
  literalPattern: PARAM,
  cached: true,
});

export async function getDashboard(ctx: DashboardCtx) {
  const now = clock(ctx);
  const today = calendarDate(now, ctx.timeZone);
  const quotaYear = quotaYearOf(now, ctx.timeZone);
  const param = `${ctx.tenantId}|${today}|${quotaYear}`;
  if (!PARAM.test(param)) throw new NotFoundError("Agency not found");
  // PostgreSQL, a transaction, or the embedded cache off: the same statement with the parameter bound.
  const rows = (await embedded(ctx.db as Db, param)) ?? (await queryRows<Row>(ctx.db, dashboardStatement(sql`${param}`)));
  const r = rows[0];
  const subscription =
    r.subscription_id && r.subscription_status
      ? {
          id: r.subscription_id,
          status: r.subscription_status,
          plan: (getPlan(r.plan)?.id ?? null) as PlanId | null,
          currentPeriodEnd: null,
          trialEnd: null,
          pastDueSince: null,
        }
      : null;
  const quota = effectiveAnnualQuota({ annualQuotaOverride: r.quota_override ?? null, subscription });
  const used = Number(r.used ?? 0);
  const open = Number(r.open_flags);
  const dueSoon = Number(r.due_soon);
  const date = (v: Date | string | null) => (v === null ? null : new Date(v));
  return {
    today,
    forecast: {
      dueSoon: Math.min(dueSoon, DASHBOARD_COUNT_CAP),
      dueSoonCapped: dueSoon > DASHBOARD_COUNT_CAP,
      dueDays: DASHBOARD_DUE_DAYS,
      open: Math.min(open, DASHBOARD_COUNT_CAP),
      openCapped: open > DASHBOARD_COUNT_CAP,
      computedAt: date(r.computed_at),
    },
    quota: { year: quotaYear, used, quota, pct: quota > 0 ? Math.min(100, Math.round((used / quota) * 100)) : 100 },
    connections: { total: Number(r.connections), inError: Number(r.connections_in_error), lastSyncAt: date(r.last_sync_at) },
    hasBook: Boolean(r.has_book),
  };
}
