import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { AnyPgColumn, AnyPgTable } from "drizzle-orm/pg-core";
import type { Db } from "~/db/client.server";
import { embeddedPrepared } from "~/db/embedded-cache/prepared.server";
import { billingAccounts, featureFlagOverrides, notifications, refreshTokens, sessions, tenants, users } from "~/db/schema";
import { getEnv } from "~/env.server";
import { randomToken, sha256 } from "~/utils/crypto.server";
import { noteSignedIn } from "~/services/platform/log.server";

export type SessionUser = {
  sessionId: string;
  idleExpiresAt: Date;
  user: { id: string; email: string; name: string; role: "admin" | "staff" };
  tenant: {
    id: string;
    name: string;
    isDemo: boolean;
    timeZone: string;
    createdAt: Date;
    /** The tenant's feature-flag overrides (see feature-flags.server.ts), read with the session. */
    flagOverrides: Record<string, boolean>;
  };
  /** What the page chrome shows, read by the same statement (see shell.server.ts). */
  chrome: SessionChrome;
};

/** The billing facts seed custom:paid is derived from (null: the tenant predates billing). */
export type ChromeBilling = {
  trialEndsAt: Date;
  trialPeriodOver: boolean;
  subscriptionStatus: string | null;
  pastDueSince: Date | null;
};

export type SessionChrome = { billing: ChromeBilling | null; unreadNotifications: number };

// Sliding the idle expiry on every request would write on every page view; once a minute is
// precise enough for a 30-minute idle window.
const TOUCH_INTERVAL_MS = 60_000;

function windows() {
  const env = getEnv();
  return { idleMs: env.SESSION_IDLE_MINUTES * 60_000, maxMs: env.SESSION_MAX_AGE_HOURS * 3_600_000 };
}

/**
 * Start a session for a user; always a fresh id, so a planted cookie cannot be fixed.
 * `lifetimeMs` shortens the absolute expiry (the API's access tokens, api-tokens.server.ts).
 */
export async function createLoginSession(
  db: Db,
  input: { userId: string; tenantId: string; userAgent?: string | null; lifetimeMs?: number },
  now = new Date(),
) {
  const token = randomToken();
  const { idleMs, maxMs } = windows();
  const expiresAt = new Date(now.getTime() + Math.min(maxMs, input.lifetimeMs ?? maxMs));
  const idleExpiresAt = new Date(Math.min(now.getTime() + idleMs, expiresAt.getTime()));
  await db.insert(sessions).values({
    id: sha256(token),
    userId: input.userId,
    tenantId: input.tenantId,
    expiresAt,
    idleExpiresAt,
    userAgent: input.userAgent?.slice(0, 300) ?? null,
  });
  return { token, sessionId: sha256(token), idleExpiresAt };
}

/** "table"."column", always qualified: drizzle leaves columns bare in a one-table select. */
const col = (table: AnyPgTable, column: AnyPgColumn) => sql`${table}.${sql.identifier(column.name)}`;

const userJson = sql`(select json_build_object(
  'id', ${col(users, users.id)}, 'email', ${col(users, users.email)},
  'name', ${col(users, users.name)}, 'role', ${col(users, users.role)}
) from ${users} where ${col(users, users.id)} = ${col(sessions, sessions.userId)})`;

const flagOverridesJson = sql`(select coalesce(json_object_agg(
  ${col(featureFlagOverrides, featureFlagOverrides.flag)}, ${col(featureFlagOverrides, featureFlagOverrides.enabled)}
), '{}'::json) from ${featureFlagOverrides} where ${col(featureFlagOverrides, featureFlagOverrides.tenantId)} = ${col(tenants, tenants.id)})`;

