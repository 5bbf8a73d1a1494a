import { describe, expect, test } from "vitest";
import { revokeSession } from "~/services/login-sessions.server";
import { getAuth } from "./auth.server";
import { requestMemo, runInRequestScope } from "./request-scope.server";
import { createTestTenant, makeRequest, sessionCookieFor } from "../../tests/support/factories";

describe("request scope", () => {
  test("memoizes per key inside one request, and not across requests or outside one", async () => {
    let computed = 0;
    const compute = () => ++computed;
    runInRequestScope(() => {
      expect(requestMemo("k", compute)).toBe(1);
      expect(requestMemo("k", compute)).toBe(1);
      expect(requestMemo("other", compute)).toBe(2);
    });
    runInRequestScope(() => expect(requestMemo("k", compute)).toBe(3));
    expect(requestMemo("k", compute)).toBe(4);
    expect(requestMemo("k", compute)).toBe(5);
  });

  test("the loaders of one request share one session lookup, though each gets its own Request", async () => {
    const { db, user } = await createTestTenant();
    const cookie = await sessionCookieFor(user);
    await runInRequestScope(async () => {
      const first = await getAuth(makeRequest("/", { cookie }));
      expect(first?.user.id).toBe(user.id);
      // Revoked in between: a second lookup would say null, the shared one still answers.
      await revokeSession(db, first!.sessionId);
      expect((await getAuth(makeRequest("/?index", { cookie })))?.user.id).toBe(user.id);
    });
    // The next request looks again.
    await runInRequestScope(async () => expect(await getAuth(makeRequest("/", { cookie }))).toBeNull());
  });
});
