import { z } from "zod";
import { ApiError, ApiTimeoutError, InvalidCredentialsError } from "~/services/connectors/api-client.server";
import { ConnectorError, UnreadableExportError } from "~/services/connectors/types";
import { MappingInvalidError } from "~/services/connections-api.server";
import type { TenantContext } from "~/services/context.server";
import { asServiceError } from "~/services/errors.server";
import { requireApiContext, requireJsonWrite } from "./api.server";

// One shape for the /api/connections/* routes: bearer auth (never the cookie), input from the
// query (GET) or a JSON body (POST) plus the path, validated with zod: a bad input is a 400 with
// a message per field, a connection of another tenant a 404, a source that cannot be read a 502.

export const connectionIdField = z
  .string({ error: "connectionId is required." })
  .trim()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "connectionId must be a connection id.");

type Handler<S extends z.ZodType> = {
  method: "GET" | "POST";
  schema: S;
  run: (ctx: TenantContext, input: z.infer<S>) => Promise<unknown>;
};

/** Answer a /api/connections/* request with `{ data }` or `{ error, fieldErrors? }`. */
export async function connectionsApi<S extends z.ZodType>(request: Request, params: Record<string, string | undefined>, handler: Handler<S>) {
  if (request.method !== handler.method) return Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: handler.method } });
  const ctx = await requireApiContext(request);
  let raw: Record<string, unknown>;
  if (handler.method === "POST") {
    requireJsonWrite(request);
    const body = await request.json().catch(() => undefined);
    if (body === null || typeof body !== "object" || Array.isArray(body)) return Response.json({ error: "Send a JSON object." }, { status: 400 });
    raw = { ...(body as Record<string, unknown>), ...params };
  } else {
    raw = { ...Object.fromEntries(new URL(request.url).searchParams), ...params };
  }
  return answerConnectionsApi(ctx, raw, handler);
}

/** Validate `raw` input with the handler's schema, run it, and map its failures to JSON answers. */
export async function answerConnectionsApi<S extends z.ZodType>(ctx: TenantContext, raw: Record<string, unknown>, handler: Omit<Handler<S>, "method">) {
  const parsed = handler.schema.safeParse(raw);
  if (!parsed.success) return Response.json({ error: "Invalid request", fieldErrors: fieldErrorsOf(parsed.error) }, { status: 400 });
  try {
    return Response.json({ data: await handler.run(ctx, parsed.data) });
  } catch (error) {
    if (error instanceof MappingInvalidError) return Response.json({ error: error.message, fieldErrors: error.fieldErrors }, { status: 400 });
    const serviceError = asServiceError(error);
    if (serviceError) {
      const { message, field, status } = serviceError;
      return Response.json({ error: message, ...(field ? { fieldErrors: { [field]: [message] } } : {}) }, { status });
    }
    if (error instanceof InvalidCredentialsError) return Response.json({ error: "The source refused the saved credentials." }, { status: 502 });
    if (error instanceof UnreadableExportError) return Response.json({ error: error.message }, { status: 422 });
    if (error instanceof ConnectorError || error instanceof ApiError || error instanceof ApiTimeoutError) {
      return Response.json({ error: `The source could not be read: ${error.message}` }, { status: 502 });
    }
    throw error;
  }
}

function fieldErrorsOf(error: z.ZodError) {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join(".") || "_";
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

/** For the method a route does not take (a GET route's action, a POST route's loader). */
export const methodNotAllowed = () => Response.json({ error: "Method not allowed" }, { status: 405 });
