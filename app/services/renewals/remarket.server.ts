import { and, desc, eq, gt, sql } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import type { BulkFailure } from "~/db/schema";
import { customers, jobs, policies, quotes, remarkets, renewalFlags, renewalForecasts, tasks, users } from "~/db/schema";
import { recordAudit } from "../platform/audit.server";
import { clock, type TenantContext } from "../platform/context.server";
import { NotFoundError, ServiceError, isServiceError } from "../platform/errors.server";
import { requireUuid } from "../platform/ids.server";
import { tenantToday } from "./forecast.server";
import { getEntitlements } from "../billing/entitlements.server";
import { consumeRemarketQuota, getRemarketAllowance, returnRemarketQuota } from "../billing/quota.server";
import { TASK_WRITEBACK_JOB, createRemarketTask } from "./tasks.server";
import { flagLabel, logBulkAction, requireFlags } from "./worklist.server";

export const ALREADY_REMARKETED = "This policy has already been re-marketed.";

/** The refusal for an agency whose trial is over without a paid plan (or whose payment lapsed). */
export function unpaidRefusal(reason: string | undefined) {
  return `${reason ?? "Your subscription is not active."} Re-marketing needs an active subscription: choose a plan on the Billing page to re-market again.`;
}

/** Unpaid (entitlements, seed custom:paid) → the unpaid refusal; otherwise the quota's own message. */
async function refusalMessage(db: DbOrTx, tenantId: string, now: Date, reason: string) {
  const entitlements = await getEntitlements(db, tenantId, now);
  return entitlements.paid
    ? { message: reason, status: 409 as const }
    : { message: unpaidRefusal(entitlements.reason), status: 403 as const };
}

/**
 * Re-market one policy term (seed policies/remarket), all in one transaction: refuse when the
 * tenant is unpaid or the year's quota is used up; otherwise record the re-market, use one unit
 * of quota, create the task (and its write-back job) and write the audit event.
 *
 * Never twice: the unique (tenant, policy) index makes a resubmitted form or a second person
 * fail before any quota is used; the guarded quota update stops concurrent re-markets at the quota.
 */
export async function remarketPolicy(ctx: TenantContext, policyId: string) {
  requireUuid(policyId, "Policy not found");
  const now = clock(ctx);
  const [policy] = await ctx.db
    .select({
      id: policies.id,
      customerId: policies.customerId,
      policyNumber: policies.policyNumber,
      lineOfBusiness: policies.lineOfBusiness,
      carrierName: policies.carrierName,
      expirationDate: policies.expirationDate,
      connectionId: policies.connectionId,
      producer: policies.producer,
      csr: policies.csr,
      premium: policies.premium,
      renewalPremium: policies.renewalPremium,
    })
    .from(policies)
    .where(and(eq(policies.tenantId, ctx.tenantId), eq(policies.id, policyId)));
  if (!policy) throw new NotFoundError("Policy not found");

  const allowance = await getRemarketAllowance(ctx.db, ctx.tenantId, now);
  if (!allowance.allowed) {
    const refusal = await refusalMessage(ctx.db, ctx.tenantId, now, allowance.reason);
    throw new ServiceError(refusal.message, refusal.status);
  }
  const today = await tenantToday(ctx);

  return ctx.db.transaction(async (tx) => {
    const [customer] = await tx
      .select({ id: customers.id, name: customers.name, producer: customers.producer, csr: customers.csr })
      .from(customers)
      .where(and(eq(customers.tenantId, ctx.tenantId), eq(customers.id, policy.customerId)));
    const [flag] = await tx
      .select({ id: renewalFlags.id, renewalPremium: renewalFlags.renewalPremium })
      .from(renewalFlags)
      .where(and(eq(renewalFlags.tenantId, ctx.tenantId), eq(renewalFlags.policyId, policy.id)));
    const [forecast] = flag
      ? []
      : await tx
          .select({ renewalPremium: renewalForecasts.renewalPremium })
          .from(renewalForecasts)
          .where(and(eq(renewalForecasts.tenantId, ctx.tenantId), eq(renewalForecasts.policyId, policy.id)));

    const [remarket] = await tx
      .insert(remarkets)
      .values({
        tenantId: ctx.tenantId,
        policyId: policy.id,
        customerId: policy.customerId,
        flagId: flag?.id ?? null,
        userId: ctx.userId,
        quotaYear: allowance.quotaYear,
        remarketedAt: now,
        baselinePremium: flag?.renewalPremium ?? policy.renewalPremium ?? forecast?.renewalPremium ?? policy.premium ?? null,
        // The export's renewal premium is the incumbent's offer (the forecast never writes it).
        incumbentOffer: policy.renewalPremium ?? null,
        incumbentCarrierName: policy.carrierName,
      })
      .onConflictDoNothing()
      .returning({ id: remarkets.id });
    if (!remarket) throw new ServiceError(ALREADY_REMARKETED, 409);

    const usage = await consumeRemarketQuota(tx, ctx.tenantId, now);
    if (!usage.ok) {
      const refusal = await refusalMessage(tx, ctx.tenantId, now, usage.reason);
      throw new ServiceError(refusal.message, refusal.status);
    }
    if (usage.quotaYear !== allowance.quotaYear) {
      await tx
        .update(remarkets)
        .set({ quotaYear: usage.quotaYear })
        .where(and(eq(remarkets.tenantId, ctx.tenantId), eq(remarkets.id, remarket.id)));
    }

    if (flag) {
      await tx
        .update(renewalFlags)
        .set({ status: "remarketed", statusChangedAt: now, statusChangedBy: ctx.userId, snoozedUntil: null })
        .where(and(eq(renewalFlags.tenantId, ctx.tenantId), eq(renewalFlags.id, flag.id)));
    }
    const taskId = await createRemarketTask(tx, ctx, { remarketId: remarket.id, policy, customer, today });
    await recordAudit(
      tx,
      {
        tenantId: ctx.tenantId,
        actorUserId: ctx.userId,
        action: "policy.remarketed",
        subjectType: "policy",
        subjectId: policy.id,
        details: {
          remarketId: remarket.id,
          policyNumber: policy.policyNumber,
          quotaYear: usage.quotaYear,
          used: usage.used,
          quota: usage.quota,
          taskId,
        },
      },
      now,
    );
    return {
      remarketId: remarket.id,
      taskId,
      used: usage.used,
      quota: usage.quota,
      quotaYear: usage.quotaYear,
      policyNumber: policy.policyNumber,
    };
  });
}

