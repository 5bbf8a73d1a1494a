import { describe, expect, test } from "vitest";
import { TEST_PASSWORD, createTestTenant } from "../../tests/support/factories";
import { action as loginAction } from "./api.auth.login";
import { action as logoutAction } from "./api.auth.logout";
import { loader as userLoader } from "./api.auth.user";

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "x-remarket-client-ip": "203.0.113.9", ...headers },
    body: JSON.stringify(body),
  });

describe("API bearer tokens", () => {
  test("login → token → user → logout → token refused", async () => {
    const { user, tenant } = await createTestTenant();
    const login = await loginAction({
      request: post("/api/auth/login", { email: user.email, password: TEST_PASSWORD }),
      params: {},
      context: {},
    });
    expect(login.status).toBe(200);
    const { access_token } = (await login.json()) as { access_token: string };

    const me = await userLoader({
      request: new Request("http://localhost/api/auth/user", { headers: { Authorization: `Bearer ${access_token}` } }),
      params: {},
      context: {},
    });
    expect(await me.json()).toMatchObject({ id: user.id, tenant: { id: tenant.id }, "custom:paid": "true" });

    const out = await logoutAction({
      request: post("/api/auth/logout", {}, { Authorization: `Bearer ${access_token}` }),
      params: {},
      context: {},
    });
    expect(out.status).toBe(204);
    const refused = await userLoader({
      request: new Request("http://localhost/api/auth/user", { headers: { Authorization: `Bearer ${access_token}` } }),
      params: {},
      context: {},
    }).catch((r: Response) => r);
    expect((refused as Response).status).toBe(401);
  });

  test("the session cookie alone is not accepted by the API", async () => {
    const request = new Request("http://localhost/api/auth/user", { headers: { Cookie: "__session=anything" } });
    const refused = await userLoader({ request, params: {}, context: {} }).catch((r: Response) => r);
    expect((refused as Response).status).toBe(401);
  });

  test("a wrong password is a 401 with the generic message", async () => {
    const { user } = await createTestTenant();
    const res = await loginAction({ request: post("/api/auth/login", { email: user.email, password: "nope" }), params: {}, context: {} });
    expect(res.status).toBe(401);
    expect(res.headers.get("Content-Type")).toBe("application/problem+json");
    expect(await res.json()).toEqual({ type: "about:blank", title: "Unauthorized", status: 401, detail: "Invalid e-mail or password." });
  });
});
