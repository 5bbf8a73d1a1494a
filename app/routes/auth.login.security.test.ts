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

describe("/auth/login lock-out (issue 12 §4)", () => {
  test("five wrong passwords from a stranger's address: the owner still signs in from home (was 429 from everywhere)", async () => {
    const { user } = await createTestTenant();
    const stranger = { "x-remarket-client-ip": "203.0.113.66" };
    for (let i = 0; i < 5; i++)
      await action(args(makeRequest("/auth/login", { form: { email: user.email, password: "guess" }, headers: stranger })));
    const home = makeRequest("/auth/login", {
      form: { email: user.email, password: TEST_PASSWORD, redirectTo: "/" },
      headers: { "x-remarket-client-ip": "198.51.100.10" },
    });
    const response = await responseOf(() => action(args(home)));
    expect(response.status).toBe(302);
    expect(response.headers.get("Set-Cookie")).toMatch(/__session=/);
  });
});
