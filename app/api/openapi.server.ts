import { z } from "zod";
import { API_KEY_REQUESTS_PER_MINUTE } from "~/services/identity/api-keys.server";
import type { ApiOperation } from "~/utils/api.server";
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX } from "~/utils/cursor.server";
import { API_OPERATIONS } from "./catalogue.server";

// /api/openapi.json: OpenAPI 3.1 generated from the catalogue, every schema from the zod schema the
// operation validates with (zod 4's JSON Schema output), so the document cannot say what the code does not.

type JsonSchema = { [key: string]: unknown; properties?: Record<string, JsonSchema>; required?: string[] };

const PROBLEM_REF = { $ref: "#/components/schemas/Problem" };
const REASONS: Record<number, string> = {
  400: "Malformed input: `errors` holds the messages by field",
  401: "No valid access token or API key: refresh once and retry (see the description above)",
  403: "The user's role may not do this, or a read-only API key asked to write",
  404: "Not found (another agency's ids included); an unknown path has type /problems/unknown-path",
  405: "Another method: `Allow` names the ones this path takes",
  409: "Conflicts with the current state",
  422: "The content was read but cannot be used",
  410: "Retired: `detail` says why and what to use instead",
  413: "The body is larger than REQUEST_BODY_MAX_BYTES (1 MB) or the upload limit",
  415: "The body is not of the media type this operation takes",
  429: "Too many attempts, or an API key over its per-minute budget: wait `Retry-After` seconds",
  500: "Unexpected: logged with the request id",
  502: "The connected source could not be read",
};

const toSchema = (schema: z.ZodType, io: "input" | "output"): JsonSchema => {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  delete json.$schema;
  return json;
};

function pathNames(template: string) {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
}

const problemResponse = (status: number) => ({
  description: REASONS[status] ?? "Error",
  content: { "application/problem+json": { schema: PROBLEM_REF } },
});

