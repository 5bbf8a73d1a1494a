/**
 * RFC 9457 problem details: the one shape every JSON route fails with
 * (`Content-Type: application/problem+json`). `type` is `about:blank` (the status says it all,
 * `title` is its reason phrase) unless the problem is about particular input fields: then it is
 * `INVALID_INPUT`, and `errors` holds the messages by field name (dotted paths for nested fields).
 */
export type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: Record<string, string[]>;
};

/** The problem type of a path the API does not have (as opposed to a missing record on a real path). */
export const UNKNOWN_PATH = "/problems/unknown-path";

/** The problem type of answers that carry `errors` by field. */
export const INVALID_INPUT = "/problems/invalid-input";

const REASONS: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  410: "Gone",
  411: "Length Required",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
};

/** A problem+json response with `status` and the sentence a client can show (`detail`). */
export function problem(
  status: number,
  detail: string,
  options: { errors?: Record<string, string[]> | null; headers?: HeadersInit; type?: string } = {},
) {
  const errors = options.errors && Object.keys(options.errors).length > 0 ? options.errors : undefined;
  const body: Problem = {
    type: errors ? INVALID_INPUT : (options.type ?? "about:blank"),
    title: errors ? "Some fields are not valid" : (REASONS[status] ?? "Error"),
    status,
    detail,
    ...(errors ? { errors } : {}),
  };
  const headers = new Headers(options.headers);
  headers.set("Content-Type", "application/problem+json");
  return new Response(JSON.stringify(body), { status, headers });
}

/** Whether a response already is a problem (so it is passed on as it is). */
export function isProblem(response: Response) {
  return (response.headers.get("Content-Type") ?? "").startsWith("application/problem+json");
}
