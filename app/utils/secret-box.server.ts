import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { getEnv } from "~/env.server";

// AES-256-GCM with the app's ENCRYPTION_KEY: a fresh 12-byte IV per secret, and the auth tag
// so a tampered value fails to open instead of decrypting to garbage.
const VERSION = "v1";

/** Seal a secret for storage: "v1:iv:tag:ciphertext" (base64url parts). */
export function sealSecret(plain: string, key = getEnv().encryptionKey) {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(":");
}

/** Open a sealed secret; throws when it was tampered with or sealed under another key. */
export function openSecret(sealed: string, key = getEnv().encryptionKey) {
  const [version, iv, tag, body] = sealed.split(":");
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error("Unrecognised sealed secret");
  // The full 16-byte tag only: GCM would accept a truncated one (as short as 4 bytes), which is forgeable.
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"), { authTagLength: 16 });
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}
