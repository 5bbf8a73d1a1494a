import { queryRows } from "~/db/rows.server";
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { LIST_LIMIT_DEFAULT, listSort, type SortOf } from "~/utils/cursor.server";
import type { DbOrTx } from "~/db/client.server";
import { bulkActions, remarkets, renewalFlags, type BulkFailure, type FlagStatus, type WorklistFilterOptions } from "~/db/schema";
import { recordAudit } from "../platform/audit.server";
import { clock, type TenantContext } from "../platform/context.server";
import { NotFoundError, ServiceError } from "../platform/errors.server";
import { requireUuid } from "../platform/ids.server";

export type WorklistFilters = {
  status: FlagStatus;
  carrier?: string;
  line?: string;
  producer?: string;
  state?: string;
  q?: string;
  /** The renewal figure a flag rests on: the carrier's offer, or a prediction. */
  basis?: "offer" | "predicted";
};

/**
 * The worklist's orders (the page's `?sort=` and the API's): a column, descending with a leading
 * "-". Expiry, soonest first, is the default; ties break on expiry then id, so a page boundary
 * never shows a row twice or skips one.
 */
export const WORKLIST_SORT = listSort({
  fields: {
    expiry: { expr: renewalFlags.expirationDate, kind: "date" },
    change_pct: { expr: renewalFlags.changePct, kind: "number" },
    change_amount: { expr: renewalFlags.changeAmount, kind: "number" },
    premium: { expr: renewalFlags.renewalPremium, kind: "number" },
  },
  then: [
    { expr: renewalFlags.expirationDate, kind: "date" },
    { expr: renewalFlags.id, kind: "uuid" },
  ],
  default: "expiry",
});
export const WORKLIST_SORTS = WORKLIST_SORT.values;
export type WorklistSort = SortOf<typeof WORKLIST_SORT>;

export const WORKLIST_PAGE_SIZE = 25;
/**
 * Counting stops a little past the current page ("more than 1,000" is as useful as the exact
 * number) so the count stays fast at any size; Next keeps working past the cap.
 */
export const countCapFor = (page: number) => Math.max(1_000, (page + 20) * WORKLIST_PAGE_SIZE);

const likeEscape = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

function worklistWhere(tenantId: string, f: WorklistFilters) {
  const parts: SQL[] = [eq(renewalFlags.tenantId, tenantId), eq(renewalFlags.status, f.status)];
  if (f.carrier) parts.push(eq(renewalFlags.carrierName, f.carrier));
  if (f.line) parts.push(eq(renewalFlags.lineOfBusiness, f.line));
  if (f.producer) parts.push(eq(renewalFlags.producer, f.producer));
  if (f.state) parts.push(eq(renewalFlags.riskState, f.state));
  if (f.basis) parts.push(eq(renewalFlags.predicted, f.basis === "predicted"));
  if (f.q) {
    const q = likeEscape(f.q.trim().toLowerCase());
    parts.push(sql`(lower(${renewalFlags.customerName}) like ${`%${q}%`} or lower(${renewalFlags.policyNumber}) like ${`${q}%`})`);
  }
  return and(...parts)!;
}

/** The columns of a worklist row (the page and the API list the same ones). */
const WORKLIST_COLUMNS = {
  id: renewalFlags.id,
  policyId: renewalFlags.policyId,
  customerId: renewalFlags.customerId,
  customerName: renewalFlags.customerName,
  policyNumber: renewalFlags.policyNumber,
  lineOfBusiness: renewalFlags.lineOfBusiness,
  carrierName: renewalFlags.carrierName,
  riskState: renewalFlags.riskState,
  producer: renewalFlags.producer,
  expirationDate: renewalFlags.expirationDate,
  priorPremium: renewalFlags.priorPremium,
  currentPremium: renewalFlags.currentPremium,
  renewalPremium: renewalFlags.renewalPremium,
  predicted: renewalFlags.predicted,
  changePct: renewalFlags.changePct,
  changeAmount: renewalFlags.changeAmount,
  status: renewalFlags.status,
  why: renewalFlags.why,
  dismissReason: renewalFlags.dismissReason,
  snoozedUntil: renewalFlags.snoozedUntil,
  remarketId: remarkets.id,
};

/** One page of the worklist in the chosen order (soonest expiry first), with a (capped) total and the filter choices. */
export async function listWorklist(
  ctx: Pick<TenantContext, "db" | "tenantId">,
  filters: WorklistFilters,
  page: number,
  sort: WorklistSort = "expiry",
) {
  const where = worklistWhere(ctx.tenantId, filters);
  const cap = countCapFor(page);
  const [rows, counted] = await Promise.all([
    ctx.db
      .select(WORKLIST_COLUMNS)
      .from(renewalFlags)
      .leftJoin(remarkets, and(eq(remarkets.tenantId, renewalFlags.tenantId), eq(remarkets.policyId, renewalFlags.policyId)))
      .where(where)
      .orderBy(...WORKLIST_SORT.orderBy(sort))
      .limit(WORKLIST_PAGE_SIZE)
      .offset((page - 1) * WORKLIST_PAGE_SIZE),
    // The capped count and the last computation (filter choices, time) in one statement.
    queryRows<{ n: number | string; filter_options: WorklistFilterOptions | null; computed_at: Date | string | null }>(
      ctx.db,
      sql`
      select (select count(*) from (select 1 from ${renewalFlags} where ${where} limit ${cap + 1}) capped) as n, r.filter_options, r.computed_at
      from (select 1) one left join forecast_runs r on r.tenant_id = ${ctx.tenantId}`,
    ),
  ]);
  const total = Number(counted[0]?.n ?? 0);
  const run = counted[0];
  return {
    rows,
    total: Math.min(total, cap),
    capped: total > cap,
    options: run?.filter_options ?? { carriers: [], lines: [], producers: [], states: [] },
    computedAt: run?.computed_at ? new Date(run.computed_at) : null,
  };
}

