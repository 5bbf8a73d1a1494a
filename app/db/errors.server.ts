// Database errors carry the statement and its parameters (Drizzle's DrizzleQueryError, and PGlite's
// error itself): customer data, codes, e-mail addresses. Logs get a description without them.

type DriverError = { code?: unknown; table?: unknown; column?: unknown; constraint?: unknown; routine?: unknown };

/** The driver's error under Drizzle's wrapper (DrizzleQueryError.cause), when it has a SQLSTATE. */
function driverErrorOf(error: unknown): DriverError | null {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 5; depth++) {
    const code = (current as DriverError).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return current as DriverError;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/** The SQLSTATE of a database error (e.g. "22021"), or null for anything else. */
export function sqlStateOf(error: unknown) {
  return (driverErrorOf(error)?.code as string | undefined) ?? null;
}

/**
 * PostgreSQL refused a value (SQLSTATE class 22, "data exception": a NUL byte, text where a number
 * goes, a date out of range): input the schemas let through, answered as a 400, not a 500.
 */
export function isDataException(error: unknown) {
  return sqlStateOf(error)?.startsWith("22") ?? false;
}

// Node's socket errors and PostgreSQL's "cannot serve now" states (class 08 connection exception,
// 57P01-57P03 shutdown and start-up), and node-postgres's own words when a connection drops.
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P01",
  "57P02",
  "57P03",
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)/i;

/** The database could not be reached (stopped, restarting, network): a 503 to retry, not a fault of the request. */
export function isDatabaseUnavailable(error: unknown) {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 5; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === "string" && (UNAVAILABLE_CODES.has(code) || code.startsWith("08"))) return true;
    if (typeof message === "string" && UNAVAILABLE_MESSAGES.test(message)) return true;
    // AggregateError (a connection refused on both IPv4 and IPv6) keeps its causes in `errors`.
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * `error` fit for the log: a database error becomes its SQLSTATE, the names of the table, column
 * and constraint and the caller's stack, never the statement, its parameters or PostgreSQL's
 * message (a data exception's message quotes the value). Anything else is returned as is.
 */
export function describeError(error: unknown): unknown {
  const driver = driverErrorOf(error);
  if (!driver || !(error instanceof Error || driver instanceof Error)) return error;
  const names = (["table", "column", "constraint", "routine"] as const)
    .filter((key) => typeof driver[key] === "string" && driver[key])
    .map((key) => `${key}=${String(driver[key])}`);
  const source = error instanceof Error ? error : (driver as Error);
  // The stack starts with the message (statement and values): keep only the frames after it.
  const stack = String(source.stack ?? "");
  const head = `${source.name}: ${source.message}`;
  const frames = stack.startsWith(head) ? stack.slice(head.length).replace(/^\n/, "").trimEnd() : "";
  return `DatabaseError SQLSTATE ${String(driver.code)}${names.length ? ` (${names.join(", ")})` : ""}: statement and values withheld${frames ? `\n${frames}` : ""}`;
}
