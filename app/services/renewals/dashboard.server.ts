import { TZDate } from "@date-fns/tz";
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
  connections_unfinished: number | string;
  last_sync_at: Date | string | null;
  has_book: boolean;
  flagged_week: number | string;
  flagged_prev_week: number | string;
  used_month: number | string;
  used_prev_month: number | string;
  remarkets: number | string;
  quoted: number | string;
  won: number | string;
  kept: number | string;
  lost: number | string;
  still_open: number | string;
  saved_won: number | string | null;
  /** json_agg as text: the cached row keeps one string (no deep copy per view), parsed once per distinct value. */
  activity: string | null;
};

/** One audit event as the statement returns it (json_agg: the time is an ISO string). */
type ActivityRow = {
  id: string;
  action: string;
  subject_type: string | null;
  subject_id: string | null;
  details: Record<string, unknown> | null;
  created_at: string;
  actor: string | null;
  policy_number: string | null;
  customer_id: string | null;
  customer_name: string | null;
  remarket_id: string | null;
};

/** How many audit events the dashboard's recent activity lists. */
export const DASHBOARD_ACTIVITY = 8;

// One text parameter, "tenant id|today|quota year|week start|previous week start" (the two starts
// are instants: local midnight in the agency's time zone, so the text changes once a day and the
// cached result holds), so the embedded database can PREPARE the statement once (see
// app/db/embedded-cache/prepared.server.ts); it is checked against this pattern before use.
const INSTANT = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z";
const PARAM = new RegExp(
  `^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\|\\d{4}-\\d{2}-\\d{2}\\|\\d{4}\\|${INSTANT}\\|${INSTANT}$`,
);
const UUID_TEXT = "'^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'";

/**
 * Everything the dashboard shows, in one statement of sub-selects, each an index lookup or a short
 * index range of this tenant's rows: the dashboard is on the server-rendering benchmark's path.
 * Forecast: open flags expiring in the next 30 days (and all open, capped); quota: this year's use
 * of the year's quota; connections: how many, the last sync, how many are in error and how many were never connected.
 * Trends: flags raised this week and the week before (flagged_at, index-only); re-markets used this
 * month and last (the usage events' local dates); this quota year's re-markets by what became of
 * them (quotes, the outcome recorded when a quote is selected or the re-market closed as lost).
 * Recent activity: the agency's latest audit events with who, and the policy, customer and
 * re-market they name (primary-key lookups, this tenant's rows only).
 * `p` is the parameter: a bound value on the Drizzle path, `$1` in the text the embedded database prepares.
 */