type FlagRow = { id: string; status: FlagStatus; policyId: string; policyNumber: string; customerName: string; customerId: string };

/** The tenant's flags with these ids; any id that is not the tenant's is a 404 (nothing applied). */
export async function requireFlags(db: DbOrTx, tenantId: string, ids: string[]): Promise<FlagRow[]> {
  const unique = [...new Set(ids)].map((id) => requireUuid(id, "Renewal not found"));
  if (unique.length === 0) return [];
  const rows = await db
    .select({
      id: renewalFlags.id,
      status: renewalFlags.status,
      policyId: renewalFlags.policyId,
      policyNumber: renewalFlags.policyNumber,
      customerName: renewalFlags.customerName,
      customerId: renewalFlags.customerId,
    })
    .from(renewalFlags)
    .where(and(eq(renewalFlags.tenantId, tenantId), inArray(renewalFlags.id, unique)));
  if (rows.length !== unique.length) throw new NotFoundError("Renewal not found");
  const byId = new Map(rows.map((r) => [r.id, r]));
  return unique.map((id) => byId.get(id)!);
}

export const flagLabel = (f: Pick<FlagRow, "policyNumber" | "customerName">) => `${f.policyNumber} (${f.customerName})`;

type StatusChange = { status: "dismissed" | "snoozed" | "open"; reason?: string; until?: string };

/** Dismiss (with a reason) or snooze (until a date) flags; each flag succeeds or fails on its own. */
export async function changeFlagStatus(ctx: TenantContext, ids: string[], change: StatusChange, bulk: boolean) {
  const now = clock(ctx);
  if (change.status === "dismissed" && !change.reason?.trim()) throw new ServiceError("Enter a reason to dismiss.", 400, "reason");
  if (change.status === "snoozed" && !change.until) throw new ServiceError("Choose a date to snooze until.", 400, "until");
  const flags = await requireFlags(ctx.db, ctx.tenantId, ids);
  const failures: BulkFailure[] = [];
  let succeeded = 0;
  for (const flag of flags) {
    if (flag.status === "remarketed") {
      failures.push({ id: flag.id, label: flagLabel(flag), reason: "Already re-marketed." });
      continue;
    }
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(renewalFlags)
        .set({
          status: change.status,
          dismissReason: change.status === "dismissed" ? change.reason!.trim() : null,
          snoozedUntil: change.status === "snoozed" ? change.until! : null,
          statusChangedAt: now,
          statusChangedBy: ctx.userId,
        })
        .where(and(eq(renewalFlags.tenantId, ctx.tenantId), eq(renewalFlags.id, flag.id)));
      await recordAudit(
        tx,
        {
          tenantId: ctx.tenantId,
          actorUserId: ctx.userId,
          action: `renewal.${change.status}`,
          subjectType: "policy",
          subjectId: flag.policyId,
          details: { flagId: flag.id, policyNumber: flag.policyNumber, reason: change.reason ?? null, until: change.until ?? null },
        },
        now,
      );
    });
    succeeded += 1;
  }
  if (bulk) {
    await logBulkAction(ctx, {
      action: change.status === "dismissed" ? "dismiss" : "snooze",
      requested: flags.length,
      succeeded,
      failures,
      details: change.status === "dismissed" ? `Reason: ${change.reason!.trim()}` : `Until ${change.until}`,
    });
  }
  return { succeeded, failures };
}

/** Append one entry to the bulk action log (reports). */
export async function logBulkAction(
  ctx: TenantContext,
  entry: { action: "remarket" | "dismiss" | "snooze"; requested: number; succeeded: number; failures: BulkFailure[]; details?: string },
) {
  await ctx.db.insert(bulkActions).values({ tenantId: ctx.tenantId, userId: ctx.userId, createdAt: clock(ctx), ...entry });
}

/**
 * The API's worklist (GET /api/renewals/flagged): in a WORKLIST_SORT order (soonest expiry first
 * unless asked), `limit` rows after `cursor`.
 */
export async function listWorklistAfter(
  ctx: Pick<TenantContext, "db" | "tenantId">,
  filters: WorklistFilters,
  paging: { limit?: number; cursor?: string; sort?: WorklistSort },
) {
  const limit = paging.limit ?? LIST_LIMIT_DEFAULT;
  const sort = paging.sort ?? WORKLIST_SORT.default;
  const where = worklistWhere(ctx.tenantId, filters);
  const rows = await ctx.db
    .select({ ...WORKLIST_COLUMNS, cursorKey: WORKLIST_SORT.key(sort) })
    .from(renewalFlags)
    .leftJoin(remarkets, and(eq(remarkets.tenantId, renewalFlags.tenantId), eq(remarkets.policyId, renewalFlags.policyId)))
    .where(and(where, WORKLIST_SORT.after(sort, paging.cursor)))
    .orderBy(...WORKLIST_SORT.orderBy(sort))
    .limit(limit + 1);
  const { rows: items, nextCursor } = WORKLIST_SORT.page(rows, limit, sort);
  return { items, nextCursor };
}
