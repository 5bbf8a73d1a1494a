import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { openSecret, sealSecret } from "./secret-box.server";

// What AES-256-GCM answers when the authentication tag does not match: the only failure a
// tampered value, or one sealed under another key, may produce (a different error would mean the
// value got past the authentication check and failed somewhere else).
const NOT_AUTHENTIC = "Unsupported state or unable to authenticate data";

/** `sealed` with one bit of part `index` (1 iv, 2 tag, 3 ciphertext) flipped. */
function flipBit(sealed: string, index: number) {
  const parts = sealed.split(":");
  const bytes = Buffer.from(parts[index], "base64url");
  bytes[0] ^= 1;
  parts[index] = bytes.toString("base64url");
  return parts.join(":");
}

describe("secret box (AES-256-GCM)", () => {
  test("round-trips, never stores the plain text, and uses a fresh IV each time", () => {
    const a = sealSecret("portal-pass-1");
    const b = sealSecret("portal-pass-1");
    expect(a).not.toContain("portal-pass-1");
    expect(a).not.toBe(b);
    expect(openSecret(a)).toBe("portal-pass-1");
  });

  test("a tampered ciphertext, IV or tag fails authentication", () => {
    const sealed = sealSecret("secret");
    for (const index of [1, 2, 3]) expect(() => openSecret(flipBit(sealed, index))).toThrow(NOT_AUTHENTIC);
  });

  test("another key fails authentication", () => {
    expect(() => openSecret(sealSecret("secret"), randomBytes(32))).toThrow(NOT_AUTHENTIC);
  });

  test("a truncated tag is refused (a 4-byte tag would be forgeable)", () => {
    const parts = sealSecret("secret").split(":");
    parts[2] = Buffer.from(parts[2], "base64url").subarray(0, 4).toString("base64url");
    expect(() => openSecret(parts.join(":"))).toThrow("Invalid authentication tag length: 4");
  });

  test("another format or a missing part is not opened", () => {
    const [, iv, tag, body] = sealSecret("secret").split(":");
    for (const value of [`v2:${iv}:${tag}:${body}`, `v1:${iv}:${tag}`, "", "plain text"]) {
      expect(() => openSecret(value)).toThrow("Unrecognised sealed secret");
    }
  });
});
