import { data, redirect, type AppLoadContext } from "@remix-run/node";
import { getDb } from "~/db/client.server";
import { isDatabaseUnavailable } from "~/db/errors.server";
import type { AuthedUser } from "~/services/identity/accounts.server";
import type { TenantContext } from "~/services/platform/context.server";
import { createLoginSession, resolveSession, revokeSession, type SessionUser } from "~/services/identity/login-sessions.server";
import { isStaffEmail } from "~/services/identity/staff.server";
import { getCookies } from "~/sessions.server";
import { safeRedirect } from "./redirect";
import { requestMemo } from "./request-scope.server";

/** The signed-in user of this request, or null. Root, layout and page loaders share one lookup. */
export function getAuth(request: Request, context: AppLoadContext): Promise<SessionUser | null> {
  return requestMemo(request, context, "auth", () => readAuth(request));
}

async function readAuth(request: Request) {
  const token = await getCookies().sessionCookie.parse(request.headers.get("Cookie"));
  if (typeof token !== "string" || !token) return null;
  try {
    return await resolveSession(await getDb(), token);
  } catch (error) {
    // The session lookup is every signed-in page's first query: with the database away, a calm 503.
    if (isDatabaseUnavailable(error)) throw databaseUnavailableResponse();
    throw error;
  }
}

/** What a page or form answers while the database cannot be reached: the error page's 503, retry in a moment. */
export function databaseUnavailableResponse() {
  return data("Remarket cannot reach its database at the moment.", { status: 503, headers: { "Retry-After": "15" } });
}

/** The signed-in user, or a redirect to /auth/login that comes back here afterwards. */
export async function requireAuth(request: Request, context: AppLoadContext): Promise<SessionUser> {
  const auth = await getAuth(request, context);
  if (auth) return auth;
  const url = new URL(request.url);
  const back = `${url.pathname}${url.search}`;
  const params = back === "/" ? "" : `?${new URLSearchParams({ redirectTo: back })}`;
  throw redirect(`/auth/login${params}`, { headers: await clearSessionHeaders() });
}

/** The tenant-scoped context every service call takes. */
export async function requireTenantContext(request: Request, context: AppLoadContext): Promise<TenantContext & { auth: SessionUser }> {
  const auth = await requireAuth(request, context);
  return { db: await getDb(), tenantId: auth.tenant.id, userId: auth.user.id, role: auth.user.role, auth };
}

export async function requireAdmin(request: Request, context: AppLoadContext) {
  const ctx = await requireTenantContext(request, context);
  if (ctx.role !== "admin") throw new Response("Only agency admins can do this.", { status: 403 });
  return ctx;
}

/** Internal staff only; everyone else gets the same 404 as a missing page (seed §6). */
export async function requireStaff(request: Request, context: AppLoadContext) {
  const auth = await requireAuth(request, context);
  if (!isStaffEmail(auth.user.email)) throw new Response("Not found", { status: 404 });
  return auth;
}

/** Pages for signed-out visitors send signed-in ones home. */
export async function requireAnonymous(request: Request, context: AppLoadContext) {
  if (await getAuth(request, context)) throw redirect("/");
}

/** Sign `user` in with a brand-new session id and go to `redirectTo`. */
export async function startSession(request: Request, user: AuthedUser, redirectTo: string | null, extraHeaders?: HeadersInit) {
  // Settled before the session exists: nothing after this line can fail on the user's input.
  const location = safeRedirect(redirectTo);
  const { token } = await createLoginSession(await getDb(), {
    userId: user.id,
    tenantId: user.tenantId,
    userAgent: request.headers.get("User-Agent"),
  });
  const headers = new Headers(extraHeaders);
  headers.append("Set-Cookie", await getCookies().sessionCookie.serialize(token));
  return redirect(location, { headers });
}

/** Sign out this browser: the session row is revoked and every cookie but the theme is cleared. */
export async function endSession(request: Request, context: AppLoadContext) {
  const auth = await getAuth(request, context);
  if (auth) await revokeSession(await getDb(), auth.sessionId);
  return clearSessionHeaders();
}

async function clearSessionHeaders() {
  const headers = new Headers();
  headers.append("Set-Cookie", await getCookies().sessionCookie.serialize("", { maxAge: 0 }));
  return headers;
}

/** The client address the server recorded (set by server/index.js, never from the client). */
export function getClientIp(request: Request) {
  return request.headers.get("x-remarket-client-ip") ?? "unknown";
}
