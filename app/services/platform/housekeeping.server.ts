import { and, isNotNull, lt, or } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { idempotencyKeys, rateLimits, refreshTokens, sessions, verificationCodes } from "~/db/schema";
import type { FileStorage } from "../files/storage.server";

const HOUR_MS = 3_600_000;

/**
 * How long spent records are kept. A form token only has to outlive a double click or a retry
 * after a dropped response; a rate-limit window is 15 minutes; ended sessions and used codes
 * are kept a week so "signed out everywhere" and support questions can still be traced. A spent
 * refresh token stays until it would have expired, so presenting it again is still caught as reuse.
 */
export const RETENTION = {
  idempotencyKeysMs: 24 * HOUR_MS,
  rateLimitWindowsMs: 24 * HOUR_MS,
  endedSessionsMs: 7 * 24 * HOUR_MS,
  spentCodesMs: 7 * 24 * HOUR_MS,
};

/**
 * Delete records nobody can use any more; returns how many of each went. Run by a recurring job.
 * cross-tenant: housekeeping deletes every tenant's expired sessions, codes, tokens and keys by age alone.
 */
export async function pruneSpentRecords(db: Db, now = new Date()) {
  const before = (ms: number) => new Date(now.getTime() - ms);
  const count = (rows: unknown[]) => rows.length;
  const idempotency = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, before(RETENTION.idempotencyKeysMs)))
    .returning({ key: idempotencyKeys.key });
  const limits = await db
    .delete(rateLimits)
    .where(lt(rateLimits.windowStart, before(RETENTION.rateLimitWindowsMs)))
    .returning({ key: rateLimits.key });
  const sessionCutoff = before(RETENTION.endedSessionsMs);
  const ended = await db
    .delete(sessions)
    .where(
      or(
        lt(sessions.expiresAt, sessionCutoff),
        lt(sessions.idleExpiresAt, sessionCutoff),
        and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, sessionCutoff)),
      ),
    )
    .returning({ id: sessions.id });
  const tokens = await db
    .delete(refreshTokens)
    .where(
      or(lt(refreshTokens.expiresAt, sessionCutoff), and(isNotNull(refreshTokens.revokedAt), lt(refreshTokens.revokedAt, sessionCutoff))),
    )
    .returning({ id: refreshTokens.id });
  const codes = await db
    .delete(verificationCodes)
    .where(lt(verificationCodes.expiresAt, before(RETENTION.spentCodesMs)))
    .returning({ id: verificationCodes.id });
  return {
    idempotencyKeys: count(idempotency),
    rateLimits: count(limits),
    sessions: count(ended),
    refreshTokens: count(tokens),
    verificationCodes: count(codes),
  };
}

/**
 * Temporary upload objects no live request can own (a process killed mid-upload left them):
 * older than `maxAgeMs` (temporaryUploadMaxAgeMs: at least an hour). Run at start-up and by
 * housekeeping, on local disk and S3 alike.
 */
export async function removeStaleUploads(storage: FileStorage, maxAgeMs: number, now = new Date()) {
  return storage.removeTemporary(new Date(now.getTime() - maxAgeMs));
}
