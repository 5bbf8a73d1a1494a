import { createCookie } from "@remix-run/node";
import { describe, expect, test, vi } from "vitest";
import { rememberingParses } from "./sessions.server";

const signed = () => createCookie("__session", { secrets: ["test-secret"], path: "/" });

describe("the session cookie remembers what it parsed", () => {
  test("the same header is checked once and gives the same value; a forged one stays refused", async () => {
    const original = signed();
    const parse = vi.spyOn(original, "parse");
    const cookie = rememberingParses(original);
    const header = (await cookie.serialize("token-1")).split(";")[0];

    expect(await cookie.parse(header)).toBe("token-1");
    expect(await cookie.parse(header)).toBe("token-1");
    expect(parse).toHaveBeenCalledTimes(1);

    const forged = header.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    expect(await cookie.parse(forged)).toBeNull();
    expect(await cookie.parse(forged)).toBeNull();
    // Signed by another secret: refused too.
    const other = (await createCookie("__session", { secrets: ["other"] }).serialize("token-1")).split(";")[0];
    expect(await cookie.parse(other)).toBeNull();
    expect(await cookie.parse(`${header}; theme=dark`)).toBe("token-1");
  });

  test("it still is the cookie it wraps (name, serialize) and keeps only so many headers", async () => {
    const original = signed();
    const parse = vi.spyOn(original, "parse");
    const cookie = rememberingParses(original, 2);
    expect(cookie.name).toBe("__session");
    expect(cookie.isSigned).toBe(true);
    const headers = await Promise.all(["a", "b", "c"].map(async (v) => (await cookie.serialize(v)).split(";")[0]));
    for (const h of headers) await cookie.parse(h);
    expect(parse).toHaveBeenCalledTimes(3);
    // "a" was the oldest and went first; "c" is still known.
    expect(await cookie.parse(headers[2])).toBe("c");
    expect(parse).toHaveBeenCalledTimes(3);
    expect(await cookie.parse(headers[0])).toBe("a");
    expect(parse).toHaveBeenCalledTimes(4);
  });
});
