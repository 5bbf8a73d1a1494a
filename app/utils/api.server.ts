import type { AppLoadContext } from "@remix-run/node";
import { describeError } from "~/db/errors.server";
import { z } from "zod";
import { ApiError, ApiTimeoutError, InvalidCredentialsError } from "~/services/connections/connectors/api-client.server";
import { ConnectorError, UnreadableExportError } from "~/services/connections/connectors/types";
import type { TenantContext } from "~/services/platform/context.server";
import { ServiceError, asServiceError } from "~/services/platform/errors.server";
import type { SessionUser } from "~/services/identity/login-sessions.server";
import { requireApiContext } from "./api-auth.server";
import { isProblem, problem } from "./problem.server";

// The one way a JSON route answers (the /api/* routes, webhooks, JSON resource routes): the
// handler returns its body, and whatever it throws becomes an RFC 9457 problem (problem.server.ts).

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type RouteArgs = { request: Request; context?: AppLoadContext };

/**
 * Run a JSON route's handler for the methods it takes. `run` returns the body (or a Response of
 * its own). Thrown: a ServiceError answers its status with its message (and `errors` by field when
 * it names fields; invalid input from `parseInput` is one); a source that cannot be read answers
 * 502; a thrown Response keeps its status (redirects and problems pass as they are); anything else
 * is logged with the request id and answered 500.
 */
export async function jsonRoute(args: RouteArgs, methods: readonly Method[], run: () => Promise<unknown>): Promise<Response> {
  const { request } = args;
  const method = request.method === "HEAD" ? "GET" : request.method;
  if (!methods.includes(method as Method)) {
    return problem(405, `Use ${methods.join(" or ")}.`, { headers: { Allow: methods.join(", ") } });
  }
  try {
    const body = await run();
    return body instanceof Response ? body : Response.json(body);
  } catch (error) {
    return problemFor(error, args);
  }
}

async function problemFor(error: unknown, { request, context }: RouteArgs): Promise<Response> {
  const serviceError = asServiceError(error);
  if (serviceError) return problem(serviceError.status, serviceError.message, { errors: serviceError.fieldErrors });
  if (error instanceof InvalidCredentialsError) return problem(502, "The source refused the saved credentials.");
  if (error instanceof UnreadableExportError) return problem(422, `The export could not be read: ${error.message}`);
  if (error instanceof ConnectorError || error instanceof ApiError || error instanceof ApiTimeoutError) {
    return problem(502, `The source could not be read: ${error.message}`);
  }
  if (error instanceof Response) {
    if (error.status < 400 || isProblem(error)) return error;
    const text = (await error.text().catch(() => "")).trim();
    return problem(error.status, text || "The request was refused.", { headers: error.headers });
  }
  if (!request.signal.aborted) {
    console.error(`[error] request=${context?.requestId ?? "-"} ${request.method} ${new URL(request.url).pathname}`, describeError(error));
  }
  return problem(500, "Something went wrong on our side. Please try again.");
}

/** For the method a route does not take (a GET route's action, a POST route's loader). */
export const methodNotAllowed = async () => problem(405, "This method is not allowed here.");

/** Validate `raw` with `schema`; a failure is thrown as a 400 with the messages by field (dotted paths). */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const errors: Record<string, string[]> = {};
  const general: string[] = [];
  for (const issue of parsed.error.issues) {
    if (issue.path.length === 0) general.push(issue.message);
    else (errors[issue.path.map(String).join(".")] ??= []).push(issue.message);
  }
  throw new ServiceError(general.join(" ") || "Some fields are not valid.", 400, undefined, errors);
}

/**
 * Writes through /api/* skip the server's Origin check, so they must be JSON: a cross-site page
 * cannot send application/json without a CORS preflight, which this server never grants.
 */
export function requireJsonWrite(request: Request) {
  if (!(request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("application/json")) {
    throw problem(415, "Send JSON (Content-Type: application/json).");
  }
}

/** A JSON request body that must be an object; an empty body is an object without fields. */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  requireJsonWrite(request);
  const text = await request.text();
  if (text.trim() === "") return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw new ServiceError("Send a JSON object.", 400);
  return body as Record<string, unknown>;
}

type ApiHandler<S extends z.ZodType> = {
  method: Method | readonly Method[];
  /** Validates the query (GET, or `from: "query"`) or the JSON body, with the path's params over it. */
  schema: S;
  from?: "query" | "body";
  run: (ctx: TenantContext & { auth: SessionUser }, input: z.output<S>) => Promise<unknown>;
};

/** An /api/* route: the method, bearer authentication (never the cookie), validated input, then `run`. */
export function apiRoute<S extends z.ZodType>(args: RouteArgs & { params: Record<string, string | undefined> }, handler: ApiHandler<S>) {
  const methods = typeof handler.method === "string" ? [handler.method] : handler.method;
  return jsonRoute(args, methods, async () => {
    const ctx = await requireApiContext(args.request);
    const fromQuery = (handler.from ?? (args.request.method === "GET" || args.request.method === "HEAD" ? "query" : "body")) === "query";
    const raw = fromQuery ? Object.fromEntries(new URL(args.request.url).searchParams) : await readJsonObject(args.request);
    return handler.run(ctx, parseInput(handler.schema, { ...raw, ...args.params }));
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A required connection id in an API input (query, body or path). */
export const connectionIdField = z
  .string({ error: "connectionId is required." })
  .trim()
  .regex(UUID, "connectionId must be a connection id.");

export { requireApiContext };