function dashboardStatement(p: SQL) {
  // This module's constants are written into the text, so the statement keeps its one parameter.
  const dueDays = sql.raw(String(DASHBOARD_DUE_DAYS));
  const countLimit = sql.raw(String(DASHBOARD_COUNT_CAP + 1));
  const activityLimit = sql.raw(String(DASHBOARD_ACTIVITY));
  const uuidText = sql.raw(UUID_TEXT);
  // Each part read once per statement (a scalar sub-select is an InitPlan): written as a bare cast,
  // a comparison in a filter parsed the text again for every row (2 of the statement's 6 ms at
  // 50,000 policies on PostgreSQL, in the flags-per-week counts).
  const part = (n: number, type: string) => sql`(select split_part(${p}, '|', ${sql.raw(String(n))})::${sql.raw(type)})`;
  const tenant = part(1, "uuid");
  const today = part(2, "date");
  const year = part(3, "int");
  const weekStart = part(4, "timestamptz");
  const prevWeekStart = part(5, "timestamptz");
  const monthStart = sql`date_trunc('month', ${today}::timestamp)::date`;
  const prevMonthStart = sql`(date_trunc('month', ${today}::timestamp) - interval '1 month')::date`;
  // A subject or details id is only looked up when it is one (subjects of other kinds are names).
  const idOf = (text: SQL) => sql`case when ${text} ~ ${uuidText} then (${text})::uuid end`;
  return sql`select
    (select count(*) from (select 1 from renewal_flags where tenant_id = ${tenant} and status = 'open'
      and expiration_date >= ${today} and expiration_date <= ${today} + ${dueDays} limit ${countLimit}) d) as due_soon,
    (select count(*) from (select 1 from renewal_flags where tenant_id = ${tenant} and status = 'open' limit ${countLimit}) o) as open_flags,
    (select computed_at from forecast_runs where tenant_id = ${tenant}) as computed_at,
    (select used from remarket_usage where tenant_id = ${tenant} and quota_year = ${year}) as used,
    b.annual_quota_override as quota_override, b.subscription_id, b.subscription_status, b.plan,
    c.total as connections, c.in_error as connections_in_error, c.unfinished as connections_unfinished, c.last_sync_at,
    -- Ordered on the (tenant_id, expiration_date) index: a bare EXISTS may seq-scan every tenant's policies.
    (select expiration_date from policies where tenant_id = ${tenant} order by expiration_date limit 1) is not null as has_book,
    f.week as flagged_week, f.prev_week as flagged_prev_week,
    u.month as used_month, u.prev_month as used_prev_month,
    r.total as remarkets, r.quoted, r.won, r.kept, r.lost, r.still_open, r.saved_won,
    (select json_agg(a order by a.created_at desc)::text from (
      select e.id, e.action, e.subject_type, e.subject_id, e.details, e.created_at,
        coalesce(usr.name, e.actor_email) as actor, pol.policy_number, pol.customer_id, cus.name as customer_name, rem.id as remarket_id
      -- The latest events first (on the (tenant_id, created_at) index), their ids read once each,
      -- then the names: joined before the limit, or on the text, every event and policy of the
      -- agency was compared (6.7 ms on PostgreSQL for the demo agency, 27 ms on PGlite).
      from (select id, action, subject_type, subject_id, details, created_at, actor_user_id, actor_email,
              case when subject_type = 'policy' then ${idOf(sql`subject_id`)} end as policy_id,
              ${idOf(sql`details->>'remarketId'`)} as remarket_ref
            from audit_events where tenant_id = ${tenant} order by created_at desc limit ${activityLimit}) e
        left join users usr on usr.id = e.actor_user_id and usr.tenant_id = ${tenant}
        left join policies pol on pol.tenant_id = ${tenant} and pol.id = e.policy_id
        left join customers cus on cus.tenant_id = ${tenant} and cus.id = pol.customer_id
        left join remarkets rem on rem.tenant_id = ${tenant} and rem.id = e.remarket_ref) a) as activity
  from (select 1) one
    left join billing_accounts b on b.tenant_id = ${tenant}
    left join lateral (
      select count(*) as total, count(*) filter (where status = 'error' or invalid_credentials) as in_error,
        count(*) filter (where status = 'not_connected') as unfinished, max(last_sync_at) as last_sync_at
      from connections where tenant_id = ${tenant} and status <> 'disconnected'
    ) c on true
    left join lateral (
      select count(*) filter (where flagged_at >= ${weekStart}) as week, count(*) filter (where flagged_at < ${weekStart}) as prev_week
      from renewal_flags where tenant_id = ${tenant} and flagged_at >= ${prevWeekStart}
    ) f on true
    left join lateral (
      select count(*) filter (where local_date >= ${monthStart}) as month, count(*) filter (where local_date < ${monthStart}) as prev_month
      from remarket_usage_events where tenant_id = ${tenant} and local_date >= ${prevMonthStart} and local_date <= ${today}
    ) u on true
    left join lateral (
      select count(*) as total,
        count(*) filter (where exists (select 1 from quotes q where q.remarket_id = rm.id and q.tenant_id = ${tenant})) as quoted,
        count(*) filter (where outcome = 'rewritten') as won, count(*) filter (where outcome = 'renewed') as kept,
        count(*) filter (where outcome = 'lost') as lost, count(*) filter (where status = 'open') as still_open,
        sum(premium_saved) filter (where outcome = 'rewritten') as saved_won
      from remarkets rm where rm.tenant_id = ${tenant} and rm.quota_year = ${year}
    ) r on true`;
}

const dialect = new PgDialect();

const embedded = embeddedPrepared<Row>({
  name: "dashboard_facts",
  statement: () => ({ toSQL: () => dialect.sqlToQuery(dashboardStatement(sql.raw("$1"))) }),
  paramType: "text",
  literalPattern: PARAM,
  cached: true,
});

const weekStartsMemo = new Map<string, { since: string; week: string; prevWeek: string }>();