/** Re-market the policies of worklist rows; each succeeds or fails on its own, and the bulk log records both. */
export async function remarketFlags(ctx: TenantContext, flagIds: string[], bulk: boolean) {
  const flags = await requireFlags(ctx.db, ctx.tenantId, flagIds);
  // Unpaid: one clear refusal for the whole selection (logged like any bulk action), not one per row.
  const entitlements = await getEntitlements(ctx.db, ctx.tenantId, clock(ctx));
  if (!entitlements.paid) {
    const message = unpaidRefusal(entitlements.reason);
    if (bulk)
      await logBulkAction(ctx, {
        action: "remarket",
        requested: flags.length,
        succeeded: 0,
        failures: flags.map((f) => ({ id: f.id, label: flagLabel(f), reason: message })),
      });
    throw new ServiceError(message, 403);
  }
  const failures: BulkFailure[] = [];
  const done: Awaited<ReturnType<typeof remarketPolicy>>[] = [];
  for (const flag of flags) {
    try {
      done.push(await remarketPolicy(ctx, flag.policyId));
    } catch (error) {
      if (!isServiceError(error)) throw error;
      failures.push({ id: flag.id, label: flagLabel(flag), reason: error.message });
    }
  }
  if (bulk) await logBulkAction(ctx, { action: "remarket", requested: flags.length, succeeded: done.length, failures });
  return { done, failures };
}

/** How long a re-market can be undone, while nothing has been recorded on it. */
export const UNDO_WINDOW_MS = 10 * 60_000;
export const UNDO_TOO_LATE =
  "A re-market can be undone only in the first 10 minutes; this one is older. Close it as lost on its quotes page instead.";
export const UNDO_HAS_QUOTE = "A quote or an outcome has been recorded on this re-market, so it can no longer be undone.";
export const UNDO_WRITTEN_BACK = "This re-market's task is already in your agency system, so it can no longer be undone here.";

/**
 * Undo a re-market made in the last 10 minutes on which nothing has been recorded (no quote, no
 * outcome, task not yet written back): the re-market and its task go, the flag is open again,
 * the quota unit comes back, and the audit trail records the undo next to the re-market.
 */
