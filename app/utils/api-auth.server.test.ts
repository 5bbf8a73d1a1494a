import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { apiKeys } from "~/db/schema";
import { API_KEY_REQUESTS_PER_MINUTE, createApiKey, revokeApiKey } from "~/services/identity/api-keys.server";
import { hitRateLimit } from "~/services/identity/rate-limit.server";
import { action, loader } from "~/routes/api.$";
import { TEST_PASSWORD, createTestTenant } from "../../tests/support/factories";

// The API over HTTP-shaped requests: sign-in tokens with refresh, and API keys as bearers.

const call = (method: string, path: string, options: { bearer?: string; body?: unknown } = {}) => {
  const headers: Record<string, string> = { "x-remarket-client-ip": "203.0.113.17" };
  if (options.bearer) headers.Authorization = `Bearer ${options.bearer}`;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const request = new Request(`http://localhost${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return (method === "GET" ? loader : action)({ request, params: {}, context: {} });
};

type Tokens = { access_token: string; refresh_token: string; expires_in: number; expires_at: string; token_type: string };

describe("API sign-in with rotating refresh tokens", () => {
  test("login → refresh → the new access token works; the spent refresh token revokes the family", async () => {
    const { user } = await createTestTenant();
    const login = await call("POST", "/api/auth/login", { body: { email: user.email, password: TEST_PASSWORD } });
    expect(login.status).toBe(200);
    const first = (await login.json()) as Tokens;
    expect(first).toMatchObject({ token_type: "Bearer", expires_in: 900 });

    const refreshed = await call("POST", "/api/auth/refresh", { body: { refresh_token: first.refresh_token } });
    expect(refreshed.status).toBe(200);
    const second = (await refreshed.json()) as Tokens;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await call("GET", "/api/auth/user", { bearer: second.access_token })).status).toBe(200);

    const reused = await call("POST", "/api/auth/refresh", { body: { refresh_token: first.refresh_token } });
    expect(reused.status).toBe(401);
    expect(reused.headers.get("Content-Type")).toBe("application/problem+json");
    expect((await call("GET", "/api/auth/user", { bearer: second.access_token })).status).toBe(401);
    expect((await call("POST", "/api/auth/refresh", { body: { refresh_token: second.refresh_token } })).status).toBe(401);
  });

  test("logout ends the refresh tokens of the sign-in too", async () => {
    const { user } = await createTestTenant();
    const tokens = (await (
      await call("POST", "/api/auth/login", { body: { email: user.email, password: TEST_PASSWORD } })
    ).json()) as Tokens;
    expect((await call("POST", "/api/auth/logout", { bearer: tokens.access_token, body: {} })).status).toBe(204);
    expect((await call("POST", "/api/auth/refresh", { body: { refresh_token: tokens.refresh_token } })).status).toBe(401);
  });
});

describe("API keys as bearers", () => {
  test("a key authenticates as its user in its agency, and its last use is recorded", async () => {
    const { ctx, user, tenant, db } = await createTestTenant();
    const key = await createApiKey(ctx, { name: "Zapier", scope: "read" });
    const me = await call("GET", "/api/auth/user", { bearer: key.secret });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ id: user.id, tenant: { id: tenant.id } });
    const [row] = await db.select({ lastUsedAt: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row.lastUsedAt).not.toBeNull();
  });

  test("a read-only key may not write: 403 saying so", async () => {
    const { ctx } = await createTestTenant();
    const key = await createApiKey(ctx, { name: "Reports", scope: "read" });
    const refused = await call("PATCH", `/api/user/${ctx.userId}`, { bearer: key.secret, body: { name: "New Name" } });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/read-only/);

    const writer = await createApiKey(ctx, { name: "Sync", scope: "write" });
    expect((await call("PATCH", `/api/user/${ctx.userId}`, { bearer: writer.secret, body: { name: "New Name" } })).status).toBe(200);
  });

  test("a revoked, unknown or tampered key is a 401", async () => {
    const { ctx } = await createTestTenant();
    const key = await createApiKey(ctx, { name: "Old", scope: "write" });
    const tampered = `${key.secret.slice(0, -1)}${key.secret.endsWith("A") ? "B" : "A"}`;
    expect((await call("GET", "/api/auth/user", { bearer: tampered })).status).toBe(401);
    expect((await call("GET", "/api/auth/user", { bearer: "rmk_nope" })).status).toBe(401);
    await revokeApiKey(ctx, key.id);
    expect((await call("GET", "/api/auth/user", { bearer: key.secret })).status).toBe(401);
  });

  test("a key over its per-minute budget is a 429 with Retry-After", async () => {
    const { ctx, db } = await createTestTenant();
    const key = await createApiKey(ctx, { name: "Busy", scope: "read" });
    const limit = { key: `api-key:${key.id}`, max: API_KEY_REQUESTS_PER_MINUTE, windowMs: 60_000 };
    for (let i = 0; i < API_KEY_REQUESTS_PER_MINUTE; i++) await hitRateLimit(db, limit);
    const refused = await call("GET", "/api/auth/user", { bearer: key.secret });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Content-Type")).toBe("application/problem+json");
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  test("logout with an API key is refused: keys are revoked in Settings", async () => {
    const { ctx } = await createTestTenant();
    const key = await createApiKey(ctx, { name: "Sync", scope: "write" });
    expect((await call("POST", "/api/auth/logout", { bearer: key.secret, body: {} })).status).toBe(400);
  });
});
