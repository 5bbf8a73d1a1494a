import { timingSafeEqual } from "node:crypto";
import { and, desc, eq, isNull, lt, or } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { apiKeys, tenants, users } from "~/db/schema";
import { clock, type TenantContext } from "~/services/platform/context.server";
import { NotFoundError } from "~/services/platform/errors.server";
import { randomToken, sha256 } from "~/utils/crypto.server";
import { hitRateLimitWindow, type Limit } from "./rate-limit.server";

// Issue 17: API keys for integrations, per user. The secret is shown once; only its sha-256 is
// kept (a 256-bit random secret needs no slow hash). The prefix is public: it finds the row and
// tells keys apart on the settings page.

export type ApiKeyScope = "read" | "write";

const KEY_PATTERN = /^rmk_([A-Za-z0-9]{8})_([A-Za-z0-9_-]{43})$/;
/** Requests per key per minute before 429. */
export const API_KEY_REQUESTS_PER_MINUTE = 120;
// Writing the last-used time on every request would write on every call; once a minute will do.
const LAST_USED_INTERVAL_MS = 60_000;

/** Whether a bearer token has the shape of an API key (rather than an access token). */
export const isApiKey = (token: string) => token.startsWith("rmk_");

function newPrefix() {
  return randomToken(12)
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, 8)
    .padEnd(8, "0");
}

/** Create a key for the signed-in user; the returned `secret` is the only time it is seen. */
export async function createApiKey(ctx: TenantContext, input: { name: string; scope: ApiKeyScope }) {
  const prefix = newPrefix();
  const secret = randomToken(32);
  const [row] = await ctx.db
    .insert(apiKeys)
    .values({
      tenantId: ctx.tenantId,
      userId: ctx.userId,
      name: input.name,
      scope: input.scope,
      prefix,
      secretHash: sha256(secret),
      createdAt: clock(ctx),
    })
    .returning({ id: apiKeys.id });
  return { id: row.id, prefix, secret: `rmk_${prefix}_${secret}` };
}

/** The signed-in user's live keys, newest first. */
export async function listApiKeys(ctx: TenantContext) {
  return ctx.db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      scope: apiKeys.scope,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.tenantId, ctx.tenantId), eq(apiKeys.userId, ctx.userId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt));
}

/** Revoke one of the signed-in user's keys; another user's or agency's id is not found. */
export async function revokeApiKey(ctx: TenantContext, id: string) {
  const revoked = await ctx.db
    .update(apiKeys)
    .set({ revokedAt: clock(ctx) })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.tenantId, ctx.tenantId), eq(apiKeys.userId, ctx.userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (revoked.length === 0) throw new NotFoundError("That API key was not found.");
}

export type ApiKeyHolder = {
  keyId: string;
  scope: ApiKeyScope;
  user: { id: string; email: string; name: string; role: "admin" | "staff" };
  tenant: { id: string; name: string; isDemo: boolean; timeZone: string };
};

/**
 * The live key a bearer `rmk_…` token names, or null (malformed, unknown, revoked, wrong secret).
 * cross-tenant: a key is found by its public prefix and proven by the hash of its secret, which is what tells us the tenant.
 */
export async function resolveApiKey(db: Db, token: string, now = new Date()): Promise<ApiKeyHolder | null> {
  const match = KEY_PATTERN.exec(token);
  if (!match) return null;
  const [, prefix, secret] = match;
  const [row] = await db
    .select({
      id: apiKeys.id,
      scope: apiKeys.scope,
      secretHash: apiKeys.secretHash,
      user: { id: users.id, email: users.email, name: users.name, role: users.role },
      tenant: { id: tenants.id, name: tenants.name, isDemo: tenants.isDemo, timeZone: tenants.timeZone },
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .innerJoin(tenants, eq(tenants.id, apiKeys.tenantId))
    .where(and(eq(apiKeys.prefix, prefix), isNull(apiKeys.revokedAt)));
  if (!row || !timingSafeEqual(Buffer.from(row.secretHash), Buffer.from(sha256(secret)))) return null;
  // cross-tenant: the row just proven by its secret, by its id; guarded so most calls write nothing.
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(
      and(eq(apiKeys.id, row.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(now.getTime() - LAST_USED_INTERVAL_MS)))),
    );
  return { keyId: row.id, scope: row.scope, user: row.user, tenant: row.tenant };
}

const apiKeyLimit = (keyId: string): Limit => ({ key: `api-key:${keyId}`, max: API_KEY_REQUESTS_PER_MINUTE, windowMs: 60_000 });

/** Count one request of a key; the seconds to wait when it is over its budget, else null. */
export async function takeApiKeyRequest(db: Db, keyId: string, now = new Date()) {
  const limit = apiKeyLimit(keyId);
  const { count, windowStart } = await hitRateLimitWindow(db, limit, now);
  if (count <= limit.max) return null;
  return Math.max(1, Math.ceil((windowStart.getTime() + limit.windowMs - now.getTime()) / 1000));
}
