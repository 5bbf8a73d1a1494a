import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { closeDb, getDb } from "~/db/client.server";
import { getEnv } from "~/env.server";
import { registerJobs } from "~/jobs.server";
import { startWorker } from "~/services/jobs.server";
import { NonceProvider } from "~/utils/nonce";

export const streamTimeout = 5_000;

/**
 * No route defers data, so a document is complete as soon as React has rendered it: it is sent
 * whole, as one buffer with a Content-Length, rather than streamed in dozens of small writes
 * through three stream adapters (a third of a small page's server time went there). The hydration
 * data Remix streams in Suspense boundaries is already resolved, so waiting for all of it costs
 * nothing and bots and no-JavaScript browsers get the same complete page.
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
    const chunks: Buffer[] = [];
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          pipe(
            new Writable({
              // React treats a 'close' event as an early disconnect and ends the stream again.
              emitClose: false,
              write(chunk: Buffer, _encoding, done) {
                chunks.push(chunk);
                done();
              },
              final(done) {
                clearTimeout(timeout);
                const body = Buffer.concat(chunks);
                responseHeaders.set("Content-Type", "text/html; charset=utf-8");
                responseHeaders.set("Content-Length", String(body.byteLength));
                resolve(new Response(body, { headers: responseHeaders, status: responseStatusCode }));
                done();
              },
            }),
          );
        },
        onShellError(error: unknown) {
          clearTimeout(timeout);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          console.error(error);
        },
      },
    );
    const timeout = setTimeout(abort, streamTimeout + 1000);
  });
}

/** Unexpected errors are logged with the request id; users see the calm 500 page. */
export function handleError(error: unknown, { request, context }: { request: Request; context: AppLoadContext }) {
  if (request.signal.aborted) return;
  console.error(`[error] request=${context?.requestId ?? "-"} ${request.method} ${new URL(request.url).pathname}`, error);
}

/**
 * Called by server/index.js once at start-up: opens and migrates the database (so /healthz
 * turns green only when it is ready) and, unless disabled, runs the job worker in-process.
 */
export async function startBackground({ worker }: { worker: boolean }) {
  const db = await getDb();
  registerJobs();
  const env = getEnv();
  const stopWorker = worker ? startWorker(db, { leaseMs: env.JOB_LEASE_MS, concurrency: env.JOB_CONCURRENCY }) : async () => {};
  return async () => {
    await stopWorker();
    await closeDb();
  };
}