const tenantJson = sql`(select json_build_object(
  'id', ${col(tenants, tenants.id)}, 'name', ${col(tenants, tenants.name)}, 'isDemo', ${col(tenants, tenants.isDemo)},
  'timeZone', ${col(tenants, tenants.timeZone)}, 'createdAt', ${col(tenants, tenants.createdAt)},
  'flagOverrides', ${flagOverridesJson}
) from ${tenants} where ${col(tenants, tenants.id)} = ${col(sessions, sessions.tenantId)})`;

/** The bell says "99+" beyond 99: every signed-in page counts no further than this. */
export const UNREAD_COUNT_CAP = 100;

// Unread for the bell: tenant-wide notifications and the user's own (notifications.server.ts visibleTo),
// counted up to the cap (a tenant with thousands unread would have them counted on every page).
const unreadCount = sql`(select count(*)::int from (select 1 from ${notifications}
  where ${col(notifications, notifications.tenantId)} = ${col(sessions, sessions.tenantId)}
    and (${col(notifications, notifications.userId)} is null or ${col(notifications, notifications.userId)} = ${col(sessions, sessions.userId)})
    and ${col(notifications, notifications.readAt)} is null
  limit ${sql.raw(String(UNREAD_COUNT_CAP))}) unread)`;

const billingJson = sql`(select json_build_object(
  'trialEndsAt', ${col(billingAccounts, billingAccounts.trialEndsAt)},
  'trialPeriodOver', ${col(billingAccounts, billingAccounts.trialPeriodOver)},
  'subscriptionStatus', case when ${col(billingAccounts, billingAccounts.subscriptionId)} is not null
    then ${col(billingAccounts, billingAccounts.subscriptionStatus)} end,
  'pastDueSince', ${col(billingAccounts, billingAccounts.pastDueSince)}
) from ${billingAccounts} where ${col(billingAccounts, billingAccounts.tenantId)} = ${col(sessions, sessions.tenantId)})`;

type TenantJson = Omit<SessionUser["tenant"], "createdAt"> & { createdAt: string };
type BillingJson = { trialEndsAt: string; trialPeriodOver: boolean; subscriptionStatus: string | null; pastDueSince: string | null };

/**
 * Every signed-in request runs this lookup, so it is built once per database (a prepared
 * statement on PostgreSQL) and is one statement that also brings what every page's shell needs
 * (flag overrides, the billing facts behind the paid flag, the unread count): one round trip per
 * page instead of three, which is most of a signed-in page's database time on the embedded
 * database. Scalar subqueries instead of a join: on PGlite, planning the join cost more than the
 * lookups themselves.
 * cross-tenant: a session is found by the hash of its secret token, which is what tells us the tenant.
 */
function sessionLookupQuery(db: Db) {
  return (
    db
      .select({
        idleExpiresAt: sql<Date>`${col(sessions, sessions.idleExpiresAt)}`.mapWith(sessions.idleExpiresAt).as("idleExpiresAt"),
        expiresAt: sql<Date>`${col(sessions, sessions.expiresAt)}`.mapWith(sessions.expiresAt).as("expiresAt"),
        user: sql<SessionUser["user"] | null>`${userJson}`.as("user"),
        tenant: sql<TenantJson | null>`${tenantJson}`.as("tenant"),
        billing: sql<BillingJson | null>`${billingJson}`.as("billing"),
        unread: sql<number>`${unreadCount}`.as("unread"),
      })
      .from(sessions)
      // The id is the primary key: at most one row, and no LIMIT parameter to bind.
      .where(and(eq(sessions.id, sql.placeholder("id")), isNull(sessions.revokedAt)))
  );
}

type SessionRow = Awaited<ReturnType<ReturnType<typeof sessionLookupQuery>["execute"]>>[number];

const buildSessionLookup = (db: Db) => sessionLookupQuery(db).prepare("resolve_session");
const lookups = new WeakMap<Db, ReturnType<typeof buildSessionLookup>>();

