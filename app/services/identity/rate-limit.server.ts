import { eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { rateLimits } from "~/db/schema";
import { getEnv } from "~/env.server";

export type Limit = { key: string; max: number; windowMs: number };

/** True when `key` has reached `max` hits in its current window. */
export async function isRateLimited(db: Db, limit: Limit, now = new Date()) {
  const [row] = await db
    .select({ count: rateLimits.count, windowStart: rateLimits.windowStart })
    .from(rateLimits)
    .where(eq(rateLimits.key, limit.key));
  if (!row) return false;
  if (now.getTime() - row.windowStart.getTime() >= limit.windowMs) return false;
  return row.count >= limit.max;
}

/** Count one hit; a window older than `windowMs` starts over. One statement, so instances agree. */
export async function hitRateLimit(db: Db, limit: Limit, now = new Date()) {
  return (await hitRateLimitWindow(db, limit, now)).count;
}

/** The same, answering the window's start too (for a `Retry-After`). */
export async function hitRateLimitWindow(db: Db, limit: Limit, now = new Date()) {
  const windowFloor = new Date(now.getTime() - limit.windowMs).toISOString();
  const nowIso = now.toISOString();
  const [row] = await db
    .insert(rateLimits)
    .values({ key: limit.key, windowStart: now, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.windowStart} <= ${windowFloor}::timestamptz then 1 else ${rateLimits.count} + 1 end`,
        windowStart: sql`case when ${rateLimits.windowStart} <= ${windowFloor}::timestamptz then ${nowIso}::timestamptz else ${rateLimits.windowStart} end`,
      },
    })
    .returning({ count: rateLimits.count, windowStart: rateLimits.windowStart });
  return row;
}

export async function clearRateLimit(db: Db, key: string) {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

/** How many hits `limit.key` has in its current window (0 once that window has passed). */
export async function hitsInWindow(db: Db, limit: Limit, now = new Date()) {
  const [row] = await db
    .select({ count: rateLimits.count, windowStart: rateLimits.windowStart })
    .from(rateLimits)
    .where(eq(rateLimits.key, limit.key));
  if (!row || now.getTime() - row.windowStart.getTime() >= limit.windowMs) return 0;
  return row.count;
}

const FIFTEEN_MINUTES = 15 * 60_000;

/**
 * The counters of one kind of attempt (a password, a code). `hard` limits refuse with 429 once
 * reached: this account from this address, and this address across accounts, so a guesser only
 * ever locks out itself. `account` counts failures from every address and is never refused: it
 * slows each attempt on the account down (attemptDelayMs), which nobody can turn into a lock-out.
 */
export type AttemptLimits = { hard: Limit[]; account: Limit };

/** Failed sign-ins, per e-mail (case-insensitive) and client address, in 15-minute windows. */
export function loginLimits(email: string, ip: string): AttemptLimits {
  const env = getEnv();
  const account = email.trim().toLowerCase();
  return {
    hard: [
      { key: `login:account-ip:${account}|${ip}`, max: env.RATE_LIMIT_LOGIN_PER_EMAIL_IP, windowMs: FIFTEEN_MINUTES },
      { key: `login:ip:${ip}`, max: env.RATE_LIMIT_LOGIN_PER_IP, windowMs: FIFTEEN_MINUTES },
    ],
    account: { key: `login:account:${account}`, max: Number.MAX_SAFE_INTEGER, windowMs: FIFTEEN_MINUTES },
  };
}

/** Wrong codes, the same way (beyond each code's own 5 attempts). */
export function codeLimits(email: string, ip: string): AttemptLimits {
  const env = getEnv();
  const account = email.trim().toLowerCase();
  return {
    hard: [
      { key: `code:account-ip:${account}|${ip}`, max: env.RATE_LIMIT_CODE_PER_EMAIL_IP, windowMs: FIFTEEN_MINUTES },
      { key: `code:ip:${ip}`, max: env.RATE_LIMIT_CODE_PER_IP, windowMs: FIFTEEN_MINUTES },
    ],
    account: { key: `code:account:${account}`, max: Number.MAX_SAFE_INTEGER, windowMs: FIFTEEN_MINUTES },
  };
}

/**
 * The wait before an attempt on an account with `failures` recent failures from any address:
 * none for the first LOGIN_SLOWDOWN_AFTER, then 0.5 s doubling up to LOGIN_SLOWDOWN_MAX_MS. It is
 * taken before the password is checked, whatever the outcome, so a fast answer never gives a right
 * guess away, and the owner is slowed, never refused.
 */
export function attemptDelayMs(failures: number) {
  const env = getEnv();
  const over = failures - env.LOGIN_SLOWDOWN_AFTER + 1;
  if (over <= 0) return 0;
  return Math.min(env.LOGIN_SLOWDOWN_MAX_MS, 500 * 2 ** Math.min(over - 1, 20));
}

export const TOO_MANY_ATTEMPTS = "Too many attempts. Please wait 15 minutes and try again.";
