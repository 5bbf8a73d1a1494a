import { describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { createLoginSession, resolveSession } from "~/services/identity/login-sessions.server";
import { action } from "./auth.logout";
import { createTestTenant, makeRequest, sessionCookieFor } from "../../tests/support/factories";
import { responseOf } from "../../tests/support/route-results";

const args = (request: Request) => ({ request, params: {}, context: {} });

describe("/auth/logout", () => {
  test("signs out this browser only, clearing the session cookie but not the theme", async () => {
    const { user } = await createTestTenant();
    const db = await getDb();
    const other = await createLoginSession(db, { userId: user.id, tenantId: user.tenantId });
    const cookie = await sessionCookieFor(user);
    const response = await responseOf(() => action(args(makeRequest("/auth/logout", { cookie: `${cookie}; theme=dark`, form: {} }))));
    expect(response.headers.get("Location")).toBe("/auth/login");
    const setCookie = response.headers.get("Set-Cookie") ?? "";
    expect(setCookie).toMatch(/__session=;/);
    expect(setCookie).not.toMatch(/theme=/);
    expect(await resolveSession(db, other.token)).not.toBeNull();
  });

  test("intent=everywhere revokes every session of the user", async () => {
    const { user } = await createTestTenant();
    const db = await getDb();
    const other = await createLoginSession(db, { userId: user.id, tenantId: user.tenantId });
    const cookie = await sessionCookieFor(user);
    await responseOf(() => action(args(makeRequest("/auth/logout", { cookie, form: { intent: "everywhere" } }))));
    expect(await resolveSession(db, other.token)).toBeNull();
  });
});
