import { describe, expect, test } from "vitest";
import { action } from "./auth.login";
import { TEST_PASSWORD, createTestTenant, makeRequest } from "../../tests/support/factories";
import { responseOf } from "../../tests/support/route-results";

const args = (request: Request) => ({ request, params: {}, context: {} });
const login = (email: string, redirectTo: string) =>
  responseOf(() => action(args(makeRequest("/auth/login", { form: { email, password: TEST_PASSWORD, redirectTo } }))));

describe("/auth/login redirectTo (issue 12 §2)", () => {
  test("a tab after the slash does not leave the site", async () => {
    const { user } = await createTestTenant();
    const response = await login(user.email, "/\t/evil.example/phish");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
  });

  test("a line feed is not a 500 after the session was made: the user lands on the dashboard", async () => {
    const { user } = await createTestTenant();
    const response = await login(user.email, "/\n/evil.example");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    expect(response.headers.get("Set-Cookie")).toMatch(/__session=/);
  });
});
