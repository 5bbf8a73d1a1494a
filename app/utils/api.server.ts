import { asServiceError } from "~/services/errors.server";

/** JSON resource routes authenticate with bearer tokens only (see api-auth.server.ts). */
export { requireApiContext } from "./api-auth.server";

/**
 * Writes through /api/* skip the server's Origin check, so they must be JSON: a cross-site page
 * cannot send application/json without a CORS preflight, which this server never grants.
 */
export function requireJsonWrite(request: Request) {
  if (!(request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("application/json")) {
    throw Response.json({ error: "Send JSON (Content-Type: application/json)." }, { status: 415 });
  }
}

/** Map a service error (or a value the database refused) to its JSON answer; anything else is rethrown (500). */
export function apiError(thrown: unknown): Response {
  const error = asServiceError(thrown);
  if (error) return Response.json({ error: error.message }, { status: error.status });
  throw thrown;
}
