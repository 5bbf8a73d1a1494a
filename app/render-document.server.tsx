import { Writable } from "node:stream";
import type { EntryContext } from "@remix-run/node";
import type { ReactElement } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";

/** A whole document; `failed` when a component threw while the streaming renderer ran (answer 500). */
export type RenderedDocument = { body: Buffer<ArrayBuffer>; failed: boolean };

type HandoffContext = Pick<EntryContext, "serverHandoffStream" | "renderMeta">;
type StreamCache = NonNullable<NonNullable<EntryContext["renderMeta"]>["streamCache"]>;

/**
 * The document for `context`, whole. No route defers data, so a page is complete once its loaders
 * have run and is rendered in one synchronous pass: the streaming renderer spent a third of a small
 * page's server time encoding markup into 2 KB chunks and passing them through stream adapters,
 * for the same bytes. A page where a component suspends (an `<Await>`) is rendered again by the
 * streaming renderer, which waits for it. `app` builds the element; it is called once per pass.
 */
export async function renderDocument(context: HandoffContext, app: () => ReactElement, options: { nonce: string; timeoutMs: number }) {
  await readHandoffAhead(context);
  const whole = renderWhole(app);
  if (whole) return whole;
  // The first pass took the hand-off stream's reader (RemixServer does, even though StreamTransfer
  // then reads the cache): the second pass gets an empty stream of its own.
  context.serverHandoffStream = new ReadableStream({ start: (controller) => controller.close() });
  return renderStreamed(app(), options);
}

/**
 * Read Remix's hand-off stream (the loader data for the browser) to its end and leave it where
 * Remix's `StreamTransfer` looks first (`renderMeta.streamCache`, part of Remix's entry context).
 * StreamTransfer would otherwise read it chunk by chunk inside Suspense boundaries, which only the
 * streaming renderer can wait for.
 */
export async function readHandoffAhead(context: HandoffContext) {
  const stream = context.serverHandoffStream;
  if (!stream || !context.renderMeta) return;
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true });
  text += decoder.decode();
  reader.releaseLock();
  const resolved = (result: { done: boolean; value: string }) => Object.assign(Promise.resolve(), { result });
  // StreamTransfer renders entry 0 (all the data), then entry 1 (the end of the stream).
  const streamCache: StreamCache = { 0: resolved({ done: false, value: text }), 1: resolved({ done: true, value: "" }) };
  context.renderMeta.streamCache = streamCache;
}

/**
 * The document in one synchronous pass, or null when a component suspended: inside a Suspense
 * boundary React marks it client-rendered (`<!--$!-->`, which it never writes for markup it
 * finished); outside one it throws. Any other error thrown here is thrown again by the streaming
 * renderer, which reports it as before.
 */
export function renderWhole(app: () => ReactElement): RenderedDocument | null {
  let markup: string;
  try {
    markup = renderToString(app());
  } catch {
    return null;
  }
  if (markup.includes("<!--$!-->")) return null;
  return { body: Buffer.from(`<!DOCTYPE html>${markup}`), failed: false };
}

/** The streaming renderer, waited on until every boundary has resolved, collected into one buffer. */
export function renderStreamed(app: ReactElement, options: { nonce: string; timeoutMs: number }) {
  return new Promise<RenderedDocument>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let failed = false;
    const { pipe, abort } = renderToPipeableStream(app, {
      nonce: options.nonce,
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
              resolve({ body: Buffer.concat(chunks), failed });
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
        failed = true;
        console.error(error);
      },
    });
    const timeout = setTimeout(abort, options.timeoutMs);
  });
}
