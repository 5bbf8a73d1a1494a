import { describe, expect, test } from "vitest";
import { loader as docs } from "~/routes/api.docs";
import { loader as api } from "~/routes/api.$";
import { action as login } from "~/routes/api.auth.login";
import { bearerFor, createTestTenant } from "../support/factories";

// Issue 17 §4: every /api answer that is not a success is RFC 9457 problem+json.

async function send(path: string, init: RequestInit = {}) {
  const response = await api({ request: new Request(`http://localhost${path}`, init), params: {}, context: {} });
  const type = response.headers.get("Content-Type");
  return {
    status: response.status,
    type,
    headers: response.headers,
    body: type?.includes("json") ? await response.json() : await response.text(),
  };
}

const json = (body: string, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)), ...headers },
  body,
});

describe("/api failures are problem+json", () => {
  test("an unknown path is a JSON 404, with or without a token, never the login page", async () => {
    const { user } = await createTestTenant();
    const withToken: Record<string, string>[] = [{}, { Authorization: await bearerFor(user) }];
    for (const headers of withToken) {
      const answer = await send("/api/no/such/thing", { headers });
      expect(answer).toMatchObject({
        status: 404,
        type: "application/problem+json",
        body: { type: "/problems/unknown-path", status: 404 },
      });
    }
  });

  test("a wrong method is a 405 naming the methods in Allow", async () => {
    const answer = await send("/api/customers/all", { method: "DELETE" });
    expect(answer).toMatchObject({ status: 405, type: "application/problem+json", body: { status: 405, title: "Method Not Allowed" } });
    expect(answer.headers.get("Allow")).toBe("GET, HEAD");
    const both = await send("/api/forecast-preferences", { method: "PUT" });
    expect(both.headers.get("Allow")).toBe("GET, HEAD, POST");
  });

  test("a form-encoded or text body is a 415; login says so instead of 'expected object, received null'", async () => {
    const { user } = await createTestTenant();
    const form = await login({
      request: new Request("http://localhost/api/auth/login", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "email=a%40b.test&password=x",
      }),
      params: {},
      context: {},
    });
    expect(form.status).toBe(415);
    expect(await form.json()).toMatchObject({ status: 415, detail: "Send JSON (Content-Type: application/json)." });
    const text = await send("/api/policies/remarket", { method: "POST", headers: { Authorization: await bearerFor(user) }, body: "x" });
    expect(text).toMatchObject({ status: 415, type: "application/problem+json" });
  });

  test("a JSON body declared over 1 MB is a 413 before it is read", async () => {
    const { user } = await createTestTenant();
    const answer = await send(
      "/api/policies/remarket",
      json("{}", { Authorization: await bearerFor(user), "Content-Length": String(2 * 1024 * 1024) }),
    );
    expect(answer).toMatchObject({
      status: 413,
      type: "application/problem+json",
      body: { detail: "The request body is larger than 1 MB." },
    });
  });

  test("malformed JSON is a 400; a missing field is named under errors", async () => {
    const { user } = await createTestTenant();
    const auth = { Authorization: await bearerFor(user) };
    expect(await send("/api/policies/remarket", json("{nope", auth))).toMatchObject({
      status: 400,
      body: { detail: "The body is not valid JSON." },
    });
    expect(await send("/api/policies/remarket", json("{}", auth))).toMatchObject({
      status: 400,
      body: { type: "/problems/invalid-input", errors: { policyId: ["policyId is required."] } },
    });
    expect(await send("/api/auth/login", json("{}"))).toMatchObject({
      status: 400,
      body: { errors: { email: ["email is required."], password: ["password is required."] } },
    });
    expect(await send("/api/stripe/get-payment-customer-id", { headers: auth })).toMatchObject({
      status: 400,
      body: { errors: { email: ["email is required."] } },
    });
  });

  test("no token is a 401 with WWW-Authenticate; a retired call is a 410 that says what to use", async () => {
    const answer = await send("/api/customers/counts");
    expect(answer).toMatchObject({ status: 401, type: "application/problem+json", body: { detail: "User is not authenticated" } });
    expect(answer.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
    const gone = await send("/api/getFirebaseCreds", json("{}"));
    expect(gone).toMatchObject({ status: 410, type: "application/problem+json", body: { title: "Gone" } });
    expect(gone.body.detail).toContain("/api/auth/login");
  });

  test("/api/docs is a server-rendered reference of every operation, without scripts", async () => {
    const page = await docs();
    const html = await page.text();
    expect(page.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(html).toContain("<code>/api/qoutes/policy/create-update</code>");
    expect(html).toContain("<code>/api/customers/{id}/audit-details</code>");
    expect(html).not.toContain("<script");
  });
});
