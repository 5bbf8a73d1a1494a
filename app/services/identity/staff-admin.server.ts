import { and, desc, eq, inArray, like, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { auditEvents, billingAccounts, remarketUsage, tenants } from "~/db/schema";
import { localDateParts } from "~/utils/time-zone";
import { recordAudit } from "../platform/audit.server";
import { effectiveAnnualQuota, isLiveStatus, readBillingState } from "../billing/billing-account.server";
import { NotFoundError } from "../platform/errors.server";
import { setFlagOverride, type FlagName, getFlags } from "./feature-flags.server";
import { getPlan } from "../billing/plans.server";
import { listTenantsForStaff } from "./tenants.server";

// Internal staff act across tenants; routes guard with requireStaff. Every change is audited
// against the tenant it touched, with the staff member's e-mail.

export type StaffActor = { userId: string; email: string };

const DAY_MS = 86_400_000;

const STATUS_LABELS = {
  trialing: "Trial",
  trial_ended: "Trial ended",
  active: "Active",
  past_due: "Past due",
  canceled: "Canceled",
  unpaid: "Unpaid",
} as const;

/** Every tenant with plan, status, trial end, usage, users and (when that table exists) connections. */
export async function listTenantsWithBilling(db: Db, now = new Date()) {
  const list = await listTenantsForStaff(db);
  if (list.length === 0) return [];
  const ids = list.map((t) => t.id);
  const [accounts, usage, connections, zones] = await Promise.all([
    db.select().from(billingAccounts).where(inArray(billingAccounts.tenantId, ids)),
    db.select().from(remarketUsage).where(inArray(remarketUsage.tenantId, ids)),
    countConnections(db, ids),
    db.select({ id: tenants.id, timeZone: tenants.timeZone }).from(tenants).where(inArray(tenants.id, ids)),
  ]);
  const flags = await Promise.all(ids.map((id) => getFlags(db, id)));
  return list.map((t, i) => {
    const account = accounts.find((a) => a.tenantId === t.id) ?? null;
    const timeZone = zones.find((z) => z.id === t.id)?.timeZone ?? "UTC";
    const year = localDateParts(now, timeZone).year;
    const used = usage.find((u) => u.tenantId === t.id && u.quotaYear === year)?.used ?? 0;
    const live = account && isLiveStatus(account.subscriptionStatus);
    const quota = account
      ? effectiveAnnualQuota({
          annualQuotaOverride: account.annualQuotaOverride,
          subscription: account.subscriptionStatus
            ? {
                id: account.subscriptionId ?? "",
                status: account.subscriptionStatus,
                plan: getPlan(account.plan)?.id ?? null,
                currentPeriodEnd: null,
                trialEnd: null,
                pastDueSince: null,
              }
            : null,
        })
      : null;
    const trialRunning = !!account && !account.trialPeriodOver && account.trialEndsAt.getTime() > now.getTime();
    return {
      ...t,
      plan: live ? (getPlan(account.plan)?.name ?? "Subscription") : "Trial",
      status: STATUS_LABELS[account?.subscriptionStatus ?? (trialRunning ? "trialing" : "trial_ended")],
      trialEndsAt: account?.trialEndsAt ?? null,
      quotaOverride: account?.annualQuotaOverride ?? null,
      used,
      quota,
      quotaYear: year,
      timeZone,
      connections: connections ? (connections.get(t.id) ?? 0) : null,
      flags: flags[i],
    };
  });
}

// The connections table belongs to another capability and may not exist yet on this branch.
async function countConnections(db: Db, ids: string[]) {
  const result = (await db.execute(sql`select to_regclass('public.connections') is not null as present`)) as unknown as {
    rows: { present: boolean }[];
  };
  if (!result.rows[0]?.present) return null;
  const counts = (await db.execute(
    sql`select tenant_id, count(*)::int as n from connections where tenant_id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) group by tenant_id`,
  )) as unknown as { rows: { tenant_id: string; n: number }[] };
  return new Map(counts.rows.map((r) => [r.tenant_id, Number(r.n)]));
}

async function requireTenantState(db: Db, tenantId: string) {
  const state = await readBillingState(db, tenantId);
  if (!state) throw new NotFoundError("No such agency.");
  return state;
}

/** Give a tenant `days` more trial (from its trial end, or from now when it already ended). */
export async function extendTrial(db: Db, actor: StaffActor, tenantId: string, days: number, now = new Date()) {
  const state = await requireTenantState(db, tenantId);
  const base = Math.max(state.trialEndsAt.getTime(), now.getTime());
  const trialEndsAt = new Date(base + days * DAY_MS);
  await db.transaction(async (tx) => {
    await tx
      .update(billingAccounts)
      .set({ trialEndsAt, trialPeriodOver: false, trialReminderSentAt: null, updatedAt: now })
      .where(eq(billingAccounts.tenantId, tenantId));
    await recordAudit(
      tx,
      {
        tenantId,
        actorUserId: actor.userId,
        actorEmail: actor.email,
        action: "staff.trial_extended",
        subjectType: "billing",
        subjectId: tenantId,
        details: { days, from: state.trialEndsAt.toISOString(), to: trialEndsAt.toISOString() },
      },
      now,
    );
  });
  return trialEndsAt;
}

/** Set (or, with null, clear) a tenant's yearly re-marketing quota. */
export async function setQuotaOverride(db: Db, actor: StaffActor, tenantId: string, quota: number | null, now = new Date()) {
  const state = await requireTenantState(db, tenantId);
  await db.transaction(async (tx) => {
    await tx.update(billingAccounts).set({ annualQuotaOverride: quota, updatedAt: now }).where(eq(billingAccounts.tenantId, tenantId));
    await recordAudit(
      tx,
      {
        tenantId,
        actorUserId: actor.userId,
        actorEmail: actor.email,
        action: "staff.quota_changed",
        subjectType: "billing",
        subjectId: tenantId,
        details: { from: state.annualQuotaOverride, to: quota, effective: effectiveAnnualQuota({ ...state, annualQuotaOverride: quota }) },
      },
      now,
    );
  });
}

/** Turn a flag on or off for one tenant, or back to the environment's default. */
export async function setTenantFlag(
  db: Db,
  actor: StaffActor,
  tenantId: string,
  flag: FlagName,
  value: "on" | "off" | "default",
  now = new Date(),
) {
  await requireTenantState(db, tenantId);
  await db.transaction(async (tx) => {
    await setFlagOverride(tx, tenantId, flag, value === "default" ? null : value === "on");
    await recordAudit(
      tx,
      {
        tenantId,
        actorUserId: actor.userId,
        actorEmail: actor.email,
        action: "staff.flag_changed",
        subjectType: "feature_flag",
        subjectId: flag,
        details: { flag, value },
      },
      now,
    );
  });
}

/** The latest staff actions, for the admin page. cross-tenant: internal staff (requireStaff) see every agency's. */
export async function listStaffAudit(db: Db, limit = 25) {
  return db
    .select({
      id: auditEvents.id,
      action: auditEvents.action,
      actorEmail: auditEvents.actorEmail,
      tenantName: tenants.name,
      details: auditEvents.details,
      createdAt: auditEvents.createdAt,
    })
    .from(auditEvents)
    .leftJoin(tenants, eq(tenants.id, auditEvents.tenantId))
    .where(and(like(auditEvents.action, "staff.%")))
    .orderBy(desc(auditEvents.createdAt))
    .limit(limit);
}
