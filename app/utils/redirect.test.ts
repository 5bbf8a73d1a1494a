import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { safeRedirect } from "./redirect";
import { withEnv } from "../../tests/support/env";

// Issue 12 §2: `Location: /\t/evil.example/phish` sent browsers to http://evil.example/phish.

let restore: () => void;
beforeAll(() => {
  restore = withEnv({ APP_URL: "https://app.remarket.example" });
});
afterAll(() => restore());

describe("safeRedirect", () => {
  test.each([
    ["tab after the slash", "/\t/evil.example/phish"],
    ["carriage return", "/\r/evil.example"],
    ["line feed (was a 500: invalid header)", "/\n/evil.example"],
    ["NUL", "/settings\u0000"],
    ["scheme-relative", "//evil.example/phish"],
    ["slash backslash", "/\\evil.example/phish"],
    ["backslash backslash", "\\\\evil.example"],
    ["encoded slashes", "/%2F%2Fevil.example"],
    ["encoded slashes, lower case", "/%2f%2fevil.example"],
    ["encoded backslash", "/%5Cevil.example"],
    ["encoded tab", "/%09/evil.example"],
    ["dot segment to a scheme-relative path", "/.//evil.example"],
    ["javascript:", "javascript:alert(document.cookie)"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
    ["a leading space", " /settings"],
    ["a trailing line separator", "/settings\u2028"],
    ["another site", "https://evil.example/phish"],
    ["a look-alike host", "https://app.remarket.example.evil.example/"],
    ["our host over another scheme", "http://app.remarket.example/settings"],
    ["our host, another port", "https://app.remarket.example:8443/settings"],
    ["our origin with a scheme-relative path", "https://app.remarket.example//evil.example/x"],
    ["user info", "https://evil.example@app.remarket.example.evil.example/"],
    ["empty", ""],
    ["far too long", `/${"a".repeat(5000)}`],
  ])("%s → /", (_what, to) => {
    expect(safeRedirect(to)).toBe("/");
  });

  test.each([
    ["a path", "/settings/team", "/settings/team"],
    ["a path with a query and a hash", "/customers?q=smith&page=2#top", "/customers?q=smith&page=2#top"],
    ["an encoded slash inside the query (a search for a/b)", "/customers?q=a%2Fb", "/customers?q=a%2Fb"],
    ["an absolute same-origin URL, made relative", "https://app.remarket.example/customers?q=1", "/customers?q=1"],
  ])("%s is kept", (_what, to, expected) => {
    expect(safeRedirect(to)).toBe(expected);
  });

  test("non-strings and missing values fall back, to the given fallback", () => {
    expect(safeRedirect(null)).toBe("/");
    expect(safeRedirect(undefined, "/notifications")).toBe("/notifications");
    expect(safeRedirect(new File(["x"], "x"), "/notifications")).toBe("/notifications");
    expect(safeRedirect("//evil.example", "/notifications")).toBe("/notifications");
  });
});
