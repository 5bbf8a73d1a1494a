import { addDays } from "date-fns";
import { and, count, eq, gte, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "~/db/client.server";
import { employeeAccounts, notifications, renewalFlags, tasks, tenants, users } from "~/db/schema";
import { getEnv } from "~/env.server";
import { getRemarketAllowance } from "~/services/billing/quota.server";
import { calendarDate } from "~/services/renewals/forecast.server";
import { formatCount, formatDate, formatNumber, formatPercent } from "~/utils/format";
import { sendEmail } from "./email.server";
import type { TenantContext } from "./context.server";
import { notify } from "./notifications.server";

// "What needs me today": one notification per user per day, at the first run after DIGEST_HOUR in
// the agency's time zone, with renewals newly flagged, the user's tasks due this week, and the
// re-market quota once 80 % of it is used. Nothing to say, no digest. By e-mail too when a mail
// server is configured and the user has not turned it off (Settings ▸ Account).

export const DAILY_DIGEST_JOB = "notifications.daily-digest";
/** The local hour from which the day's digest goes out. */
export const DIGEST_HOUR = 7;
const QUOTA_WARNING_SHARE = 0.8;
// A digest within this long counts as today's (the job runs hourly; the next day's is ~24 h later).
const ALREADY_SENT_MS = 20 * 3_600_000;
const DIGEST_KIND = "digest";

export type DigestFacts = {
  newlyFlagged: number;
  tasksDue: number;
  quota: { used: number; quota: number; year: number } | null;
};

/** The digest's lines, or null when nothing needs the user today. */
export function composeDigest(facts: DigestFacts) {
  const lines: string[] = [];
  if (facts.newlyFlagged > 0) lines.push(`${formatCount(facts.newlyFlagged, "renewal")} newly flagged for re-marketing.`);
  if (facts.tasksDue > 0) lines.push(`${formatCount(facts.tasksDue, "task")} of yours due this week.`);
  const q = facts.quota;
  if (q && q.quota > 0 && q.used >= q.quota * QUOTA_WARNING_SHARE) {
    lines.push(
      q.used >= q.quota
        ? `All ${formatNumber(q.quota)} re-markets of ${q.year} are used.`
        : `${formatNumber(q.used)} of ${formatNumber(q.quota)} re-markets of ${q.year} used (${formatPercent((q.used / q.quota) * 100, 0)}).`,
    );
  }
  if (lines.length === 0) return null;
  return { title: "What needs you today", message: lines.join(" "), lines };
}

/** The `notifications.daily-digest` job: every agency whose local time has reached DIGEST_HOUR. */
export async function sendDailyDigests(db: Db, now = new Date()) {
  const agencies = await db.select({ id: tenants.id, timeZone: tenants.timeZone, isDemo: tenants.isDemo }).from(tenants);
  let sent = 0;
  for (const agency of agencies) {
    if (localHour(now, agency.timeZone) < DIGEST_HOUR) continue;
    sent += await sendAgencyDigest(db, agency, now);
  }
  return sent;
}

async function sendAgencyDigest(db: Db, agency: { id: string; timeZone: string; isDemo: boolean }, now: Date) {
  const members = await db
    .select({ id: users.id, name: users.name, email: users.email, digestEmail: users.digestEmail })
    .from(users)
    .where(eq(users.tenantId, agency.id));
  const recent = await db
    .selectDistinct({ userId: notifications.userId })
    .from(notifications)
    .where(
      and(
        eq(notifications.tenantId, agency.id),
        eq(notifications.kind, DIGEST_KIND),
        gte(notifications.createdAt, new Date(now.getTime() - ALREADY_SENT_MS)),
      ),
    );
  const done = new Set(recent.map((r) => r.userId));
  const due = members.filter((m) => !done.has(m.id));
  if (due.length === 0) return 0;

  const today = calendarDate(now, agency.timeZone);
  const [[{ newlyFlagged }], allowance, taskCounts] = await Promise.all([
    db
      .select({ newlyFlagged: count() })
      .from(renewalFlags)
      .where(
        and(
          eq(renewalFlags.tenantId, agency.id),
          eq(renewalFlags.status, "open"),
          gte(renewalFlags.flaggedAt, new Date(now.getTime() - 24 * 3_600_000)),
        ),
      ),
    getRemarketAllowance(db, agency.id, now),
    openTasksDueByUser(db, agency.id, today, calendarDate(addDays(now, 7), agency.timeZone)),
  ]);
  const mail = Boolean(getEnv().SMTP_URL) && !agency.isDemo;
  let sent = 0;
  for (const user of due) {
    const digest = composeDigest({
      newlyFlagged,
      tasksDue: taskCounts.get(user.id) ?? 0,
      quota: { used: allowance.used, quota: allowance.quota, year: allowance.quotaYear },
    });
    if (!digest) continue;
    await notify(db, { tenantId: agency.id, userId: user.id, kind: DIGEST_KIND, ...digest, link: "/remarket" }, now);
    if (mail && user.digestEmail) {
      await sendEmail(db, {
        to: user.email,
        subject: `Remarket: ${digest.title.toLowerCase()}`,
        text: `${digest.lines.join("\n")}\n\nOpen the worklist: ${getEnv().appUrl}/remarket\n\nTurn these e-mails off under Settings, Account.`,
      });
    }
    sent++;
  }
  return sent;
}

/** Open tasks due from `from` to `to` (inclusive), counted by the Remarket user each is assigned to. */
async function openTasksDueByUser(db: Db, tenantId: string, from: string, to: string) {
  const rows = await db
    .select({ userId: users.id, n: count() })
    .from(tasks)
    .leftJoin(employeeAccounts, eq(employeeAccounts.id, tasks.employeeAccountId))
    .innerJoin(users, and(eq(users.tenantId, tasks.tenantId), assignedTo()))
    .where(and(eq(tasks.tenantId, tenantId), eq(tasks.status, "open"), gte(tasks.dueDate, from), lte(tasks.dueDate, to)))
    .groupBy(users.id);
  return new Map(rows.map((r) => [r.userId, Number(r.n)]));
}

/**
 * A task's assignee is a person in the AMS (a name, maybe an employee account with an e-mail); it
 * is this Remarket user when the e-mail or, failing one, the name matches (case aside).
 */
function assignedTo() {
  return or(
    sql`lower(${users.email}) = lower(${employeeAccounts.email})`,
    and(isNull(employeeAccounts.email), sql`lower(${users.name}) = lower(${tasks.assignee})`),
  )!;
}

/** When a task is created for someone who uses Remarket, tell them (not when they created it themselves). */
export async function notifyTaskAssignee(
  tx: DbOrTx,
  input: { tenantId: string; taskId: string; title: string; dueDate: string; actingUserId?: string },
  now: Date,
) {
  const assignees = await tx
    .selectDistinct({ id: users.id })
    .from(tasks)
    .leftJoin(employeeAccounts, eq(employeeAccounts.id, tasks.employeeAccountId))
    .innerJoin(users, and(eq(users.tenantId, tasks.tenantId), assignedTo()))
    .where(and(eq(tasks.tenantId, input.tenantId), inArray(tasks.id, [input.taskId])));
  for (const { id } of assignees) {
    if (id === input.actingUserId) continue;
    await notify(
      tx,
      {
        tenantId: input.tenantId,
        userId: id,
        kind: "task",
        title: "A task for you",
        message: `${input.title}, due ${formatDate(input.dueDate)}.`,
        link: "/tasks",
      },
      now,
    );
  }
}

function localHour(at: Date, timeZone: string) {
  return Number(new Intl.DateTimeFormat("en-GB", { hour: "2-digit", hourCycle: "h23", timeZone }).format(at));
}

/** Whether the signed-in user gets the digest by e-mail as well. */
export async function getDigestEmail(ctx: Pick<TenantContext, "db" | "tenantId" | "userId">) {
  const [row] = await ctx.db
    .select({ digestEmail: users.digestEmail })
    .from(users)
    .where(and(eq(users.tenantId, ctx.tenantId), eq(users.id, ctx.userId)));
  return row?.digestEmail ?? true;
}

export async function setDigestEmail(ctx: Pick<TenantContext, "db" | "tenantId" | "userId">, on: boolean) {
  await ctx.db
    .update(users)
    .set({ digestEmail: on })
    .where(and(eq(users.tenantId, ctx.tenantId), eq(users.id, ctx.userId)));
}
