import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { closeDb, getDb } from "~/db/client.server";
import { describeError } from "~/db/errors.server";
import { getEnv } from "~/env.server";
import { registerJobs } from "~/jobs.server";
import { mailDeliveryWarning } from "~/services/email.server";
import { removeStaleUploads } from "~/services/housekeeping.server";
import { getStorage } from "~/services/storage.server";
import { renderDocument } from "~/render-document.server";
import { startWorker } from "~/services/jobs.server";
import { httpLimits, temporaryUploadMaxAgeMs } from "~/utils/http-limits.server";
import { NonceProvider } from "~/utils/nonce";

export const streamTimeout = 5_000;

/** Documents are rendered whole and sent in one write (see render-document.server.tsx). */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce ?? "";
  const app = () => (
    <NonceProvider value={nonce}>
      <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
    </NonceProvider>
  );
  const { body, failed } = await renderDocument(remixContext, app, { nonce, timeoutMs: streamTimeout + 1000 });
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  responseHeaders.set("Content-Length", String(body.byteLength));
  return new Response(body, { headers: responseHeaders, status: failed ? 500 : responseStatusCode });
}

/** Unexpected errors are logged with the request id; users see the calm 500 page. */
export function handleError(error: unknown, { request, context }: { request: Request; context: AppLoadContext }) {
  if (request.signal.aborted) return;
  // describeError: a database error is logged without its statement and values (issue 12 §3).
  console.error(`[error] request=${context?.requestId ?? "-"} ${request.method} ${new URL(request.url).pathname}`, describeError(error));
}

/**
 * Called by server/index.js once at start-up: opens and migrates the database (so /healthz
 * turns green only when it is ready) and, unless disabled, runs the job worker in-process.
 */
export async function startBackground({ worker }: { worker: boolean }) {
  const db = await getDb();
  registerJobs();
  const env = getEnv();
  const mailWarning = mailDeliveryWarning(env);
  if (mailWarning) console.warn(mailWarning);
  // A process killed mid-upload left temporary objects behind: clear those at least an hour old.
  await removeStaleUploads(getStorage(), temporaryUploadMaxAgeMs(env)).then(
    (removed) => removed > 0 && console.info(`[files] removed ${removed} temporary upload object(s) left by an interrupted upload`),
    (error) => console.error("[files] could not clear temporary uploads:", describeError(error)),
  );
  const stopWorker = worker ? startWorker(db, { leaseMs: env.JOB_LEASE_MS, concurrency: env.JOB_CONCURRENCY }) : async () => {};
  return async () => {
    await stopWorker();
    await closeDb();
  };
}

/** Body caps and time-outs for server/index.js, from the validated environment (app/utils/http-limits.server.ts). */
export function serverLimits() {
  return httpLimits(getEnv());
}
