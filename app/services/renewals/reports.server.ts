import { and, count, desc, eq, sql } from "drizzle-orm";
import { queryRows } from "~/db/rows.server";
import { bulkActions, users } from "~/db/schema";
import type { TenantContext } from "../platform/context.server";

type Ctx = Pick<TenantContext, "db" | "tenantId">;

export type RetentionRow = {
  key: string;
  renewed: number;
  rewritten: number;
  lost: number;
  retainedPremium: number;
  lostPremium: number;
};

const GROUPS = {
  carrier: sql.raw("r.incumbent_carrier_name"),
  line: sql.raw("p.line_of_business"),
  producer: sql.raw("coalesce(p.producer, 'Unassigned')"),
} as const;

/**
 * Retention of closed re-markets in a period, by incumbent carrier, line or producer: kept
 * (renewed with the incumbent or rewritten elsewhere) vs. lost, in count and premium.
 */
/** Periods are calendar days in the tenant's time zone. */
export async function retentionBy(
  ctx: Ctx,
  group: keyof typeof GROUPS,
  period: { from: string; to: string },
  timeZone = "America/New_York",
): Promise<RetentionRow[]> {
  const rows = await queryRows<Record<string, unknown>>(
    ctx.db,
    sql`
    select ${GROUPS[group]} as key,
      count(*) filter (where r.outcome = 'renewed') as renewed,
      count(*) filter (where r.outcome = 'rewritten') as rewritten,
      count(*) filter (where r.outcome = 'lost') as lost,
      coalesce(sum(coalesce(r.bound_premium, r.incumbent_offer, p.premium)) filter (where r.outcome in ('renewed', 'rewritten')), 0) as retained_premium,
      -- What the agency lost is what the customer paid (or was offered): never a prediction.
      coalesce(sum(coalesce(r.incumbent_offer, p.premium)) filter (where r.outcome = 'lost'), 0) as lost_premium
    from remarkets r join policies p on p.id = r.policy_id
    where r.tenant_id = ${ctx.tenantId} and r.status = 'closed'
      and (r.closed_at at time zone ${timeZone})::date between ${period.from}::date and ${period.to}::date
    group by 1 order by count(*) desc, 1`,
  );
  return rows.map((r) => ({
    key: String(r.key),
    renewed: Number(r.renewed),
    rewritten: Number(r.rewritten),
    lost: Number(r.lost),
    retainedPremium: Number(r.retained_premium),
    lostPremium: Number(r.lost_premium),
  }));
}

export type QuotaReturnMonth = { month: string; used: number; rewrites: number; savedVsOffer: number; savedVsCurrent: number };

/**
 * Quota return per month of a year: re-markets used, rewrites bound, premium saved per basis
 * (against the incumbent's offer, against the current premium: never added together).
 */
export async function quotaReturn(ctx: Ctx, year: number, timeZone = "America/New_York"): Promise<QuotaReturnMonth[]> {
  const rows = await queryRows<Record<string, unknown>>(
    ctx.db,
    sql`
    with used as (
      select extract(month from remarketed_at at time zone ${timeZone})::int as m, count(*) as n
      from remarkets where tenant_id = ${ctx.tenantId} and quota_year = ${year} group by 1
    ), closed as (
      select extract(month from closed_at at time zone ${timeZone})::int as m,
        count(*) filter (where outcome = 'rewritten') as rewrites,
        coalesce(sum(premium_saved) filter (where outcome in ('rewritten', 'renewed') and savings_basis = 'offer'), 0) as saved_offer,
        coalesce(sum(premium_saved) filter (where outcome in ('rewritten', 'renewed') and savings_basis = 'current'), 0) as saved_current
      from remarkets where tenant_id = ${ctx.tenantId} and status = 'closed' and extract(year from closed_at at time zone ${timeZone}) = ${year} group by 1
    )
    select coalesce(used.m, closed.m) as m, coalesce(used.n, 0) as used, coalesce(closed.rewrites, 0) as rewrites,
      coalesce(closed.saved_offer, 0) as saved_offer, coalesce(closed.saved_current, 0) as saved_current
    from used full join closed on closed.m = used.m`,
  );
  const byMonth = new Map(rows.map((r) => [Number(r.m), r]));
  return Array.from({ length: 12 }, (_, i) => {
    const r = byMonth.get(i + 1);
    return {
      month: `${year}-${String(i + 1).padStart(2, "0")}`,
      used: Number(r?.used ?? 0),
      rewrites: Number(r?.rewrites ?? 0),
      savedVsOffer: Number(r?.saved_offer ?? 0),
      savedVsCurrent: Number(r?.saved_current ?? 0),
    };
  });
}

export const BULK_LOG_PAGE_SIZE = 10;

/** The bulk action log, newest first. */
export async function bulkLog(ctx: Ctx, page: number) {
  const where = eq(bulkActions.tenantId, ctx.tenantId);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({
        id: bulkActions.id,
        action: bulkActions.action,
        requested: bulkActions.requested,
        succeeded: bulkActions.succeeded,
        failures: bulkActions.failures,
        details: bulkActions.details,
        createdAt: bulkActions.createdAt,
        userName: users.name,
      })
      .from(bulkActions)
      .leftJoin(users, and(eq(users.id, bulkActions.userId)))
      .where(where)
      .orderBy(desc(bulkActions.createdAt))
      .limit(BULK_LOG_PAGE_SIZE)
      .offset((page - 1) * BULK_LOG_PAGE_SIZE),
    ctx.db.select({ total: count() }).from(bulkActions).where(where),
  ]);
  return { rows, total };
}
