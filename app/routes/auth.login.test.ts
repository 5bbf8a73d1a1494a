import { describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { resolveSession } from "~/services/identity/login-sessions.server";
import { getCookies } from "~/sessions.server";
import { action, loader } from "./auth.login";
import { TEST_PASSWORD, createTestTenant, makeRequest, sessionCookieFor } from "../../tests/support/factories";
import { responseOf, unwrapData } from "../../tests/support/route-results";

type Reply = { status?: string; initialValue?: Record<string, unknown>; error?: Record<string, string[] | null> };
const args = (request: Request) => ({ request, params: {}, context: {} });

describe("/auth/login", () => {
  test("a wrong password answers 400 with the generic message, keeping the e-mail but not the password", async () => {
    const { user } = await createTestTenant();
    const request = makeRequest("/auth/login", { form: { email: user.email, password: "not-it", redirectTo: "" } });
    const { status, data } = unwrapData<Reply>(await action(args(request)));
    expect(status).toBe(400);
    expect(data.initialValue?.email).toBe(user.email);
    expect(data.initialValue).not.toHaveProperty("password");
    expect(data.error?.[""]).toEqual(["Invalid e-mail or password."]);
  });

  test("an invalid e-mail gets a field message, not a 500", async () => {
    const request = makeRequest("/auth/login", { form: { email: "not-an-email", password: "x" } });
    const { status, data } = unwrapData<Reply>(await action(args(request)));
    expect(status).toBe(400);
    expect(data.error?.email).toEqual(["Enter a valid e-mail address."]);
    expect(data.initialValue?.email).toBe("not-an-email");
  });

  test("the right password starts a fresh session and goes to redirectTo", async () => {
    const { user } = await createTestTenant();
    const request = makeRequest("/auth/login", { form: { email: user.email, password: TEST_PASSWORD, redirectTo: "/settings/team" } });
    const response = await responseOf(() => action(args(request)));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/settings/team");
    const token = await getCookies().sessionCookie.parse(response.headers.get("Set-Cookie"));
    const auth = await resolveSession(await getDb(), token);
    expect(auth?.user.id).toBe(user.id);
  });

  test("an off-site redirectTo is ignored", async () => {
    const { user } = await createTestTenant();
    const request = makeRequest("/auth/login", { form: { email: user.email, password: TEST_PASSWORD, redirectTo: "//evil.example/x" } });
    const response = await responseOf(() => action(args(request)));
    expect(response.headers.get("Location")).toBe("/");
  });

  test("a filled honeypot is refused", async () => {
    const { user } = await createTestTenant();
    const request = makeRequest("/auth/login", { form: { email: user.email, password: TEST_PASSWORD, website: "spam" } });
    const response = await responseOf(() => action(args(request)));
    expect(response.status).toBe(400);
  });

  test("too many failures from one address answer 429 with the too-many-attempts message", async () => {
    const { user } = await createTestTenant();
    const headers = { "x-remarket-client-ip": "198.51.100.77" };
    for (let i = 0; i < 5; i++) await action(args(makeRequest("/auth/login", { form: { email: user.email, password: "wrong" }, headers })));
    const request = makeRequest("/auth/login", { form: { email: user.email, password: TEST_PASSWORD }, headers });
    const { status, data } = unwrapData<Reply>(await action(args(request)));
    expect(status).toBe(429);
    expect(data.error?.[""]?.[0]).toMatch(/Too many attempts/);
  });

  test("a signed-in visitor is sent home", async () => {
    const { user } = await createTestTenant();
    const cookie = await sessionCookieFor(user);
    const response = await responseOf(() => loader(args(makeRequest("/auth/login", { cookie }))));
    expect(response.headers.get("Location")).toBe("/");
  });
});
