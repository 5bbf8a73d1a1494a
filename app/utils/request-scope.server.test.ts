import { describe, expect, test } from "vitest";
import { revokeSession } from "~/services/login-sessions.server";
import { getAuth } from "./auth.server";
import { requestMemo } from "./request-scope.server";
import { createTestTenant, makeRequest, sessionCookieFor } from "../../tests/support/factories";

describe("request memo", () => {
  test("memoizes per key for one request, and not across requests", () => {
    let computed = 0;
    const compute = () => ++computed;
    const one = makeRequest("/");
    expect(requestMemo(one, "k", compute)).toBe(1);
    expect(requestMemo(one, "k", compute)).toBe(1);
    expect(requestMemo(one, "other", compute)).toBe(2);
    const two = makeRequest("/");
    expect(requestMemo(two, "k", compute)).toBe(3);
    expect(requestMemo(one, "k", compute)).toBe(1);
  });

  test("the loaders of one request share one session lookup; the next request looks again", async () => {
    const { db, user } = await createTestTenant();
    const cookie = await sessionCookieFor(user);
    const request = makeRequest("/", { cookie });
    const first = await getAuth(request);
    expect(first?.user.id).toBe(user.id);
    // Revoked in between: a second lookup would say null, the shared one still answers.
    await revokeSession(db, first!.sessionId);
    expect((await getAuth(request))?.user.id).toBe(user.id);
    expect(await getAuth(makeRequest("/", { cookie }))).toBeNull();
  });
});