/** The OpenAPI operation object of one catalogue entry. */
function describe(op: ApiOperation) {
  const names = pathNames(op.path);
  const input = op.input ? toSchema(op.input, "input") : { type: "object", properties: {} };
  const properties = input.properties ?? {};
  const required = new Set(input.required ?? []);
  const parameters: unknown[] = names.map((name) => ({
    name,
    in: "path",
    required: true,
    schema: properties[name] ?? { type: "string" },
  }));
  if (op.auth !== "gone" && op.idempotent) {
    parameters.push({
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description: "16 to 200 characters: a retry with the same key and body answers the first outcome; another body is a 422.",
      schema: { type: "string", minLength: 16, maxLength: 200 },
    });
  }
  const from = op.from ?? (op.method === "GET" ? "query" : "body");
  const fields = Object.fromEntries(Object.entries(properties).filter(([name]) => !names.includes(name)));
  const fieldsRequired = [...required].filter((name) => !names.includes(name));
  let requestBody: unknown;
  if (from === "query") {
    for (const [name, schema] of Object.entries(fields)) {
      parameters.push({ name, in: "query", required: fieldsRequired.includes(name), schema });
    }
  } else if (from === "body") {
    const { properties: _p, required: _r, ...rest } = input;
    requestBody = {
      required: fieldsRequired.length > 0,
      content: {
        "application/json": {
          schema: { ...rest, type: "object", properties: fields, ...(fieldsRequired.length ? { required: fieldsRequired } : {}) },
        },
      },
    };
  } else {
    requestBody = {
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            properties: { file: { type: "string", contentMediaType: "application/octet-stream" } },
            required: ["file"],
          },
        },
      },
    };
  }
  const status = op.auth === "gone" ? 410 : (op.status ?? 200);
  const success =
    op.auth === "gone"
      ? null
      : status === 204
        ? { description: "Done (no body)" }
        : op.produces
          ? { description: "The document", content: { [op.produces]: { schema: { type: "string" } } } }
          : {
              description: "Success",
              content: {
                "application/json": { schema: op.response ? toSchema(op.response, "output") : { $ref: "#/components/schemas/Data" } },
              },
            };
  const errors = new Set<number>(op.auth === "gone" ? [410] : [400, 404, 405, 500]);
  if (op.auth !== "gone" && op.auth !== "none") [401, 403, 429].forEach((s) => errors.add(s));
  if (op.auth !== "gone" && op.method !== "GET") [409, 413, 415].forEach((s) => errors.add(s));
  for (const s of op.auth === "gone" ? [] : (op.errors ?? [])) errors.add(s);
  if (op.auth !== "gone" && op.idempotent) errors.add(422);
  return {
    operationId: `${op.method.toLowerCase()}${op.path.replace(/^\/api/, "").replace(/[^A-Za-z0-9]+(\w)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    ...(op.auth === "gone" ? { deprecated: true } : {}),
    security: op.auth === "none" || op.auth === "gone" ? [] : [{ bearer: [] }, { apiKey: [] }],
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody && op.auth !== "gone" ? { requestBody } : {}),
    responses: {
      ...(success ? { [String(status)]: success } : {}),
      ...Object.fromEntries([...errors].sort().map((s) => [String(s), problemResponse(s)])),
    },
  };
}

const DESCRIPTION = `Every call of the original product, under /api. Writes take \`Content-Type: application/json\` (uploads: multipart/form-data). Every failure is RFC 9457 \`application/problem+json\`; invalid input lists messages by field under \`errors\`.

## Authentication

**People and apps acting for them** sign in with \`POST /api/auth/login\` (e-mail and password) and send \`Authorization: Bearer <access_token>\`. The access token lives 15 minutes (\`expires_in\`, \`expires_at\`); the answer also carries a \`refresh_token\`.

The client's rule (the original product's): **on a 401, refresh once, then retry once.**

1. A call answers 401.
2. \`POST /api/auth/refresh\` with \`{ "refresh_token": "…" }\`. It answers a new access token **and a new refresh token**: keep both, the old refresh token is spent.
3. Retry the call once with the new access token.
4. If the refresh itself answers 401, or the retry does, the sign-in is over: sign in again. Never loop.

Refresh tokens rotate and are single use. Presenting one a second time means it was copied, so every token of that sign-in (access and refresh alike) is revoked at once. A client that refreshes from several threads must let one refresh and the others wait for its result. \`POST /api/auth/logout\` ends the sign-in: its access token and every refresh token.

**Integrations** use an API key from Settings ▸ API keys instead: \`Authorization: Bearer rmk_<prefix>_<secret>\`. A key acts as the user who made it, in their agency; it is shown once, read-only or read-write, and does not expire (revoke it in Settings). A read-only key's writes answer 403; each key may make ${API_KEY_REQUESTS_PER_MINUTE} requests a minute, then 429 with \`Retry-After\` (seconds). A key never needs refreshing: a 401 with a key means it was revoked.

## Lists

Lists page with \`limit\` (${LIST_LIMIT_DEFAULT} by default, at most ${LIST_LIMIT_MAX}) and an opaque \`cursor\`: send the \`nextCursor\` of the previous page (null on the last). Rows added while you walk a list neither repeat nor shift the pages you have not read. \`sort=<field>\` orders a list by a field, \`sort=-<field>\` descending; each list's \`sort\` parameter lists its values and default, and ties break on the id. A cursor continues only the sort it was made with: another \`sort\` with it is a 400, as is a field the list does not offer.`;

let cached: unknown;

/** The OpenAPI 3.1 document of the whole API (built once per process). */
export function openApiDocument(operations: readonly ApiOperation[] = API_OPERATIONS) {
  if (operations === API_OPERATIONS && cached) return cached;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) (paths[op.path] ??= {})[op.method.toLowerCase()] = describe(op);
  const document = {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Remarket API",
      version: "1",
      description: DESCRIPTION,
    },
    servers: [{ url: "/" }],
    tags: [...new Set(operations.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "The access_token from POST /api/auth/login or /api/auth/refresh; it lives 15 minutes",
        },
        apiKey: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "rmk_<prefix>_<secret>",
          description: `An API key from Settings ▸ API keys, sent as \`Authorization: Bearer rmk_…\`. A read-only key may only GET (a write is a 403); each key may make ${API_KEY_REQUESTS_PER_MINUTE} requests a minute (then 429 with Retry-After).`,
        },
      },
      schemas: {
        Problem: {
          type: "object",
          required: ["type", "title", "status", "detail"],
          properties: {
            type: { type: "string", examples: ["about:blank", "/problems/invalid-input", "/problems/unknown-path"] },
            title: { type: "string" },
            status: { type: "integer" },
            detail: { type: "string" },
            errors: { type: "object", additionalProperties: { type: "array", items: { type: "string" } } },
          },
          examples: [
            {
              type: "/problems/invalid-input",
              title: "Some fields are not valid",
              status: 400,
              detail: "Some fields are not valid.",
              errors: { email: ["email is required."] },
            },
          ],
        },
        Data: {
          type: "object",
          required: ["data"],
          properties: { data: {}, total: { type: "integer" }, page: { type: "integer" } },
          description: "The result is under `data`; lists say `total` (and `page`) beside it.",
        },
      },
    },
  };
  if (operations === API_OPERATIONS) cached = document;
  return document;
}
