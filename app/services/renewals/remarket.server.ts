import { and, desc, eq } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import type { BulkFailure } from "~/db/schema";
import { customers, policies, remarkets, renewalFlags, renewalForecasts, users } from "~/db/schema";
import { recordAudit } from "../platform/audit.server";
import { clock, type TenantContext } from "../platform/context.server";
import { NotFoundError, ServiceError, isServiceError } from "../platform/errors.server";
import { requireUuid } from "../platform/ids.server";
import { tenantToday } from "./forecast.server";
import { getEntitlements } from "../billing/entitlements.server";
import { consumeRemarketQuota, getRemarketAllowance } from "../billing/quota.server";
import { createRemarketTask } from "./tasks.server";
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

/** Re-markets of a customer, newest first (customer detail, "recently marketed"). */
export async function remarketsForCustomer(ctx: Pick<TenantContext, "db" | "tenantId">, customerId: string) {
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
    })
    .from(remarkets)
    .innerJoin(policies, eq(policies.id, remarkets.policyId))
    .leftJoin(users, eq(users.id, remarkets.userId))
    .where(and(eq(remarkets.tenantId, ctx.tenantId), eq(remarkets.customerId, customerId)))
    .orderBy(desc(remarkets.remarketedAt));
}
