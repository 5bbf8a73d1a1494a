import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { getEnv } from "~/env.server";

// AES-256-GCM for secrets at rest (connection credentials). The key comes from ENCRYPTION_KEY,
// or on a laptop from DATA_DIR/encryption-key (env.server.ts generates and keeps it).
// `context` is bound as associated data, so a sealed value copied to another row won't open.

const VERSION = "v1";

/** Seal a JSON value for `context` (e.g. the connection id). */
export function seal(value: unknown, context: string, key = getEnv().encryptionKey) {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
}

/** Open a sealed value; throws when it was tampered with or sealed for another context. */
export function unseal<T = unknown>(sealed: string, context: string, key = getEnv().encryptionKey): T {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error("Unknown sealed format");
  // The full 16-byte tag only: GCM would accept a truncated one (as short as 4 bytes), which is forgeable.
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"), { authTagLength: 16 });
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  const text = Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  return JSON.parse(text) as T;
}
