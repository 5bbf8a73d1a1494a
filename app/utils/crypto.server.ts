import { createHash, randomBytes, randomInt } from "node:crypto";

/** URL-safe random token with `bytes` of entropy. */
export function randomToken(bytes = 32) {
  return randomBytes(bytes).toString("base64url");
}

export function sha256(value: string) {
  return createHash("sha256").update(value).digest("hex");
}

/** A zero-padded six-digit code from a CSPRNG. */
export function sixDigitCode() {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}