/**
 * Local midnight of the day six days before `today` (this week: today and the six before) and of
 * the week before, as instants (toISOString: milliseconds and Z, as the pattern expects), and the
 * first day. The same all day: kept, so a page view does no time-zone arithmetic.
 */
function weekStarts(today: string, timeZone: string) {
  const key = `${today}|${timeZone}`;
  let starts = weekStartsMemo.get(key);
  if (!starts) {
    const [y, m, d] = today.split("-").map(Number);
    const week = new Date(new TZDate(y, m - 1, d - 6, timeZone).getTime());
    const prevWeek = new Date(new TZDate(y, m - 1, d - 13, timeZone).getTime());
    starts = { since: calendarDate(week, timeZone), week: week.toISOString(), prevWeek: prevWeek.toISOString() };
    // Zone names can come from anywhere: the memo stays small.
    if (weekStartsMemo.size >= 1_000) weekStartsMemo.clear();
    weekStartsMemo.set(key, starts);
  }
  return starts;
}

export type DashboardActivity = {
  id: string;
  action: string;
  subjectType: string | null;
  subjectId: string | null;
  details: Record<string, unknown> | null;
  at: Date;
  actor: string | null;
  policyNumber: string | null;
  customerId: string | null;
  customerName: string | null;
  remarketId: string | null;
};

const NO_ACTIVITY: readonly DashboardActivity[] = Object.freeze([]);
const parsedActivity = new Map<string, readonly DashboardActivity[]>();

/**
 * The recent activity of the statement's text, parsed once per distinct text: the same events are
 * on every view of the dashboard until one is added. The list is shared between callers and frozen.
 */
function parseActivity(text: string | null): readonly DashboardActivity[] {
  if (!text) return NO_ACTIVITY;
  let list = parsedActivity.get(text);
  if (!list) {
    const rows = JSON.parse(text) as ActivityRow[];
    list = Object.freeze(
      rows.map((a) => ({
        id: String(a.id),
        action: a.action,
        subjectType: a.subject_type,
        subjectId: a.subject_id,
        details: a.details,
        at: new Date(a.created_at),
        actor: a.actor,
        policyNumber: a.policy_number,
        customerId: a.customer_id,
        customerName: a.customer_name,
        remarketId: a.remarket_id,
      })),
    );
    if (parsedActivity.size >= 500) parsedActivity.clear();
    parsedActivity.set(text, list);
  }
  return list;
}

export async function getDashboard(ctx: DashboardCtx) {
  const now = clock(ctx);
  const today = calendarDate(now, ctx.timeZone);
  const quotaYear = quotaYearOf(now, ctx.timeZone);
  const weeks = weekStarts(today, ctx.timeZone);
  const param = `${ctx.tenantId}|${today}|${quotaYear}|${weeks.week}|${weeks.prevWeek}`;
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
  const n = (v: number | string | null) => Number(v ?? 0);
  return {
    today,
    trends: {
      flagged: { since: weeks.since, week: n(r.flagged_week), prevWeek: n(r.flagged_prev_week) },
      remarkets: { month: n(r.used_month), prevMonth: n(r.used_prev_month) },
      outcomes: {
        remarkets: n(r.remarkets),
        quoted: n(r.quoted),
        won: n(r.won),
        kept: n(r.kept),
        lost: n(r.lost),
        open: n(r.still_open),
        savedWon: r.saved_won === null ? null : Number(r.saved_won),
      },
    },
    activity: parseActivity(r.activity),
    forecast: {
      dueSoon: Math.min(dueSoon, DASHBOARD_COUNT_CAP),
      dueSoonCapped: dueSoon > DASHBOARD_COUNT_CAP,
      dueDays: DASHBOARD_DUE_DAYS,
      open: Math.min(open, DASHBOARD_COUNT_CAP),
      openCapped: open > DASHBOARD_COUNT_CAP,
      computedAt: date(r.computed_at),
    },
    quota: { year: quotaYear, used, quota, pct: quota > 0 ? Math.min(100, Math.round((used / quota) * 100)) : 100 },
    connections: {
      total: Number(r.connections),
      inError: Number(r.connections_in_error),
      unfinished: Number(r.connections_unfinished),
      lastSyncAt: date(r.last_sync_at),
    },
    hasBook: Boolean(r.has_book),
  };
}
