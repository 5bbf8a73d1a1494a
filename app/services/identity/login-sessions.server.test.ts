import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { sessions } from "~/db/schema";
import { sha256 } from "~/utils/crypto.server";
import { notify } from "../platform/notifications.server";
import {
  createLoginSession,
  resolveSession,
  revokeAllSessions,
  revokeSession,
  touchSession,
  UNREAD_COUNT_CAP,
} from "./login-sessions.server";
import { createTestTenant } from "../../../tests/support/factories";

const MINUTE = 60_000;
// The defaults of env.server.ts: 30 minutes idle, 12 hours absolute.
const IDLE = 30 * MINUTE;
const MAX = 12 * 60 * MINUTE;
const at = (start: Date, ms: number) => new Date(start.getTime() + ms);

async function rowOf(token: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(sessions)
    .where(eq(sessions.id, sha256(token)));
  return row;
}

describe("login sessions", () => {
  test("a new session stores only the hash of its token and resolves to its user and tenant", async () => {
    const { db, user, tenant } = await createTestTenant({ name: "Session Agency" });
    const start = new Date();
    const { token, idleExpiresAt } = await createLoginSession(db, { userId: user.id, tenantId: user.tenantId, userAgent: "vitest" }, start);
    expect(idleExpiresAt).toEqual(at(start, IDLE));

    const row = await rowOf(token);
    expect(row.id).toBe(sha256(token));
    expect(row.id).not.toBe(token);
    expect(row.expiresAt).toEqual(at(start, MAX));
    expect(row.userAgent).toBe("vitest");

    const auth = await resolveSession(db, token, at(start, 1000));
    expect(auth).toMatchObject({
      sessionId: sha256(token),
      user: { id: user.id, email: user.email, role: "admin" },
      tenant: { id: tenant.id, name: "Session Agency", isDemo: false },
    });
  });

  test("every login gets a fresh token (no fixation)", async () => {
    const { db, user } = await createTestTenant();
    const a = await createLoginSession(db, { userId: user.id, tenantId: user.tenantId });
    const b = await createLoginSession(db, { userId: user.id, tenantId: user.tenantId });
    expect(a.token).not.toBe(b.token);
  });

  test("an unknown token resolves to null", async () => {
    const { db } = await createTestTenant();
    expect(await resolveSession(db, "not-a-token")).toBeNull();
  });

  test("a session idle past its window is gone and is not revived", async () => {
    const { db, user } = await createTestTenant();
    const start = new Date();
    const { token } = await createLoginSession(db, { userId: user.id, tenantId: user.tenantId }, start);
    expect(await resolveSession(db, token, at(start, IDLE + 1000))).toBeNull();
    // Still null when asked again, even "earlier" with a clock that went back: the row was not renewed.
    expect((await rowOf(token)).idleExpiresAt).toEqual(at(start, IDLE));
  });

  test("a request inside the idle window renews it from the row", async () => {
    const { db, user } = await createTestTenant();
    const start = new Date();
    const { token } = await createLoginSession(db, { userId: user.id, tenantId: user.tenantId }, start);

    const renewed = await resolveSession(db, token, at(start, 10 * MINUTE));
    expect(renewed?.idleExpiresAt).toEqual(at(start, 40 * MINUTE));
    const row = await rowOf(token);
    expect(row.idleExpiresAt).toEqual(at(start, 40 * MINUTE));
    expect(row.renewedAt).toEqual(at(start, 10 * MINUTE));

    // Past the first idle window but inside the renewed one: still signed in.
    expect(await resolveSession(db, token, at(start, 35 * MINUTE))).not.toBeNull();
  });

  test("requests within a minute of the last renewal do not write", async () => {
    const { db, user } = await createTestTenant();
    const start = new Date();
    const { token } = await createLoginSession(db, { userId: user.id, tenantId: user.tenantId }, start);
    const auth = await resolveSession(db, token, at(start, 30_000));
    expect(auth?.idleExpiresAt).toEqual(at(start, IDLE));
    expect((await rowOf(token)).renewedAt).toBeNull();
  });

  test("renewal never passes the absolute expiry, and the absolute expiry ends the session", async () => {
    const { db, user } = await createTestTenant();
    const start = new Date();
    const { token } = await createLoginSession(db, { userId: user.id, tenantId: user.tenantId }, start);
    // Keep the session busy every 20 minutes for 12 hours.
    let now = start;
    for (let t = 20 * MINUTE; t < MAX; t += 20 * MINUTE) {
      now = at(start, t);
      const auth = await resolveSession(db, token, now);
      expect(auth, `active at ${t / MINUTE} min`).not.toBeNull();
      expect(auth!.idleExpiresAt.getTime()).toBeLessThanOrEqual(at(start, MAX).getTime());
    }
    expect(await resolveSession(db, token, at(start, MAX))).toBeNull();
  });

  test("a revoked session is gone", async () => {
    const { db, user } = await createTestTenant();
    const { token } = await createLoginSession(db, { userId: user.id, tenantId: user.tenantId });
    await revokeSession(db, sha256(token));
    expect(await resolveSession(db, token)).toBeNull();
    expect(await touchSession(db, sha256(token))).toBeNull();
  });

  test("a session read again and again (kept in memory on the embedded database) sees a revocation or a new notification at once", async () => {
    const { db, user } = await createTestTenant();
    const { token } = await createLoginSession(db, { userId: user.id, tenantId: user.tenantId });
    for (let i = 0; i < 3; i++) expect((await resolveSession(db, token))?.chrome.unreadNotifications).toBe(0);
    await notify(db, { tenantId: user.tenantId, kind: "test", title: "Hello" });
    expect((await resolveSession(db, token))?.chrome.unreadNotifications).toBe(1);
    expect((await resolveSession(db, token))?.chrome.unreadNotifications).toBe(1);
    await revokeSession(db, sha256(token));
    expect(await resolveSession(db, token)).toBeNull();
  });

  test("the bell's unread count stops at the cap (the bell says 99+ beyond 99)", async () => {
    const { db, user } = await createTestTenant();
    const { token } = await createLoginSession(db, { userId: user.id, tenantId: user.tenantId });
    for (let i = 0; i < UNREAD_COUNT_CAP + 5; i++) await notify(db, { tenantId: user.tenantId, kind: "test", title: `Hello ${i}` });
    expect((await resolveSession(db, token))?.chrome.unreadNotifications).toBe(UNREAD_COUNT_CAP);
  });

  test("revoking all ends every session of that user only", async () => {
    const { db, user } = await createTestTenant();
    const other = await createTestTenant();
    const a = await createLoginSession(db, { userId: user.id, tenantId: user.tenantId });
    const b = await createLoginSession(db, { userId: user.id, tenantId: user.tenantId });
    const theirs = await createLoginSession(db, { userId: other.user.id, tenantId: other.user.tenantId });

    expect(await revokeAllSessions(db, user.id)).toBe(2);
    expect(await resolveSession(db, a.token)).toBeNull();
    expect(await resolveSession(db, b.token)).toBeNull();
    expect(await resolveSession(db, theirs.token)).not.toBeNull();
    // Nothing left to revoke.
    expect(await revokeAllSessions(db, user.id)).toBe(0);
  });

  test("touch renews the idle window at once (the inactivity modal's Reset)", async () => {
    const { db, user } = await createTestTenant();
    const start = new Date();
    const { token } = await createLoginSession(db, { userId: user.id, tenantId: user.tenantId }, start);
    const touched = await touchSession(db, sha256(token), at(start, 29 * MINUTE));
    expect(touched).toEqual(at(start, 59 * MINUTE));
    expect(await resolveSession(db, token, at(start, 58 * MINUTE))).not.toBeNull();
  });

  test("touch cannot revive an idle-expired session", async () => {
    const { db, user } = await createTestTenant();
    const start = new Date();
    const { token } = await createLoginSession(db, { userId: user.id, tenantId: user.tenantId }, start);
    expect(await touchSession(db, sha256(token), at(start, IDLE + 1))).toBeNull();
    expect(await resolveSession(db, token, at(start, IDLE + 2))).toBeNull();
  });

  test("touch is capped by the absolute expiry", async () => {
    const { db, user } = await createTestTenant();
    const start = new Date();
    const { token } = await createLoginSession(db, { userId: user.id, tenantId: user.tenantId }, start);
    // Bring the idle window up to the last minutes of the absolute lifetime.
    await db
      .update(sessions)
      .set({ idleExpiresAt: at(start, MAX - 5 * MINUTE) })
      .where(eq(sessions.id, sha256(token)));
    const touched = await touchSession(db, sha256(token), at(start, MAX - 10 * MINUTE));
    expect(touched).toEqual(at(start, MAX));
  });
});
