import type { Env } from "~/env.server";

/** Room for an upload's other fields and part headers beyond UPLOAD_MAX_BYTES. */
export const MULTIPART_OVERHEAD_BYTES = 1024 * 1024;

export type HttpLimits = {
  /** JSON, form and other non-upload bodies: refused above this before a byte is read (413). */
  requestBodyMaxBytes: number;
  /** A whole multipart upload (file plus form), on the routes that stream uploads. */
  uploadBodyMaxBytes: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** How long a body of `bytes` may take to arrive: a base plus its size at the slowest rate we wait for. */
  bodyDeadlineMs: (bytes: number) => number;
};

/**
 * The HTTP server's limits (server/index.js), from the validated environment. Headers must arrive
 * within HEADERS_TIMEOUT_MS; a body within REQUEST_TIMEOUT_MS plus its size at
 * UPLOAD_MIN_BYTES_PER_SECOND, so a 100 MB upload on a slow line completes while a trickle of a
 * few bytes is cut off; idle keep-alive connections stay open longer than a load balancer's own
 * idle time-out (60 s for nginx, HAProxy and AWS), so the balancer closes them first and never
 * sends a request into a socket we are closing (a 502).
 */
export function httpLimits(env: Env): HttpLimits {
  const bodyDeadlineMs = (bytes: number) =>
    env.REQUEST_TIMEOUT_MS + Math.ceil((Math.max(0, bytes) / env.UPLOAD_MIN_BYTES_PER_SECOND) * 1000);
  return {
    requestBodyMaxBytes: env.REQUEST_BODY_MAX_BYTES,
    uploadBodyMaxBytes: env.UPLOAD_MAX_BYTES + MULTIPART_OVERHEAD_BYTES,
    headersTimeoutMs: env.HEADERS_TIMEOUT_MS,
    keepAliveTimeoutMs: env.KEEP_ALIVE_TIMEOUT_MS,
    bodyDeadlineMs,
  };
}

/**
 * Temporary upload objects older than this belong to no live request (the longest upload's
 * deadline, plus a margin, and never under an hour): start-up and housekeeping delete them.
 */
export function temporaryUploadMaxAgeMs(env: Env) {
  const limits = httpLimits(env);
  return Math.max(3_600_000, limits.bodyDeadlineMs(limits.uploadBodyMaxBytes) + 10 * 60_000);
}
