import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { seal, unseal } from "./sealed.server";

// The one failure AES-256-GCM reports for a value that is not authentic (tampered, another key,
// another context). A different error (a JSON syntax error, say) would mean it was decrypted anyway.
const NOT_AUTHENTIC = "Unsupported state or unable to authenticate data";

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

  test("refuses another context, another key, or a tampered body, IV or tag", () => {
    const sealed = seal({ a: 1 }, "conn-1", key);
    expect(() => unseal(sealed, "conn-2", key)).toThrow(NOT_AUTHENTIC);
    expect(() => unseal(sealed, "conn-1", randomBytes(32))).toThrow(NOT_AUTHENTIC);
    for (const index of [1, 2, 3]) {
      const parts = sealed.split(".");
      const bytes = Buffer.from(parts[index], "base64url");
      bytes[0] ^= 1;
      parts[index] = bytes.toString("base64url");
      expect(() => unseal(parts.join("."), "conn-1", key)).toThrow(NOT_AUTHENTIC);
    }
    const parts = sealed.split(".");
    parts[3] = Buffer.from("tampered").toString("base64url");
    expect(() => unseal(parts.join("."), "conn-1", key)).toThrow(NOT_AUTHENTIC);
  });

  test("a truncated tag is refused", () => {
    const parts = seal({ a: 1 }, "conn-1", key).split(".");
    parts[2] = Buffer.from(parts[2], "base64url").subarray(0, 4).toString("base64url");
    expect(() => unseal(parts.join("."), "conn-1", key)).toThrow("Invalid authentication tag length: 4");
  });

  test("another format is not opened", () => {
    const [, iv, tag, body] = seal({ a: 1 }, "conn-1", key).split(".");
    for (const value of [`v2.${iv}.${tag}.${body}`, `v1.${iv}.${tag}`, ""])
      expect(() => unseal(value, "conn-1", key)).toThrow("Unknown sealed format");
  });
});
