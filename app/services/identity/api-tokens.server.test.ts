import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { refreshTokens } from "~/db/schema";
import { sha256 } from "~/utils/crypto.server";
import { ACCESS_TOKEN_TTL_MS, REFRESH_TOKEN_TTL_MS, issueApiTokens, refreshApiTokens, revokeApiSession } from "./api-tokens.server";
import { resolveSession, revokeAllSessions } from "./login-sessions.server";
import { createTestTenant } from "../../../tests/support/factories";

const at = (start: Date, ms: number) => new Date(start.getTime() + ms);

async function signedIn() {
  const t = await createTestTenant();
  const start = new Date();
  const tokens = await issueApiTokens(t.db, { userId: t.user.id, tenantId: t.tenant.id }, start);
  return { ...t, start, tokens };
}

describe("API access and refresh tokens", () => {
  test("an access token lives 15 minutes; only the refresh token's hash is stored", async () => {
    const { db, user, start, tokens } = await signedIn();
    expect(tokens.expiresInSeconds).toBe(ACCESS_TOKEN_TTL_MS / 1000);
    expect(tokens.accessExpiresAt).toEqual(at(start, ACCESS_TOKEN_TTL_MS));
    expect((await resolveSession(db, tokens.accessToken, at(start, ACCESS_TOKEN_TTL_MS - 1000)))?.user.id).toBe(user.id);
    expect(await resolveSession(db, tokens.accessToken, at(start, ACCESS_TOKEN_TTL_MS))).toBeNull();
    const rows = await db
      .select({ id: refreshTokens.id })
      .from(refreshTokens)
      .where(eq(refreshTokens.id, sha256(tokens.refreshToken)));
    expect(rows).toHaveLength(1);
  });

  test("a refresh rotates: a new access token and a new refresh token, the old one spent", async () => {
    const { db, user, start, tokens } = await signedIn();
    const later = at(start, ACCESS_TOKEN_TTL_MS + 60_000);
    const next = await refreshApiTokens(db, tokens.refreshToken, "vitest", later);
    expect(next).not.toBeNull();
    expect(next!.refreshToken).not.toBe(tokens.refreshToken);
    expect(next!.accessToken).not.toBe(tokens.accessToken);
    expect((await resolveSession(db, next!.accessToken, at(later, 1000)))?.user.id).toBe(user.id);
    // And the successor rotates in turn.
    expect(await refreshApiTokens(db, next!.refreshToken, null, at(later, 2000))).not.toBeNull();
  });

  test("a spent refresh token presented again revokes the whole family, access tokens included", async () => {
    const { db, start, tokens } = await signedIn();
    const second = (await refreshApiTokens(db, tokens.refreshToken, null, at(start, 1000)))!;
    const third = (await refreshApiTokens(db, second.refreshToken, null, at(start, 2000)))!;

    expect(await refreshApiTokens(db, tokens.refreshToken, null, at(start, 3000))).toBeNull();

    for (const access of [tokens.accessToken, second.accessToken, third.accessToken]) {
      expect(await resolveSession(db, access, at(start, 4000))).toBeNull();
    }
    expect(await refreshApiTokens(db, third.refreshToken, null, at(start, 5000))).toBeNull();
  });

  test("reuse in one family leaves another sign-in of the same user alone", async () => {
    const { db, user, tenant, start, tokens } = await signedIn();
    const other = await issueApiTokens(db, { userId: user.id, tenantId: tenant.id }, start);
    await refreshApiTokens(db, tokens.refreshToken, null, at(start, 1000));
    await refreshApiTokens(db, tokens.refreshToken, null, at(start, 2000));
    expect(await resolveSession(db, other.accessToken, at(start, 3000))).not.toBeNull();
    expect(await refreshApiTokens(db, other.refreshToken, null, at(start, 3000))).not.toBeNull();
  });

  test("two concurrent uses of one refresh token: one wins, the other is reuse", async () => {
    const { db, start, tokens } = await signedIn();
    const results = await Promise.all([1000, 1001].map((ms) => refreshApiTokens(db, tokens.refreshToken, null, at(start, ms))));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  test("an expired or unknown refresh token is refused", async () => {
    const { db, start, tokens } = await signedIn();
    expect(await refreshApiTokens(db, "not-a-token", null, start)).toBeNull();
    expect(await refreshApiTokens(db, tokens.refreshToken, null, at(start, REFRESH_TOKEN_TTL_MS))).toBeNull();
  });

  test("logout revokes the family: the access token and every refresh token of the sign-in", async () => {
    const { db, start, tokens } = await signedIn();
    const next = (await refreshApiTokens(db, tokens.refreshToken, null, at(start, 1000)))!;
    const session = await resolveSession(db, next.accessToken, at(start, 2000));
    await revokeApiSession(db, session!.sessionId, at(start, 3000));
    expect(await resolveSession(db, next.accessToken, at(start, 4000))).toBeNull();
    expect(await resolveSession(db, tokens.accessToken, at(start, 4000))).toBeNull();
    expect(await refreshApiTokens(db, next.refreshToken, null, at(start, 4000))).toBeNull();
  });
});

describe("signing out everywhere", () => {
  test("ends the API's refresh tokens too", async () => {
    const { db, user, start, tokens } = await signedIn();
    await revokeAllSessions(db, user.id, at(start, 1000));
    expect(await refreshApiTokens(db, tokens.refreshToken, null, at(start, 2000))).toBeNull();
  });
});
