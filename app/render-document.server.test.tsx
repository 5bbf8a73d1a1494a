import type { EntryContext } from "@remix-run/node";
import { Suspense } from "react";
import { describe, expect, test } from "vitest";
import { readHandoffAhead, renderDocument, renderStreamed, renderWhole } from "./render-document.server";

// A component that waits for data it never gets: what an <Await> does before its promise settles.
function Waits(): never {
  throw new Promise(() => {});
}

function Ready() {
  return <p>{"ready"}</p>;
}

/** Suspends until `ready` settles, then renders: an <Await> whose data comes a moment later. */
function later() {
  let settled = false;
  const ready = new Promise((resolve) => setTimeout(resolve, 20)).then(() => {
    settled = true;
  });
  return function Later() {
    if (!settled) throw ready;
    return <p>{"came later"}</p>;
  };
}

/** A document with `content` inside a Suspense boundary, as Remix renders its data transfer. */
function page(content: JSX.Element) {
  return (
    <html lang="en">
      <body>
        <Suspense fallback="loading">{content}</Suspense>
        <p>{"<b>escaped</b> & kept"}</p>
      </body>
    </html>
  );
}

function handoff(text: string | Uint8Array[]) {
  const chunks = typeof text === "string" ? [new TextEncoder().encode(text)] : text;
  const serverHandoffStream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const renderMeta: NonNullable<EntryContext["renderMeta"]> = {};
  return { serverHandoffStream, renderMeta };
}

describe("documents rendered whole", () => {
  test("a finished page is one buffer with its doctype, the same bytes the streaming renderer gives", async () => {
    const whole = renderWhole(() => page(<Ready />));
    expect(whole?.failed).toBe(false);
    expect(whole?.body.toString()).toMatch(/^<!DOCTYPE html><html lang="en">/);
    expect(whole?.body.toString()).toContain("&lt;b&gt;escaped&lt;/b&gt; &amp; kept");
    const streamed = await renderStreamed(page(<Ready />), { nonce: "", timeoutMs: 1000 });
    expect(whole?.body.equals(streamed.body)).toBe(true);
  });

  test("a page where a component is still waiting, inside a boundary or not, is not rendered whole", () => {
    expect(renderWhole(() => page(<Waits />))).toBeNull();
    expect(renderWhole(() => <Waits />)).toBeNull();
  });

  test("a page that waits is rendered by the streaming renderer, which waits for it, even after the first pass took the hand-off stream", async () => {
    const context = handoff('[{"loaderData":{}}]');
    const Later = later();
    // RemixServer takes a reader of the hand-off stream on every render, as this does.
    function TakesTheHandoff() {
      context.serverHandoffStream.getReader();
      return null;
    }
    const app = () => (
      <>
        <TakesTheHandoff />
        {page(<Later />)}
      </>
    );
    const document = await renderDocument(context, app, { nonce: "", timeoutMs: 1000 });
    expect(document.failed).toBe(false);
    expect(document.body.toString()).toContain("came later");
  });

  test("the hand-off stream is read ahead, all of it, as StreamTransfer's first entry and then its end", async () => {
    // A multi-byte character split across two chunks must come out whole.
    const bytes = new TextEncoder().encode('[{"name":"Zoë"}]');
    const split = bytes.indexOf(0xc3) + 1;
    const context = handoff([bytes.subarray(0, split), bytes.subarray(split)]);
    await readHandoffAhead(context);
    const cache = context.renderMeta.streamCache;
    expect(cache?.[0].result).toEqual({ done: false, value: '[{"name":"Zoë"}]' });
    expect(cache?.[1].result).toEqual({ done: true, value: "" });
    // Remix's RemixServer takes its own reader of the stream afterwards: the lock must be released.
    expect(context.serverHandoffStream.locked).toBe(false);
  });
});
