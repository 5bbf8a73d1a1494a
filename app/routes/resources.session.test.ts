import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { sessions } from "~/db/schema";
import { getCookies } from "~/sessions.server";
import { sha256 } from "~/utils/crypto.server";
import { action } from "./resources.session";
import { createTestTenant, makeRequest, sessionCookieFor } from "../../tests/support/factories";
import { responseOf } from "../../tests/support/route-results";

const args = (request: Request) => ({ request, params: {}, context: {} });

describe("/resources/session (the inactivity modal's Reset)", () => {
  test("renews the idle window and answers the new expiry", async () => {
    const { db, user } = await createTestTenant();
    const cookie = await sessionCookieFor(user);
    const token = await getCookies().sessionCookie.parse(cookie);
    // Pretend the last activity was 29 minutes ago: one minute of idle time left.
    const soon = new Date(Date.now() + 60_000);
    await db
      .update(sessions)
      .set({ idleExpiresAt: soon })
      .where(eq(sessions.id, sha256(token)));

    const before = Date.now();
    const result = await action(args(makeRequest("/resources/session", { cookie, form: { intent: "touch" } })));
    const expires = new Date(result.idleExpiresAt).getTime();
    expect(expires).toBeGreaterThanOrEqual(before + 30 * 60_000 - 1000);
    const [row] = await db
      .select({ idleExpiresAt: sessions.idleExpiresAt })
      .from(sessions)
      .where(eq(sessions.id, sha256(token)));
    expect(row.idleExpiresAt.getTime()).toBe(expires);
  });

  test("without a session it sends the visitor to login", async () => {
    const response = await responseOf(() => action(args(makeRequest("/resources/session", { form: { intent: "touch" } }))));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/auth\/login/);
  });
});
