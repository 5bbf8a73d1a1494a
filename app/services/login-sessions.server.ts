import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { sessions, tenants, users } from "~/db/schema";
import { getEnv } from "~/env.server";
import { randomToken, sha256 } from "~/utils/crypto.server";

export type SessionUser = {
  sessionId: string;
  idleExpiresAt: Date;
  user: { id: string; email: string; name: string; role: "admin" | "staff" };
  tenant: { id: string; name: string; isDemo: boolean; timeZone: string; createdAt: Date };
};

// Sliding the idle expiry on every request would write on every page view; once a minute is
// precise enough for a 30-minute idle window.
const TOUCH_INTERVAL_MS = 60_000;

function windows() {
  const env = getEnv();
  return { idleMs: env.SESSION_IDLE_MINUTES * 60_000, maxMs: env.SESSION_MAX_AGE_HOURS * 3_600_000 };
}

/** Start a session for a user; always a fresh id, so a planted cookie cannot be fixed. */
export async function createLoginSession(
  db: Db,
  input: { userId: string; tenantId: string; userAgent?: string | null },
  now = new Date(),
) {
  const token = randomToken();
  const { idleMs, maxMs } = windows();
  const expiresAt = new Date(now.getTime() + maxMs);
  const idleExpiresAt = new Date(Math.min(now.getTime() + idleMs, expiresAt.getTime()));
  await db.insert(sessions).values({
    id: sha256(token),
    userId: input.userId,
    tenantId: input.tenantId,
    expiresAt,
    idleExpiresAt,
    userAgent: input.userAgent?.slice(0, 300) ?? null,
  });
  return { token, idleExpiresAt };
}

/**
 * The user behind a session token, or null when it is unknown, revoked, or past its idle or
 * absolute expiry. A live session has its idle window renewed from its row (the server-side
 * form of seed §8's refresh-once rule); an expired one is never revived.
 */
export async function resolveSession(db: Db, token: string, now = new Date()): Promise<SessionUser | null> {
  const id = sha256(token);
  const [row] = await db
    .select({
      idleExpiresAt: sessions.idleExpiresAt,
      expiresAt: sessions.expiresAt,
      user: { id: users.id, email: users.email, name: users.name, role: users.role },
      tenant: {
        id: tenants.id,
        name: tenants.name,
        isDemo: tenants.isDemo,
        timeZone: tenants.timeZone,
        createdAt: tenants.createdAt,
      },
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(tenants, eq(tenants.id, sessions.tenantId))
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)))
    .limit(1);
  if (!row) return null;
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
  return { sessionId: id, idleExpiresAt, user: row.user, tenant: row.tenant };
}

/** Renew the idle window now (the inactivity modal's Reset). */
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

export async function revokeSession(db: Db, sessionId: string, now = new Date()) {
  await db.update(sessions).set({ revokedAt: now }).where(eq(sessions.id, sessionId));
}

/** Sign out everywhere: every live session of the user. */
export async function revokeAllSessions(db: Db, userId: string, now = new Date()) {
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return revoked.length;
}
