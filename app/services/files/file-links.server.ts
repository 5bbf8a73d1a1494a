import { createHmac, timingSafeEqual } from "node:crypto";
import { getEnv } from "~/env.server";

// A key of its own, derived from the session secret, so a link signature can never be
// replayed as anything else (and rotating SESSION_SECRET revokes every link).
function linkKey() {
  return createHmac("sha256", getEnv().sessionSecret).update("remarket:file-links:v1").digest();
}

function signature(fileId: string, expires: number) {
  return createHmac("sha256", linkKey()).update(`${fileId}.${expires}`).digest("base64url");
}

/** A public download path for `fileId` that works without a session until it expires (seed files/get-public-url). */
export function signFileLink(fileId: string, now = new Date(), ttlMinutes = getEnv().PUBLIC_LINK_TTL_MINUTES) {
  const expires = Math.floor(now.getTime() / 1000) + Math.round(ttlMinutes * 60);
  return {
    path: `/public/files/${fileId}?expires=${expires}&signature=${signature(fileId, expires)}`,
    expiresAt: new Date(expires * 1000),
  };
}

export type LinkCheck = "valid" | "expired" | "invalid";

/** Check a public link: the signature must match the id and expiry, and the expiry be in the future. */
export function verifyFileLink(fileId: string, expiresParam: string | null, signatureParam: string | null, now = new Date()): LinkCheck {
  if (!expiresParam || !signatureParam || !/^\d{1,12}$/.test(expiresParam)) return "invalid";
  const expected = Buffer.from(signature(fileId, Number(expiresParam)));
  const given = Buffer.from(signatureParam);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "invalid";
  return Number(expiresParam) * 1000 > now.getTime() ? "valid" : "expired";
}
