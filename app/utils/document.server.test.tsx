import { Suspense } from "react";
import { describe, expect, test } from "vitest";
import { readHandoffAhead, renderStreamed, renderWhole } from "./document.server";

// A component that waits for data it never gets: what an <Await> does before its promise settles.
function Waits(): never {
  throw new Promise(() => {});
}

function Ready() {
  return <p>{"ready"}</p>;
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

describe("documents rendered whole", () => {
  test("a finished page is one buffer with its doctype, the same bytes the streaming renderer gives", async () => {
    const whole = renderWhole(page(<Ready />));
    expect(whole?.failed).toBe(false);
    expect(whole?.body.toString()).toMatch(/^<!DOCTYPE html><html lang="en">/);
    expect(whole?.body.toString()).toContain("&lt;b&gt;escaped&lt;/b&gt; &amp; kept");
    const streamed = await renderStreamed(page(<Ready />), { nonce: "", timeoutMs: 1000 });
    expect(whole?.body.equals(streamed.body)).toBe(true);
  });

  test("a page where a component is still waiting is not rendered whole (the caller streams it)", () => {
    expect(renderWhole(page(<Waits />))).toBeNull();
  });

  test("the hand-off stream is read ahead, all of it, as StreamTransfer's first entry and then its end", async () => {
    const encoder = new TextEncoder();
    // A multi-byte character split across two chunks must come out whole.
    const bytes = encoder.encode('[{"name":"Zoë"}]');
    const split = bytes.indexOf(0xc3) + 1;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, split));
        controller.enqueue(bytes.subarray(split));
        controller.close();
      },
    });
    const context: Parameters<typeof readHandoffAhead>[0] = { serverHandoffStream: stream, renderMeta: {} };
    await readHandoffAhead(context);
    const cache = context.renderMeta?.streamCache;
    expect(cache?.[0].result).toEqual({ done: false, value: '[{"name":"Zoë"}]' });
    expect(cache?.[1].result).toEqual({ done: true, value: "" });
    // Remix's RemixServer takes its own reader of the stream afterwards: the lock must be released.
    expect(stream.locked).toBe(false);
  });
});
