import { describe, expect, test } from "vitest";
import { signFileLink, verifyFileLink } from "./file-links.server";

const fileId = "5b0b7a43-9f34-4c1d-9a8e-0b1f3c2d4e5f";
const params = (path: string) => new URL(path, "http://x").searchParams;

describe("signed public links", () => {
  const now = new Date("2026-03-01T12:00:00Z");
  const { path, expiresAt } = signFileLink(fileId, now);
  const q = params(path);

  test("valid for 15 minutes by default", () => {
    expect(path.startsWith(`/public/files/${fileId}?`)).toBe(true);
    expect(expiresAt.toISOString()).toBe("2026-03-01T12:15:00.000Z");
    expect(verifyFileLink(fileId, q.get("expires"), q.get("signature"), new Date(now.getTime() + 14 * 60_000))).toBe("valid");
  });

  test("expired after its time", () => {
    expect(verifyFileLink(fileId, q.get("expires"), q.get("signature"), new Date(now.getTime() + 15 * 60_000 + 1))).toBe("expired");
  });

  test("tampered: another expiry, another file id, a changed or missing signature", () => {
    const later = String(Number(q.get("expires")) + 3600);
    expect(verifyFileLink(fileId, later, q.get("signature"), now)).toBe("invalid");
    expect(verifyFileLink(fileId.replace("5b0b", "5b0c"), q.get("expires"), q.get("signature"), now)).toBe("invalid");
    const sig = q.get("signature")!;
    expect(verifyFileLink(fileId, q.get("expires"), `${sig[0] === "A" ? "B" : "A"}${sig.slice(1)}`, now)).toBe("invalid");
    expect(verifyFileLink(fileId, q.get("expires"), null, now)).toBe("invalid");
    expect(verifyFileLink(fileId, "12abc", sig, now)).toBe("invalid");
  });
});
