import { eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { rateLimits } from "~/db/schema";

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
    .returning({ count: rateLimits.count });
  return row.count;
}

export async function clearRateLimit(db: Db, key: string) {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

const FIFTEEN_MINUTES = 15 * 60_000;

/** Failed sign-ins allowed per e-mail and per client address in 15 minutes. */
export const loginLimits = (email: string, ip: string): Limit[] => [
  { key: `login:email:${email.toLowerCase()}`, max: Number(process.env.RATE_LIMIT_LOGIN_PER_EMAIL ?? 5), windowMs: FIFTEEN_MINUTES },
  { key: `login:ip:${ip}`, max: Number(process.env.RATE_LIMIT_LOGIN_PER_IP ?? 50), windowMs: FIFTEEN_MINUTES },
];

/** Wrong codes allowed per e-mail and per client address in 15 minutes (beyond a code's own 5 attempts). */
export const codeLimits = (email: string, ip: string): Limit[] => [
  { key: `code:email:${email.toLowerCase()}`, max: 10, windowMs: FIFTEEN_MINUTES },
  { key: `code:ip:${ip}`, max: Number(process.env.RATE_LIMIT_CODE_PER_IP ?? 50), windowMs: FIFTEEN_MINUTES },
];

export const TOO_MANY_ATTEMPTS = "Too many attempts. Please wait 15 minutes and try again.";
