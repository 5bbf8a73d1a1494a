import { AsyncLocalStorage } from "node:async_hooks";
import { hostname } from "node:os";
import pino, { type DestinationStream, type Level, type Logger } from "pino";

// Structured logs: one JSON object per line on stdout, which is what log collectors read. Every
// line written while a request or a job runs carries its ids (the request id, also sent as
// X-Request-Id; the tenant and user once the session is known; the job id and type), so one
// request's lines can be found across instances. Lines name records by id, never by personal data;
// the redact list is a second guard for a field that should never have been logged.

/** The ids a line carries while a request or a job runs. */
export type LogScope = {
  requestId?: string;
  tenantId?: string;
  userId?: string;
  jobId?: string;
  jobType?: string;
};

const scopes = new AsyncLocalStorage<LogScope>();

// Field names whose values are secrets or personal data, at the top level or one level down.
const REDACTED = ["password", "token", "secret", "authorization", "cookie", "email", "phone", "apiKey", "refreshToken"];
const REDACT_PATHS = REDACTED.flatMap((name) => [name, `*.${name}`]);

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** A logger writing to `destination` (stdout by default); tests pass a stream to read what was written. */
export function createLogger({ level, instance }: { level: Level | "silent"; instance: string }, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { instance },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // A copy: pino merges each line's fields into what mixin returns, which must not reach the scope.
      mixin: () => ({ ...scopes.getStore() }),
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    },
    destination,
  );
}

function defaultLevel(): Level | "silent" {
  const wanted = process.env.LOG_LEVEL;
  if (wanted && (LOG_LEVELS as readonly string[]).includes(wanted)) return wanted as Level | "silent";
  // Tests read failures from their own assertions; an expected warning there is noise.
  return process.env.NODE_ENV === "test" ? "error" : "info";
}

/** This process among its peers: on every log line and (web) in X-Remarket-Instance. */
export const instanceId = process.env.INSTANCE_ID || `${hostname()}-${process.pid}`;

/** The process's logger. Reads LOG_LEVEL itself: it must work before (and when) the rest of the env fails to parse. */
export const log = createLogger({ level: defaultLevel(), instance: instanceId });

/**
 * Run `fn` with `scope`'s ids on every line logged inside it, however deep in awaits. The object
 * itself is the scope: what noteSignedIn writes into it, the caller reads afterwards.
 */
export function withLogScope<T>(scope: LogScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

/** Once the session is known: this request's remaining lines, and its access-log line, name the tenant and user. */
export function noteSignedIn(tenantId: string, userId: string) {
  const scope = scopes.getStore();
  if (!scope) return;
  scope.tenantId = tenantId;
  scope.userId = userId;
}
