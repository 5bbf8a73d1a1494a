import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { openSecret, sealSecret } from "./secret-box.server";

describe("secret box (AES-256-GCM)", () => {
  test("round-trips, never stores the plain text, and uses a fresh IV each time", () => {
    const a = sealSecret("portal-pass-1");
    const b = sealSecret("portal-pass-1");
    expect(a).not.toContain("portal-pass-1");
    expect(a).not.toBe(b);
    expect(openSecret(a)).toBe("portal-pass-1");
  });
  test("a tampered value or another key fails to open", () => {
    const sealed = sealSecret("secret");
    const parts = sealed.split(":");
    const flipped = Buffer.from(parts[3], "base64url");
    flipped[0] ^= 1;
    expect(() => openSecret([...parts.slice(0, 3), flipped.toString("base64url")].join(":"))).toThrow();
    expect(() => openSecret(sealed, randomBytes(32))).toThrow();
  });
});
