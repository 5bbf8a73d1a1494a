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
