import { afterEach, describe, expect, test } from "vitest";
import { getEnv } from "~/env.server";
import { withEnv } from "../../tests/support/env";
import { httpLimits } from "./http-limits.server";

// Issue 12 §5: 200 slowloris sockets were all open after 60 s (Node's defaults). The defaults set
// here: headers in 20 s, bodies by size, keep-alive above a load balancer's 60 s idle time-out.

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

describe("HTTP limits", () => {
  test("defaults: headers in 20 s, a 1 MB cap on JSON and forms, keep-alive past 60 s", () => {
    restore = withEnv({
      HEADERS_TIMEOUT_MS: undefined,
      REQUEST_BODY_MAX_BYTES: undefined,
      KEEP_ALIVE_TIMEOUT_MS: undefined,
      UPLOAD_MAX_BYTES: undefined,
    });
    const limits = httpLimits(getEnv());
    expect(limits.headersTimeoutMs).toBe(20_000);
    expect(limits.requestBodyMaxBytes).toBe(1024 * 1024);
    expect(limits.keepAliveTimeoutMs).toBeGreaterThan(60_000);
    expect(limits.uploadBodyMaxBytes).toBeGreaterThan(100 * 1024 * 1024);
  });

  test("a body's deadline grows with its size: a 100 MB upload on a 0.5 Mbit/s line completes, a small form does not get minutes", () => {
    restore = withEnv({ REQUEST_TIMEOUT_MS: undefined, UPLOAD_MIN_BYTES_PER_SECOND: undefined });
    const { bodyDeadlineMs } = httpLimits(getEnv());
    const halfMegabitPerSecond = 500_000 / 8;
    expect(bodyDeadlineMs(100 * 1024 * 1024)).toBeGreaterThan(((100 * 1024 * 1024) / halfMegabitPerSecond) * 1000);
    expect(bodyDeadlineMs(100 * 1024 * 1024)).toBeLessThan(3_600_000);
    expect(bodyDeadlineMs(2_000)).toBeLessThan(60_000);
  });

  test("each is configurable, and a bad value stops start-up with one clear line", () => {
    restore = withEnv({ HEADERS_TIMEOUT_MS: "5000", REQUEST_BODY_MAX_BYTES: "2048" });
    expect(httpLimits(getEnv())).toMatchObject({ headersTimeoutMs: 5_000, requestBodyMaxBytes: 2_048 });
    restore();
    restore = withEnv({ HEADERS_TIMEOUT_MS: "soon" });
    expect(() => getEnv()).toThrow(/HEADERS_TIMEOUT_MS/);
  });
});
