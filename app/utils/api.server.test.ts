import { redirect } from "@remix-run/node";
import { afterEach, describe, expect, test, vi } from "vitest";
import { z } from "zod";
import { ApiTimeoutError, InvalidCredentialsError } from "~/services/connections/connectors/api-client.server";
import { NotFoundError, ServiceError } from "~/services/platform/errors.server";
import { log } from "~/services/platform/log.server";
import { createTestTenant, bearerFor } from "../../tests/support/factories";
import { loader as monthlyUsage } from "~/routes/api.billing-subscription.monthly-usage";
import { jsonRoute, methodNotAllowed, parseInput, readJsonObject } from "./api.server";

const args = (init: RequestInit = {}, path = "/api/thing") => ({
  request: new Request(`http://localhost${path}`, init),
  context: { requestId: "req-42" },
});

/** Answer a GET through the wrapper with whatever `run` throws, and read the problem back. */
async function answer(run: () => Promise<unknown>, init?: RequestInit) {
  const response = await jsonRoute(args(init), ["GET"], run);
  return { status: response.status, type: response.headers.get("Content-Type"), headers: response.headers, body: await response.json() };
}

afterEach(() => vi.restoreAllMocks());

describe("jsonRoute: one problem+json shape for every failure", () => {
  test("a result is JSON; a Response of the handler's own passes as it is", async () => {
    expect(await answer(async () => ({ data: [1] }))).toMatchObject({ status: 200, type: "application/json", body: { data: [1] } });
    const created = await jsonRoute(args(), ["GET"], async () => new Response(null, { status: 204 }));
    expect(created.status).toBe(204);
  });

  test("a ServiceError answers its status and message; one that names a field also lists it under errors", async () => {
    expect(await answer(async () => Promise.reject(new ServiceError("An import is already running.", 409)))).toEqual({
      status: 409,
      type: "application/problem+json",
      headers: expect.anything(),
      body: { type: "about:blank", title: "Conflict", status: 409, detail: "An import is already running." },
    });
    expect((await answer(async () => Promise.reject(new NotFoundError("Quote not found")))).body).toEqual({
      type: "about:blank",
      title: "Not Found",
      status: 404,
      detail: "Quote not found",
    });
    expect((await answer(async () => Promise.reject(new ServiceError("Choose a plan.", 400, "plan")))).body).toEqual({
      type: "/problems/invalid-input",
      title: "Some fields are not valid",
      status: 400,
      detail: "Choose a plan.",
      errors: { plan: ["Choose a plan."] },
    });
  });

  test("invalid input is a 400 with the messages by field, nested fields as dotted paths", async () => {
    const schema = z.object({
      id: z.string({ error: "id is required." }),
      mapping: z.object({ object: z.string({ error: "mapping.object is required." }) }),
    });
    const result = await answer(async () => parseInput(schema, { mapping: {} }));
    expect(result).toMatchObject({
      status: 400,
      type: "application/problem+json",
      body: {
        type: "/problems/invalid-input",
        status: 400,
        errors: { id: ["id is required."], "mapping.object": ["mapping.object is required."] },
      },
    });
  });

  test("a source that cannot be read is a 502", async () => {
    expect((await answer(async () => Promise.reject(new InvalidCredentialsError()))).body).toMatchObject({
      status: 502,
      detail: "The source refused the saved credentials.",
    });
    const timeout = await answer(async () => Promise.reject(new ApiTimeoutError("https://crm.example.test/x", 30_000)));
    expect(timeout).toMatchObject({
      status: 502,
      body: { detail: "The source could not be read: No answer from crm.example.test within 30000 ms" },
    });
  });

  test("an unexpected error is logged with the request id and answered 500 without its details", async () => {
    const logged = vi.spyOn(log, "error").mockImplementation(() => {});
    const result = await answer(async () => Promise.reject(new Error("relation does not exist")));
    expect(result).toMatchObject({
      status: 500,
      type: "application/problem+json",
      body: { type: "about:blank", title: "Internal Server Error", status: 500 },
    });
    expect(JSON.stringify(result.body)).not.toContain("relation");
    expect(logged).toHaveBeenCalledWith(
      { requestId: "req-42", method: "GET", path: "/api/thing", err: expect.any(Error) },
      "request failed",
    );
  });

  test("a thrown Response keeps its status (a plain one becomes a problem); redirects pass", async () => {
    expect(await answer(async () => Promise.reject(new Response("Only agency admins can do this.", { status: 403 })))).toMatchObject({
      status: 403,
      type: "application/problem+json",
      body: { title: "Forbidden", detail: "Only agency admins can do this." },
    });
    const moved = await jsonRoute(args(), ["GET"], async () => Promise.reject(redirect("/auth/login")));
    expect([moved.status, moved.headers.get("Location")]).toEqual([302, "/auth/login"]);
  });

  test("another method is a 405 that says which to use", async () => {
    const wrong = await jsonRoute(args({ method: "DELETE" }), ["GET", "POST"], async () => ({}));
    expect([wrong.status, wrong.headers.get("Allow")]).toEqual([405, "GET, POST"]);
    expect(await wrong.json()).toMatchObject({ title: "Method Not Allowed", status: 405 });
    expect((await jsonRoute(args({ method: "HEAD" }), ["GET"], async () => ({}))).status).toBe(200);
    const other = await methodNotAllowed();
    expect([other.status, other.headers.get("Content-Type")]).toEqual([405, "application/problem+json"]);
  });

  test("a JSON body must be sent as JSON and be an object; an empty body has no fields", async () => {
    const post = (body: string, type = "application/json") =>
      new Request("http://localhost/api/x", { method: "POST", headers: { "Content-Type": type }, body });
    expect(await readJsonObject(post('{"a":1}'))).toEqual({ a: 1 });
    expect(await readJsonObject(post(""))).toEqual({});
    expect((await answer(() => readJsonObject(post("a=1", "application/x-www-form-urlencoded")))).status).toBe(415);
    expect((await answer(() => readJsonObject(post("[1]")))).body).toMatchObject({ status: 400, detail: "Send a JSON object." });
    expect((await answer(() => readJsonObject(post("{nope")))).body).toMatchObject({ status: 400, detail: "The body is not valid JSON." });
  });
});

describe("an API route through the wrapper", () => {
  test("a bad usage query names the field; no token is a 401 problem", async () => {
    const { user } = await createTestTenant();
    const auth = { Authorization: await bearerFor(user) };
    const request = (query: string, headers: Record<string, string> = auth) =>
      new Request(`http://localhost/api/billing-subscription/monthly-usage${query}`, { headers });
    const bad = await monthlyUsage({ request: request("?month=13&year=2026"), params: {}, context: {} });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ type: "/problems/invalid-input", errors: { month: ["month must be 1 to 12."] } });
    const good = await monthlyUsage({ request: request("?month=&year=2026"), params: {}, context: {} });
    expect(good.status).toBe(200);
    const anonymous = await monthlyUsage({ request: request("", {}), params: {}, context: {} });
    expect([anonymous.status, anonymous.headers.get("WWW-Authenticate")]).toEqual([401, 'Bearer realm="remarket"']);
    expect(await anonymous.json()).toEqual({
      type: "about:blank",
      title: "Unauthorized",
      status: 401,
      detail: "User is not authenticated",
    });
  });
});
