import { getDb } from "~/db/client.server";
import type { TenantContext } from "~/services/platform/context.server";
import { isApiKey, resolveApiKey, takeApiKeyRequest, type ApiKeyScope } from "~/services/identity/api-keys.server";
import { resolveSession, type SessionUser } from "~/services/identity/login-sessions.server";
import { noteSignedIn } from "~/services/platform/log.server";
import { problem } from "./problem.server";

/** Who is calling the API: a signed-in client (`sessionId`, its access token) or an API key (`apiKey`). */
export type ApiAuth = {
  user: SessionUser["user"];
  tenant: Pick<SessionUser["tenant"], "id" | "name" | "isDemo" | "timeZone">;
  sessionId: string | null;
  apiKey: { id: string; scope: ApiKeyScope } | null;
};

const unauthenticated = () => problem(401, "User is not authenticated", { headers: { "WWW-Authenticate": 'Bearer realm="remarket"' } });

/**
 * The API (`/api/*`) takes bearer tokens only, never the session cookie: that is what lets
 * server/index.js exempt it from the same-origin check without opening a CSRF hole. The bearer is
 * an access token from /api/auth/login or an API key (`rmk_…`, Settings ▸ API keys): a read-only
 * key may only read (GET and HEAD), and each key has a per-minute budget (429 with Retry-After).
 */
export async function requireApiContext(request: Request): Promise<TenantContext & { auth: ApiAuth }> {
  const header = request.headers.get("Authorization") ?? "";
  const token = header.match(/^Bearer\s+(\S+)$/i)?.[1];
  const db = await getDb();
  if (!token) throw unauthenticated();
  let auth: ApiAuth;
  if (isApiKey(token)) {
    const key = await resolveApiKey(db, token);
    if (!key) throw unauthenticated();
    noteSignedIn(key.tenant.id, key.user.id);
    const retryAfter = await takeApiKeyRequest(db, key.keyId);
    if (retryAfter !== null) {
      throw problem(429, `This API key made too many requests. Try again in ${retryAfter} s.`, {
        headers: { "Retry-After": String(retryAfter) },
      });
    }
    if (key.scope === "read" && request.method !== "GET" && request.method !== "HEAD") {
      throw problem(403, "This API key is read-only: it may only make GET requests. Use a read-write key to change data.");
    }
    auth = { user: key.user, tenant: key.tenant, sessionId: null, apiKey: { id: key.keyId, scope: key.scope } };
  } else {
    const session = await resolveSession(db, token);
    if (!session) throw unauthenticated();
    auth = { user: session.user, tenant: session.tenant, sessionId: session.sessionId, apiKey: null };
  }
  return { db, tenantId: auth.tenant.id, userId: auth.user.id, role: auth.user.role, auth };
}