// The embedded database's copy of the same statement, prepared in SQL (see prepared.server.ts).
const embeddedSessionLookup = embeddedPrepared<SessionRow>({
  name: "resolve_session_v1",
  statement: sessionLookupQuery,
  paramType: "text",
  literalPattern: /^[0-9a-f]{64}$/,
  cached: true,
});

function sessionLookup(db: Db) {
  let query = lookups.get(db);
  if (!query) {
    query = buildSessionLookup(db);
    lookups.set(db, query);
  }
  return query;
}

/**
 * The user behind a session token, or null when it is unknown, revoked, or past its idle or
 * absolute expiry. A live session has its idle window renewed from its row (the server-side
 * form of seed §8's refresh-once rule); an expired one is never revived.
 * cross-tenant: a session is found by the hash of its secret token, which is what tells us the tenant.
 */
export async function resolveSession(db: Db, token: string, now = new Date()): Promise<SessionUser | null> {
  const id = sha256(token);
  const [row] = (await embeddedSessionLookup(db, id)) ?? (await sessionLookup(db).execute({ id }));
  if (!row?.user || !row.tenant) return null;
  if (row.expiresAt <= now || row.idleExpiresAt <= now) return null;

  const { idleMs } = windows();
  const wanted = new Date(Math.min(now.getTime() + idleMs, row.expiresAt.getTime()));
  let idleExpiresAt = row.idleExpiresAt;
  if (wanted.getTime() - row.idleExpiresAt.getTime() >= TOUCH_INTERVAL_MS) {
    // Guarded so a session revoked or expired between the read and now is not renewed.
    const renewed = await db
      .update(sessions)
      .set({ idleExpiresAt: wanted, renewedAt: now })
      .where(and(eq(sessions.id, id), isNull(sessions.revokedAt), gt(sessions.idleExpiresAt, now)))
      .returning({ idleExpiresAt: sessions.idleExpiresAt });
    if (renewed.length === 0) return null;
    idleExpiresAt = wanted;
  }
  noteSignedIn(row.tenant.id, row.user.id);
  return {
    sessionId: id,
    idleExpiresAt,
    user: row.user,
    tenant: { ...row.tenant, createdAt: new Date(row.tenant.createdAt) },
    chrome: { billing: row.billing && toChromeBilling(row.billing), unreadNotifications: Number(row.unread) },
  };
}

function toChromeBilling(json: BillingJson): ChromeBilling {
  return {
    trialEndsAt: new Date(json.trialEndsAt),
    trialPeriodOver: json.trialPeriodOver,
    subscriptionStatus: json.subscriptionStatus,
    pastDueSince: json.pastDueSince ? new Date(json.pastDueSince) : null,
  };
}

/**
 * Renew the idle window now (the inactivity modal's Reset).
 * cross-tenant: the session id is the hash of the caller's own secret token.
 */
export async function touchSession(db: Db, sessionId: string, now = new Date()) {
  const { idleMs } = windows();
  const [row] = await db
    .update(sessions)
    .set({
      idleExpiresAt: sql`least(${new Date(now.getTime() + idleMs).toISOString()}::timestamptz, ${sessions.expiresAt})`,
      renewedAt: now,
    })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.idleExpiresAt, now)))
    .returning({ idleExpiresAt: sessions.idleExpiresAt });
  return row?.idleExpiresAt ?? null;
}

/** Sign out one session. cross-tenant: the session id is the hash of the caller's own secret token. */
export async function revokeSession(db: Db, sessionId: string, now = new Date()) {
  await db.update(sessions).set({ revokedAt: now }).where(eq(sessions.id, sessionId));
}

/**
 * Sign out everywhere: every live session of the user, and the API's refresh tokens, so no
 * signed-in client can get a new access token either (API keys are kept: Settings ▸ API keys).
 * cross-tenant: every session of one user, by their own id (the user belongs to exactly one tenant).
 */
export async function revokeAllSessions(db: Db, userId: string, now = new Date()) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return revoked.length;
}
