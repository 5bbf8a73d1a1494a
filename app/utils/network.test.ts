import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  ConnectionError,
  FAIL_FAST_FIELD,
  backoffMs,
  getSnapshot,
  isAbandoned,
  isConnectionError,
  recordAnswer,
  wrapFetch,
} from "./network";

const ORIGIN = "http://remarket.test";
const lost = () => Promise.reject(new TypeError("Failed to fetch"));

/** A stand-in for the browser's fetch that answers from a script, one entry per call. */
function scripted(...answers: (() => Promise<Response>)[]) {
  const calls: { input: unknown; init: RequestInit | undefined }[] = [];
  const native = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ input, init });
    const next = answers.shift();
    if (!next) throw new Error("no more answers scripted");
    return next();
  }) as typeof fetch;
  return { fetch: wrapFetch(native, ORIGIN), calls };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  recordAnswer();
});

describe("data reads", () => {
  it("retry a lost read 3 times, 1 s, 2 s and 4 s apart (seed §9), capped at 30 s", async () => {
    const { fetch, calls } = scripted(lost, lost, lost, async () => new Response("ok"));
    const answer = fetch(`${ORIGIN}/customers.data`);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(4000);
    expect(await (await answer).text()).toBe("ok");
    expect(backoffMs(10)).toBe(30_000);
  });

  it("fail with a ConnectionError after the retries; the failures in a row are counted", async () => {
    const { fetch, calls } = scripted(lost, lost, lost, lost);
    const answer = fetch(`${ORIGIN}/customers.data`);
    const settled = expect(answer).rejects.toBeInstanceOf(ConnectionError);
    await vi.advanceTimersByTimeAsync(7000);
    await settled;
    expect(calls).toHaveLength(4);
    expect(getSnapshot().failuresInARow).toBe(4);
  });

  it("try a 5xx once more after 1000 ms, then hand it over as it came", async () => {
    const { fetch, calls } = scripted(
      async () => new Response("busy", { status: 503 }),
      async () => new Response("still busy", { status: 503 }),
    );
    const answer = fetch(`${ORIGIN}/tasks.data`);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect((await answer).status).toBe(503);
    expect(calls).toHaveLength(2);
  });

  it("leave other origins alone", async () => {
    const { fetch, calls } = scripted(lost);
    await expect(fetch("https://elsewhere.test/x")).rejects.toThrow("Failed to fetch");
    expect(calls).toHaveLength(1);
  });
});

describe("submissions", () => {
  it("hold a lost submission until 'Try again', then send the same body (same token) again", async () => {
    const { fetch, calls } = scripted(lost, async () => new Response("done"));
    const body = new FormData();
    body.set("_formToken", "t".repeat(22));
    const answer = fetch(`${ORIGIN}/remarket.data`, { method: "POST", body });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(1);
    expect(getSnapshot().held).toHaveLength(1);
    getSnapshot().held[0].tryAgain();
    expect(await (await answer).text()).toBe("done");
    expect(calls[1].init?.body).toBe(body);
    expect(getSnapshot().held).toHaveLength(0);
  });

  it("let go of a held submission when the page abandons it", async () => {
    const { fetch } = scripted(lost);
    const controller = new AbortController();
    const answer = fetch(`${ORIGIN}/remarket.data`, { method: "POST", body: new FormData(), signal: controller.signal });
    await vi.advanceTimersByTimeAsync(0);
    expect(getSnapshot().held).toHaveLength(1);
    controller.abort();
    await expect(answer).rejects.toThrow();
    expect(getSnapshot().held).toHaveLength(0);
  });

  it("fail at once, unheld, for a form that asks to (mark as read)", async () => {
    const { fetch } = scripted(lost);
    const body = new URLSearchParams({ [FAIL_FAST_FIELD]: "1" });
    await expect(fetch(`${ORIGIN}/notifications.data`, { method: "POST", body })).rejects.toBeInstanceOf(ConnectionError);
    expect(getSnapshot().held).toHaveLength(0);
  });

  it("try a 5xx answer once more after 1000 ms", async () => {
    const { fetch, calls } = scripted(
      async () => new Response("", { status: 500 }),
      async () => new Response("ok"),
    );
    const answer = fetch(`${ORIGIN}/quotes/1.data`, { method: "POST", body: new FormData() });
    await vi.advanceTimersByTimeAsync(1000);
    expect((await answer).status).toBe(200);
    expect(calls).toHaveLength(2);
  });
});

it("tell a fetch that got no answer from an answer that reports an error", () => {
  expect(isConnectionError(new TypeError("Failed to fetch"))).toBe(true);
  expect(isConnectionError(new ConnectionError())).toBe(true);
  expect(isConnectionError(new Error("Unexpected Server Error"))).toBe(false);
  expect(isConnectionError(new TypeError("x is not a function"))).toBe(false);
});

describe("isAbandoned", () => {
  it("is the rejection of a request the page aborted, and nothing else", () => {
    const controller = new AbortController();
    controller.abort();
    expect(isAbandoned(controller.signal.reason)).toBe(true);
    expect(isAbandoned(new DOMException("Aborted", "AbortError"))).toBe(true);
    expect(isAbandoned(new DOMException("Timed out", "TimeoutError"))).toBe(false);
    expect(isAbandoned(new TypeError("Failed to fetch"))).toBe(false);
    expect(isAbandoned(new ConnectionError())).toBe(false);
    expect(isAbandoned(Object.assign(new Error("x"), { name: "AbortError" }))).toBe(false);
  });
});
