import { createHash } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import { describeError } from "~/db/errors.server";
import { getEnv } from "~/env.server";
import { z } from "zod";
import { ApiError, ApiTimeoutError, InvalidCredentialsError } from "~/services/connections/connectors/api-client.server";
import { ConnectorError, UnreadableExportError } from "~/services/connections/connectors/types";
import type { TenantContext } from "~/services/platform/context.server";
import { ServiceError, asServiceError } from "~/services/platform/errors.server";
import { log } from "~/services/platform/log.server";
import {
  IDEMPOTENCY_KEY_MAX,
  IDEMPOTENCY_KEY_MIN,
  IdempotencyKeyReusedError,
  replayApiRequest,
} from "~/services/platform/idempotency.server";
import { requireApiContext, type ApiAuth } from "./api-auth.server";
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
  if (error instanceof IdempotencyKeyReusedError) return problem(422, error.message);
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
    log.error(
      { requestId: context?.requestId, method: request.method, path: new URL(request.url).pathname, err: describeError(error) },
      "request failed",
    );
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
  // server/index.js refuses a larger declared body before Remix runs; this holds for any other caller.
  const limit = getEnv().REQUEST_BODY_MAX_BYTES;
  if (Number(request.headers.get("Content-Length") ?? 0) > limit) {
    throw problem(413, `The request body is larger than ${Math.round((limit / 1024 / 1024) * 10) / 10} MB.`);
  }
  const text = await request.text();
  if (text.trim() === "") return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (body === undefined) throw new ServiceError("The body is not valid JSON.", 400);
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw new ServiceError("Send a JSON object.", 400);
  return body as Record<string, unknown>;
}

/** The caller of an authenticated /api operation: its tenant context and the token or key behind it. */
export type ApiContext = TenantContext & { auth: ApiAuth };

type Common<S extends z.ZodType> = {
  method: Method;
  /** OpenAPI path template: `/api/customers/{id}`; `{name}` matches one segment, given to `input` as `name`. */
  path: string;
  /** One line for the reference (/api/docs). */
  summary: string;
  /** Section of the reference: Files, Customers, Quotes… */
  tag: string;
  /** More text for the reference (the seed call it serves, spellings, caveats). */
  description?: string;
  /** Validates the path parameters together with the query (GET, or `from: "query"`) or the JSON body. */
  input?: S;
  /** Where the fields come from; `multipart`: the handler reads the body itself (uploads). */
  from?: "query" | "body" | "multipart";
  /** Schema of the success body, for the OpenAPI document (every JSON success is `{ data }` unless said). */
  response?: z.ZodType;
  /** Success status: 200 unless said (201 for a creation, 204 for no body). */
  status?: 200 | 201 | 204;
  /** A success body that is not JSON (a download, an HTML report). */
  produces?: string;
  /**
   * A creating POST: an `Idempotency-Key` header makes a retry answer the first outcome (same
   * body) or a 422 (another body), per tenant and user. One mechanism for every such operation.
   */
  idempotent?: boolean;
  /** Failure statuses the reference lists beyond the usual ones (400, 401, 403, 404, 405, 500; 409, 413, 415 on writes). */
  errors?: number[];
};

/** One operation of the JSON API: served by `serveApi` and described in /api/openapi.json from the same object. */
export type ApiOperation<S extends z.ZodType = z.ZodType> = Common<S> &
  (
    | { auth?: "bearer"; run: (ctx: ApiContext, input: z.output<S>, request: Request) => Promise<unknown> }
    | { auth: "none"; run: (ctx: null, input: z.output<S>, request: Request) => Promise<unknown> }
    | { auth: "gone"; gone: string }
  );

/** Declare an operation (typed by its input schema). */
export function defineOperation<S extends z.ZodType = z.ZodObject<Record<string, never>>>(op: ApiOperation<S>): ApiOperation {
  return op as unknown as ApiOperation;
}

/**
 * Answer a request with the operation among `operations` that takes its method: a method none takes
 * is a 405 with `Allow`; a retired call is a 410 with its reason; otherwise bearer authentication,
 * validated input (path parameters over the query or JSON body), then `run`.
 */
