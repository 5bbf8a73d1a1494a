import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { closeDb, getDb, poolStats } from "~/db/client.server";
import { describeError } from "~/db/errors.server";
import { getEnv } from "~/env.server";
import { registerJobs } from "~/jobs.server";
import { mailDeliveryWarning } from "~/services/platform/email.server";
import { removeStaleUploads } from "~/services/platform/housekeeping.server";
import { getStorage } from "~/services/files/storage.server";
import { startWorker } from "~/services/platform/jobs.server";
import { log } from "~/services/platform/log.server";
import { registerMetricSources } from "~/services/platform/metrics.server";
import { httpLimits, temporaryUploadMaxAgeMs } from "~/utils/http-limits.server";
import { NonceProvider } from "~/utils/nonce";

export const streamTimeout = 5_000;

/**
 * Remix's own document renderer, the way its template renders for bots: the response starts once
 * every Suspense boundary has resolved. No route defers data, so that is as soon as the loaders
 * have run, and the whole page then goes out in one pass (measured cheaper than starting at the
 * shell: decision record 004). Browsers with and without JavaScript get the same complete page.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce ?? "";
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          // Nothing is left to wait for, so nothing is left to abort.
          clearTimeout(timeout);
          // No 'close' after 'end': React reads a close as the client leaving early and ends the
          // finished stream again, which costs a Node error object per page. Remix's adapter
          // finishes on 'end'.
          const body = new PassThrough({ emitClose: false });
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(timeout);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // An error in the shell rejects above and Remix logs it; log the ones inside it.
          if (shellRendered) log.error({ err: describeError(error) }, "render failed");
        },
      },
    );
    // Abort whatever is still pending once Remix has given up on its promises.
    const timeout = setTimeout(abort, streamTimeout + 1000);
  });
}

/** Unexpected errors are logged with the request id; users see the calm 500 page. */
export function handleError(error: unknown, { request, context }: { request: Request; context: AppLoadContext }) {
  if (request.signal.aborted) return;
  // describeError: a database error is logged without its statement and values (issue 12 §3).
  log.error(
    { requestId: context?.requestId, method: request.method, path: new URL(request.url).pathname, err: describeError(error) },
    "request failed",
  );
}

/**
 * Called by server/index.js once at start-up: opens and migrates the database (so /healthz
 * turns green only when it is ready) and, unless disabled, runs the job worker in-process.
 */
export async function startBackground({ worker }: { worker: boolean }) {
  const db = await getDb();
  registerMetricSources({ db: getDb, pool: poolStats });
  registerJobs();
  const env = getEnv();
  const mailWarning = mailDeliveryWarning(env);
  if (mailWarning) log.warn({ area: "mail" }, mailWarning);
  // A process killed mid-upload left temporary objects behind: clear those at least an hour old.
  await removeStaleUploads(getStorage(), temporaryUploadMaxAgeMs(env)).then(
    (removed) => removed > 0 && log.info({ area: "files", removed }, "removed temporary upload objects left by an interrupted upload"),
    (error) => log.error({ area: "files", err: describeError(error) }, "could not clear temporary uploads"),
  );
  const stopWorker = worker ? startWorker(db, { leaseMs: env.JOB_LEASE_MS, concurrency: env.JOB_CONCURRENCY }) : async () => {};
  return async () => {
    await stopWorker();
    await closeDb();
  };
}

// server/index.js answers /readyz and the metrics port with these (it is plain JavaScript, outside the build).
export { readiness } from "~/services/platform/readiness.server";
export { learnRoutes, observeRequest, routePattern, serveMetrics } from "~/services/platform/metrics.server";
export { instanceId, log, withLogScope } from "~/services/platform/log.server";

/** Body caps and time-outs for server/index.js, from the validated environment (app/utils/http-limits.server.ts). */
export function serverLimits() {
  return httpLimits(getEnv());
}
