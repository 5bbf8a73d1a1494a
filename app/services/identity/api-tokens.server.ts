import { randomUUID } from "node:crypto";
import { and, eq, gt, inArray, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { refreshTokens, sessions } from "~/db/schema";
import { randomToken, sha256 } from "~/utils/crypto.server";
import { createLoginSession } from "./login-sessions.server";

// Issue 17: the API's access tokens are short-lived sessions; a refresh token (rotated on every
// use) gets the next one, so a stolen access token is worth minutes and a stolen refresh token is
// caught the moment both thieves and owner use it.

/** How long an API access token lives. */
export const ACCESS_TOKEN_TTL_MS = 15 * 60_000;
/** How long an unused refresh token lives; each refresh starts a new one. */
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3_600_000;

export type ApiTokens = { accessToken: string; refreshToken: string; accessExpiresAt: Date; expiresInSeconds: number };

type Holder = { userId: string; tenantId: string; userAgent?: string | null };

async function issue(db: Db, holder: Holder, familyId: string, now: Date): Promise<ApiTokens> {
  const access = await createLoginSession(db, { ...holder, lifetimeMs: ACCESS_TOKEN_TTL_MS }, now);
  const refreshToken = randomToken();
  await db.insert(refreshTokens).values({
    id: sha256(refreshToken),
    familyId,
    tenantId: holder.tenantId,
    userId: holder.userId,
    sessionId: access.sessionId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
  });
  return {
    accessToken: access.token,
    refreshToken,
    accessExpiresAt: access.idleExpiresAt,
    expiresInSeconds: Math.round((access.idleExpiresAt.getTime() - now.getTime()) / 1000),
  };
}

/** A sign-in over the API: an access token and the first refresh token of a new family. */
export function issueApiTokens(db: Db, holder: Holder, now = new Date()) {
  return issue(db, holder, randomUUID(), now);
}

/**
 * Spend a refresh token for a new access token and its successor. Null when the token is unknown,
 * expired or revoked; a token already spent was copied, so its whole family is revoked first.
 * cross-tenant: a refresh token is found by the hash of its secret, which is what tells us the tenant.
 */
export async function refreshApiTokens(db: Db, refreshToken: string, userAgent: string | null, now = new Date()) {
  const id = sha256(refreshToken);
  // One statement, so two concurrent uses of the same token cannot both win.
  const [spent] = await db
    .update(refreshTokens)
    .set({ spentAt: now })
    .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.spentAt), isNull(refreshTokens.revokedAt), gt(refreshTokens.expiresAt, now)))
    .returning({ familyId: refreshTokens.familyId, userId: refreshTokens.userId, tenantId: refreshTokens.tenantId });
  if (spent) return issue(db, { userId: spent.userId, tenantId: spent.tenantId, userAgent }, spent.familyId, now);

  // cross-tenant: the same lookup by the hash of the presented secret.
  const [reused] = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.id, id), isNotNull(refreshTokens.spentAt)));
  if (reused) await revokeFamily(db, reused.familyId, now);
  return null;
}

/**
 * Revoke every refresh token of a family and every access token they issued.
 * cross-tenant: a family id is only ever known from a row found by its holder's secret.
 */
async function revokeFamily(db: Db, familyId: string, now: Date) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
  const sessionIds = (
    await db.select({ sessionId: refreshTokens.sessionId }).from(refreshTokens).where(eq(refreshTokens.familyId, familyId))
  ).flatMap((r) => (r.sessionId ? [r.sessionId] : []));
  if (sessionIds.length > 0) {
    await db
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(inArray(sessions.id, sessionIds), isNull(sessions.revokedAt)));
  }
}

/**
 * Sign out an API client: the family its access token belongs to (and so every token of it).
 * A session not issued by the API (none in the family table) is revoked alone.
 * cross-tenant: the session id is the hash of the caller's own secret token.
 */
export async function revokeApiSession(db: Db, sessionId: string, now = new Date()) {
  const [member] = await db.select({ familyId: refreshTokens.familyId }).from(refreshTokens).where(eq(refreshTokens.sessionId, sessionId));
  if (member) await revokeFamily(db, member.familyId, now);
  await db.update(sessions).set({ revokedAt: now }).where(eq(sessions.id, sessionId));
}