export function serveApi(args: RouteArgs & { params?: Record<string, string | undefined> }, operations: readonly ApiOperation[]) {
  const method = args.request.method === "HEAD" ? "GET" : args.request.method;
  const op = operations.find((o) => o.method === method);
  const methods = operations.map((o) => o.method);
  if (!op) return Promise.resolve(methodNotAllowedFor(methods));
  return jsonRoute(args, [op.method], async () => {
    if (op.auth === "gone") throw problem(410, op.gone);
    const ctx = op.auth === "none" ? null : await requireApiContext(args.request);
    const key = op.idempotent && ctx ? idempotencyKeyOf(args.request) : null;
    // The body's bytes fingerprint an idempotent request: hashed first, from a copy, as the original is read below.
    const fingerprint = key ? await fingerprintOf(args.request) : "";
    const from = op.from ?? (op.method === "GET" ? "query" : "body");
    const raw =
      from === "query"
        ? Object.fromEntries(new URL(args.request.url).searchParams)
        : from === "body"
          ? await readJsonObject(args.request)
          : {};
    const params = Object.fromEntries(Object.entries(args.params ?? {}).filter(([key]) => key !== "*"));
    const input = parseInput(op.input ?? z.object({}), { ...raw, ...params });
    const execute = async () => {
      const body = await (op.run as (ctx: ApiContext | null, input: unknown, request: Request) => Promise<unknown>)(
        ctx,
        input,
        args.request,
      );
      return body instanceof Response ? body : { status: op.status ?? 200, body };
    };
    if (!key || !ctx) return answer(await execute());
    const outcome = await replayApiRequest(
      ctx.db,
      { tenantId: ctx.tenantId, userId: ctx.userId, operation: `${op.method} ${op.path}`, key, fingerprint },
      async () => {
        const result = await execute();
        // Only JSON successes are kept; a Response of its own (a problem) is not stored, so a retry may apply.
        if (result instanceof Response) throw result;
        return result;
      },
    );
    const response = answer(outcome);
    if (outcome.replayed) response.headers.set("Idempotent-Replayed", "true");
    return response;
  });
}

function answer(result: Response | { status: number; body: unknown }) {
  if (result instanceof Response) return result;
  if (result.status === 204) return new Response(null, { status: 204 });
  return Response.json(result.body, { status: result.status });
}

/** A digest of the body; a multipart body's random boundary is left out, so a rebuilt form of the same fields matches. */
async function fingerprintOf(request: Request) {
  const bytes = Buffer.from(await request.clone().arrayBuffer()).toString("latin1");
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(request.headers.get("Content-Type") ?? "");
  const canonical = boundary ? bytes.split(boundary[1] ?? boundary[2]!).join("") : bytes;
  return createHash("sha256").update(canonical, "latin1").digest("hex");
}

/** The request's `Idempotency-Key` (null when absent); a malformed one is a 400. */
function idempotencyKeyOf(request: Request) {
  const key = request.headers.get("Idempotency-Key");
  if (key === null) return null;
  if (key.length < IDEMPOTENCY_KEY_MIN || key.length > IDEMPOTENCY_KEY_MAX) {
    throw new ServiceError(`Idempotency-Key must be ${IDEMPOTENCY_KEY_MIN} to ${IDEMPOTENCY_KEY_MAX} characters.`, 400);
  }
  return key;
}

/** A 405 naming the methods the path takes (HEAD with GET). */
export function methodNotAllowedFor(methods: readonly string[]) {
  const allow = [...new Set(methods.flatMap((m) => (m === "GET" ? ["GET", "HEAD"] : [m])))].join(", ");
  return problem(405, `This path takes ${allow}.`, { headers: { Allow: allow } });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A required connection id in an API input (query, body or path). */
export const connectionIdField = z
  .string({ error: "connectionId is required." })
  .trim()
  .regex(UUID, "connectionId must be a connection id.");

export { requireApiContext };
