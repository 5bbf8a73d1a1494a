import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { seal, unseal } from "./sealed.server";

describe("sealed credentials (AES-256-GCM)", () => {
  const key = randomBytes(32);

  test("round-trips and never contains the plaintext", () => {
    const sealed = seal({ clientSecret: "s3cret-value" }, "conn-1", key);
    expect(sealed).not.toContain("s3cret");
    expect(unseal(sealed, "conn-1", key)).toEqual({ clientSecret: "s3cret-value" });
  });

  test("a fresh IV each time", () => {
    expect(seal("x", "c", key)).not.toBe(seal("x", "c", key));
  });

  test("refuses another context, another key, or a tampered body", () => {
    const sealed = seal({ a: 1 }, "conn-1", key);
    expect(() => unseal(sealed, "conn-2", key)).toThrow();
    expect(() => unseal(sealed, "conn-1", randomBytes(32))).toThrow();
    const parts = sealed.split(".");
    parts[3] = Buffer.from("tampered").toString("base64url");
    expect(() => unseal(parts.join("."), "conn-1", key)).toThrow();
  });
});
