import { describe, expect, test } from "vitest";
import { isLoopbackAddress, isLoopbackHost } from "./loopback.server";

describe("loopback checks (who may read the development outbox)", () => {
  test.each([
    ["127.0.0.1", true],
    ["127.8.9.10", true],
    ["::1", true],
    ["::ffff:127.0.0.1", true],
    ["0:0:0:0:0:0:0:1", true],
    ["192.0.2.2", false],
    ["10.0.0.1", false],
    ["::ffff:192.0.2.2", false],
    ["fd00::2", false],
    ["0.0.0.0", false],
    ["::", false],
    ["", false],
    [undefined, false],
    ["unknown", false],
    ["127.0.0.1.evil.example", false],
  ])("socket address %s → %s", (address, expected) => {
    expect(isLoopbackAddress(address)).toBe(expected);
  });

  test.each([
    ["localhost", true],
    ["LOCALHOST", true],
    ["127.0.0.1", true],
    ["[::1]", true],
    ["::1", true],
    ["app.localhost", false],
    ["localhost.evil.example", false],
    ["192.0.2.2", false],
    ["remarket.example", false],
    ["0.0.0.0", false],
  ])("APP_URL host %s → %s", (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});