export async function undoRemarket(ctx: TenantContext, remarketId: string) {
  requireUuid(remarketId, "Re-market not found");
  const now = clock(ctx);
  return ctx.db.transaction(async (tx) => {
    const [remarket] = await tx
      .select({
        id: remarkets.id,
        policyId: remarkets.policyId,
        flagId: remarkets.flagId,
        quotaYear: remarkets.quotaYear,
        remarketedAt: remarkets.remarketedAt,
        status: remarkets.status,
        outcome: remarkets.outcome,
        policyNumber: policies.policyNumber,
      })
      .from(remarkets)
      .innerJoin(policies, and(eq(policies.tenantId, remarkets.tenantId), eq(policies.id, remarkets.policyId)))
      .where(and(eq(remarkets.tenantId, ctx.tenantId), eq(remarkets.id, remarketId)))
      .for("update", { of: remarkets });
    if (!remarket) throw new NotFoundError("Re-market not found");
    if (now.getTime() - remarket.remarketedAt.getTime() > UNDO_WINDOW_MS) throw new ServiceError(UNDO_TOO_LATE, 409);
    const [quote] = await tx
      .select({ id: quotes.id })
      .from(quotes)
      .where(and(eq(quotes.tenantId, ctx.tenantId), eq(quotes.remarketId, remarket.id)))
      .limit(1);
    if (quote || remarket.status !== "open" || remarket.outcome) throw new ServiceError(UNDO_HAS_QUOTE, 409);
    const [task] = await tx
      .select({ id: tasks.id, writeback: tasks.writeback })
      .from(tasks)
      .where(and(eq(tasks.tenantId, ctx.tenantId), eq(tasks.remarketId, remarket.id)));
    if (task?.writeback === "done") throw new ServiceError(UNDO_WRITTEN_BACK, 409);
    // A queued write-back would otherwise run for a task that no longer exists.
    if (task)
      await tx
        .delete(jobs)
        .where(and(eq(jobs.tenantId, ctx.tenantId), eq(jobs.dedupeKey, `${TASK_WRITEBACK_JOB}:${task.id}`), eq(jobs.status, "queued")));
    // The task (and anything else hanging off the re-market) goes with it (on delete cascade).
    await tx.delete(remarkets).where(and(eq(remarkets.tenantId, ctx.tenantId), eq(remarkets.id, remarket.id)));
    if (remarket.flagId) {
      await tx
        .update(renewalFlags)
        .set({ status: "open", statusChangedAt: now, statusChangedBy: ctx.userId })
        .where(and(eq(renewalFlags.tenantId, ctx.tenantId), eq(renewalFlags.id, remarket.flagId)));
    }
    const usage = await returnRemarketQuota(tx, ctx.tenantId, remarket.quotaYear, remarket.remarketedAt);
    await recordAudit(
      tx,
      {
        tenantId: ctx.tenantId,
        actorUserId: ctx.userId,
        action: "policy.remarket_undone",
        subjectType: "policy",
        subjectId: remarket.policyId,
        details: { remarketId: remarket.id, policyNumber: remarket.policyNumber, quotaYear: usage.quotaYear, used: usage.used },
      },
      now,
    );
    return { policyNumber: remarket.policyNumber, quotaYear: usage.quotaYear, used: usage.used };
  });
}

/** Undo several (the toast's "Undo" after a bulk re-market); each succeeds or fails on its own. */
export async function undoRemarkets(ctx: TenantContext, remarketIds: string[]) {
  const done: Awaited<ReturnType<typeof undoRemarket>>[] = [];
  const failures: { id: string; reason: string }[] = [];
  for (const id of [...new Set(remarketIds)]) {
    try {
      done.push(await undoRemarket(ctx, id));
    } catch (error) {
      if (!isServiceError(error) || error.status === 404) throw error;
      failures.push({ id, reason: error.message });
    }
  }
  return { done, failures };
}

/** This user's re-markets that can still be undone (the worklist's undo bar), newest first. */
export async function listUndoableRemarkets(ctx: Pick<TenantContext, "db" | "tenantId" | "userId" | "now">) {
  const now = clock(ctx);
  return ctx.db
    .select({ id: remarkets.id, policyNumber: policies.policyNumber, remarketedAt: remarkets.remarketedAt })
    .from(remarkets)
    .innerJoin(policies, and(eq(policies.tenantId, remarkets.tenantId), eq(policies.id, remarkets.policyId)))
    .where(
      and(
        eq(remarkets.tenantId, ctx.tenantId),
        eq(remarkets.userId, ctx.userId),
        eq(remarkets.status, "open"),
        gt(remarkets.remarketedAt, new Date(now.getTime() - UNDO_WINDOW_MS)),
        sql`not exists (select 1 from ${quotes} q where q.tenant_id = ${ctx.tenantId} and q.remarket_id = ${remarkets.id})`,
      ),
    )
    .orderBy(desc(remarkets.remarketedAt))
    .limit(50);
}

/** Re-markets of a customer, newest first (customer detail, "recently marketed"). */
export async function remarketsForCustomer(ctx: Pick<TenantContext, "db" | "tenantId" | "now">, customerId: string) {
  const undoFrom = new Date(clock(ctx).getTime() - UNDO_WINDOW_MS);
  return ctx.db
    .select({
      id: remarkets.id,
      policyId: remarkets.policyId,
      policyNumber: policies.policyNumber,
      remarketedAt: remarkets.remarketedAt,
      quotaYear: remarkets.quotaYear,
      status: remarkets.status,
      outcome: remarkets.outcome,
      premiumSaved: remarkets.premiumSaved,
      byName: users.name,
      // The same test undoRemarket makes (it refuses with the reason when this was stale).
      undoable: sql<boolean>`(${remarkets.status} = 'open' and ${remarkets.outcome} is null and ${remarkets.remarketedAt} > ${undoFrom}
        and not exists (select 1 from ${quotes} q where q.tenant_id = ${remarkets.tenantId} and q.remarket_id = ${remarkets.id}))`,
    })
    .from(remarkets)
    .innerJoin(policies, eq(policies.id, remarkets.policyId))
    .leftJoin(users, eq(users.id, remarkets.userId))
    .where(and(eq(remarkets.tenantId, ctx.tenantId), eq(remarkets.customerId, customerId)))
    .orderBy(desc(remarkets.remarketedAt));
}
