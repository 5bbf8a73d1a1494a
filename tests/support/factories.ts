import { randomUUID } from "node:crypto";
import { getDb } from "~/db/client.server";
import { users } from "~/db/schema";
import type { TenantContext } from "~/services/platform/context.server";
import { createLoginSession } from "~/services/identity/login-sessions.server";
import { hashPassword } from "~/services/identity/passwords.server";
import { createTenant } from "~/services/identity/tenants.server";
import { getCookies } from "~/sessions.server";

export const TEST_PASSWORD = "correct-horse-42";

/** A unique e-mail per call, so tests never collide on a shared database. */
export function uniqueEmail(prefix = "user") {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.test`;
}

/** A fresh tenant with a confirmed admin (password TEST_PASSWORD) and its service context. */
export async function createTestTenant(options: { name?: string; role?: "admin" | "staff" } = {}) {
  const db = await getDb();
  const tenant = await createTenant(db, { name: options.name ?? `Agency ${randomUUID().slice(0, 6)}` });
  const email = uniqueEmail();
  const [user] = await db
    .insert(users)
    .values({
      tenantId: tenant.id,
      email,
      name: "Test Admin",
      role: options.role ?? "admin",
      passwordHash: await hashPassword(TEST_PASSWORD),
      emailVerifiedAt: new Date(),
    })
    .returning({ id: users.id, email: users.email, tenantId: users.tenantId, name: users.name });
  const ctx: TenantContext = { db, tenantId: tenant.id, userId: user.id, role: options.role ?? "admin" };
  return { db, tenant, user, ctx };
}

/** Another user (a colleague) in an existing tenant, with its service context. */
export async function addTestUser(tenantId: string, options: { role?: "admin" | "staff"; name?: string } = {}) {
  const db = await getDb();
  const [user] = await db
    .insert(users)
    .values({
      tenantId,
      email: uniqueEmail("colleague"),
      name: options.name ?? "Test Colleague",
      role: options.role ?? "staff",
      emailVerifiedAt: new Date(),
    })
    .returning({ id: users.id, email: users.email, tenantId: users.tenantId, name: users.name });
  const ctx: TenantContext = { db, tenantId, userId: user.id, role: options.role ?? "staff" };
  return { user, ctx };
}

/** A Cookie header for a signed-in session of `user`. */
export async function sessionCookieFor(user: { id: string; tenantId: string }) {
  const db = await getDb();
  const { token } = await createLoginSession(db, { userId: user.id, tenantId: user.tenantId });
  const setCookie = await getCookies().sessionCookie.serialize(token);
  return setCookie.split(";")[0];
}

/** A real Request for calling a loader or action directly. */
export function makeRequest(
  path: string,
  init: { method?: string; form?: Record<string, string>; cookie?: string; headers?: Record<string, string> } = {},
) {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set("Cookie", init.cookie);
  headers.set(
    "x-remarket-client-ip",
    headers.get("x-remarket-client-ip") ?? `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  );
  const body = init.form ? new URLSearchParams(init.form) : undefined;
  return new Request(`http://localhost${path}`, { method: init.method ?? (body ? "POST" : "GET"), headers, body });
}

/** An Authorization header value for the API (bearer tokens only). */
export async function bearerFor(user: { id: string; tenantId: string }) {
  const db = await getDb();
  const { token } = await createLoginSession(db, { userId: user.id, tenantId: user.tenantId });
  return `Bearer ${token}`;
}
