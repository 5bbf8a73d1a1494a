import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { users } from "~/db/schema";
import { action } from "./_app.settings.account";
import { createTestTenant, makeRequest, sessionCookieFor } from "../../tests/support/factories";

const args = (request: Request) => ({ request, params: {}, context: {} });

describe("/settings/account: your name (seed PATCH /user/{id})", () => {
  test("a name is saved and the page redirects with a toast; a blank one is refused on the field", async () => {
    const { user, db } = await createTestTenant();
    const cookie = await sessionCookieFor(user);
    const saved = (await action(
      args(makeRequest("/settings/account", { cookie, form: { intent: "rename", name: "  Robin Agent " } })),
    )) as Response;
    expect(saved.status).toBe(302);
    const [row] = await db.select({ name: users.name }).from(users).where(eq(users.id, user.id));
    expect(row.name).toBe("Robin Agent");
    const refused = (await action(args(makeRequest("/settings/account", { cookie, form: { intent: "rename", name: "   " } })))) as {
      rename: { error?: Record<string, string[] | null> };
    };
    expect(refused.rename.error?.name).toEqual(["Your name is required."]);
  });
});
