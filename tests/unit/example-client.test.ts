import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createClient, runExample } from "../../examples/api-client";
import { buildApp, startServer, type RunningServer } from "../support/real-server";

// Issue 17 §7: the example client (examples/api-client.ts) against the real production server,
// as an agency's developer would run it: a user made by the test fixture route, then only the API.

let build: ReturnType<typeof buildApp>;
let server: RunningServer;
const password = "example-password-1";

/** A confirmed admin of a fresh agency, made through the test-only fixture route (as the e2e tests do). */
async function createUser() {
  const email = `example-${randomUUID().slice(0, 8)}@example.test`;
  const response = await fetch(`${server.base}/api/test-fixtures`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password, agencyName: "Example Agency" }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return email;
}

beforeAll(async () => {
  build = buildApp();
  server = await startServer(build);
}, 240_000);

afterAll(async () => {
  await server?.stop();
  build?.remove();
});

describe("examples/api-client.ts", () => {
  test("log in → refresh → upload an export → walk the setup → import → list flagged renewals → re-market one", async () => {
    const email = await createUser();
    const lines: string[] = [];
    // No export of its own: the client uploads the server's sample, built around today, so renewals fall due.
    const result = await runExample({ baseUrl: server.base, email, password, log: (line) => lines.push(line) });

    expect(result.rotated).toBe(true);
    expect(result.uploadedBytes).toBeGreaterThan(1000);
    expect(result.importStatus).toBe("succeeded");
    expect(result.policiesImported).toBeGreaterThan(50);
    expect(result.flaggedCount).toBeGreaterThan(0);
    expect(result.remarketed.remarketId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.quotaUsed.after).toBe(result.quotaUsed.before + 1);
    // Each step printed its line, in order.
    expect(lines.map((l) => l.match(/^(\d)\./)?.[1]).filter(Boolean)).toEqual(["1", "2", "3", "4", "5", "6", "7"]);

    // The re-marketed policy left the open worklist and is listed as re-marketed.
    const api = createClient(server.base);
    await api.login(email, password);
    const remarketed = await api.call<{ data: { items: { policyId: string; remarketId: string | null }[] } }>(
      "GET",
      "/api/renewals/flagged?status=remarketed",
    );
    expect(remarketed.data.items).toEqual([
      expect.objectContaining({ policyId: result.remarketed.policyId, remarketId: result.remarketed.remarketId }),
    ]);
  }, 240_000);

  test("call() refreshes once on a 401 and retries; a refresh that is refused ends the sign-in", async () => {
    const email = await createUser();
    const api = createClient(server.base);
    const first = await api.login(email, password);
    api.expireAccessToken();
    const me = await api.call<{ email: string }>("GET", "/api/auth/user");
    expect(me.email).toBe(email);
    expect(api.tokens()?.refresh_token).not.toBe(first.refresh_token);

    // Presenting the spent refresh token again revokes the whole sign-in: the client's next 401 is final.
    const reused = await fetch(`${server.base}/api/auth/refresh`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ refresh_token: first.refresh_token }),
    });
    expect(reused.status).toBe(401);
    await expect(api.call("GET", "/api/auth/user")).rejects.toMatchObject({ status: 401 });
  }, 60_000);
});
