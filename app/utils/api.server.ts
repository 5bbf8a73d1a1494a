import { getDb } from "~/db/client.server";
import type { TenantContext } from "~/services/context.server";
import { isServiceError } from "~/services/errors.server";
import { getAuth } from "./auth.server";

/** The session's tenant context for JSON resource routes: a 401 JSON answer instead of a login redirect. */
export async function requireApiContext(request: Request): Promise<TenantContext> {
  const auth = await getAuth(request);
  if (!auth) throw Response.json({ error: "Not signed in." }, { status: 401 });
  return { db: await getDb(), tenantId: auth.tenant.id, userId: auth.user.id, role: auth.user.role };
}

/**
 * Writes through /api/* skip the server's Origin check, so they must be JSON: a cross-site page
 * cannot send application/json without a CORS preflight, which this server never grants.
 */
export function requireJsonWrite(request: Request) {
  if (!(request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("application/json")) {
    throw Response.json({ error: "Send JSON (Content-Type: application/json)." }, { status: 415 });
  }
}

/** Map a service error to its JSON answer; anything else is rethrown (500). */
export function apiError(error: unknown): Response {
  if (isServiceError(error)) return Response.json({ error: error.message }, { status: error.status });
  throw error;
}
