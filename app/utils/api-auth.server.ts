import { getDb } from "~/db/client.server";
import type { TenantContext } from "~/services/platform/context.server";
import { resolveSession, type SessionUser } from "~/services/identity/login-sessions.server";
import { problem } from "./problem.server";

/**
 * The API (`/api/*`) takes bearer tokens only, never the session cookie: that is what lets
 * server/index.js exempt it from the same-origin check without opening a CSRF hole.
 */
export async function requireApiContext(request: Request): Promise<TenantContext & { auth: SessionUser }> {
  const header = request.headers.get("Authorization") ?? "";
  const token = header.match(/^Bearer\s+(\S+)$/i)?.[1];
  const db = await getDb();
  const auth = token ? await resolveSession(db, token) : null;
  if (!auth) {
    throw problem(401, "User is not authenticated", { headers: { "WWW-Authenticate": 'Bearer realm="remarket"' } });
  }
  return { db, tenantId: auth.tenant.id, userId: auth.user.id, role: auth.user.role, auth };
}
