import { eq } from "drizzle-orm";
import { afterEach, describe, expect, test } from "vitest";
import { users } from "~/db/schema";
import { resetEnvForTests } from "~/env.server";
import { loader } from "./_app.admin";
import { createTestTenant, makeRequest, sessionCookieFor, uniqueEmail } from "../../tests/support/factories";
import { responseOf } from "../../tests/support/route-results";

const args = (request: Request) => ({ request, params: {}, context: {} });

describe("/admin (internal staff only)", () => {
  const saved = process.env.STAFF_EMAILS;
  afterEach(() => {
    if (saved === undefined) delete process.env.STAFF_EMAILS;
    else process.env.STAFF_EMAILS = saved;
    resetEnvForTests();
  });

  test("is a 404 for an agency user and shows every tenant to a listed staff member", async () => {
    const staffEmail = uniqueEmail("staff").toLowerCase();
    process.env.STAFF_EMAILS = ` ${staffEmail.toUpperCase()} , someone@example.test`;
    resetEnvForTests();

    const agency = await createTestTenant({ name: "Agency Not Staff" });
    const agencyCookie = await sessionCookieFor(agency.user);
    const notStaff = await responseOf(() => loader(args(makeRequest("/admin", { cookie: agencyCookie }))));
    expect(notStaff.status).toBe(404);

    const staff = await createTestTenant({ name: "Staff Home" });
    await staff.db.update(users).set({ email: staffEmail }).where(eq(users.id, staff.user.id));
    const data = await loader(args(makeRequest("/admin", { cookie: await sessionCookieFor(staff.user) })));
    const names = data.tenants.map((t) => t.name);
    expect(names).toContain("Agency Not Staff");
    expect(names).toContain("Staff Home");
  });

  test("signed out, it sends the visitor to login", async () => {
    const response = await responseOf(() => loader(args(makeRequest("/admin"))));
    expect(response.headers.get("Location")).toBe("/auth/login?redirectTo=%2Fadmin");
  });
});
