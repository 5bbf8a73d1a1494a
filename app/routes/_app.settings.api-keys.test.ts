import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { createApiKey, listApiKeys } from "~/services/identity/api-keys.server";
import { action, loader } from "./_app.settings.api-keys";
import { addTestUser, createTestTenant, makeRequest, sessionCookieFor } from "../../tests/support/factories";
import { responseOf, unwrapData } from "../../tests/support/route-results";

type Page = { keys: { id: string; name: string }[]; reveal: { secret: string } | null; createdName: string | null };
type Reply = { error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> };
const args = (request: Request) => ({ request, params: {}, context: {} });

/** The cookies a response sets, as a Cookie header for the next request. */
const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

describe("/settings/api-keys", () => {
  test("create shows the secret once: on the redirect's page, not on a reload", async () => {
    const a = await createTestTenant();
    const cookie = await sessionCookieFor(a.user);
    const form = { intent: "create", name: "Zapier", scope: "read", _formToken: randomUUID() };
    const created = await responseOf(() => action(args(makeRequest("/settings/api-keys", { cookie, form }))));
    expect(created.status).toBe(302);
    const location = created.headers.get("Location")!;
    expect(location).toMatch(/^\/settings\/api-keys\?created=/);

    const shown = unwrapData<Page>(await loader(args(makeRequest(location, { cookie: `${cookie}; ${cookiesOf(created)}` }))));
    expect(shown.data.reveal?.secret).toMatch(/^rmk_[A-Za-z0-9]{8}_/);
    expect(shown.data.keys.map((k) => k.name)).toEqual(["Zapier"]);

    const reloaded = unwrapData<Page>(await loader(args(makeRequest(location, { cookie }))));
    expect(reloaded.data.reveal).toBeNull();
    expect(reloaded.data.createdName).toBe("Zapier");
  });

  test("the same create submitted twice makes one key; the second answer carries no secret", async () => {
    const a = await createTestTenant();
    const cookie = await sessionCookieFor(a.user);
    const form = { intent: "create", name: "Twice", scope: "write", _formToken: randomUUID() };
    const first = await responseOf(() => action(args(makeRequest("/settings/api-keys", { cookie, form }))));
    const second = await responseOf(() => action(args(makeRequest("/settings/api-keys", { cookie, form }))));
    expect(second.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(second.headers.getSetCookie().join()).not.toContain("__api_key_reveal");
    expect(await listApiKeys(a.ctx)).toHaveLength(1);
  });

  test("an invalid name keeps the input and names the field", async () => {
    const a = await createTestTenant();
    const cookie = await sessionCookieFor(a.user);
    const request = makeRequest("/settings/api-keys", { cookie, form: { intent: "create", name: " ", scope: "read" } });
    const { status, data } = unwrapData<Reply>(await action(args(request)));
    expect(status).toBe(400);
    expect(data.error?.name).toEqual(["Name the key."]);
  });

  test("revoke takes the key off the list; another agency's key id answers 404 and stays", async () => {
    const a = await createTestTenant();
    const b = await createTestTenant();
    const mine = await createApiKey(a.ctx, { name: "Mine", scope: "read" });
    const theirs = await createApiKey(b.ctx, { name: "Theirs", scope: "read" });
    const cookie = await sessionCookieFor(a.user);
    const revoke = (id: string) => makeRequest("/settings/api-keys", { cookie, form: { intent: "revoke", id, _formToken: randomUUID() } });

    expect((await responseOf(() => action(args(revoke(theirs.id))))).status).toBe(404);
    expect((await listApiKeys(b.ctx)).map((k) => k.id)).toEqual([theirs.id]);

    expect((await responseOf(() => action(args(revoke(mine.id))))).status).toBe(302);
    expect(await listApiKeys(a.ctx)).toEqual([]);
  });

  test("a teammate's key is neither listed nor revocable", async () => {
    const a = await createTestTenant();
    const key = await createApiKey(a.ctx, { name: "Own", scope: "read" });
    const mate = await addTestUser(a.tenant.id);
    const cookie = await sessionCookieFor(mate.user);
    const page = unwrapData<Page>(await loader(args(makeRequest("/settings/api-keys", { cookie }))));
    expect(page.data.keys).toEqual([]);
    const revoke = makeRequest("/settings/api-keys", { cookie, form: { intent: "revoke", id: key.id, _formToken: randomUUID() } });
    expect((await responseOf(() => action(args(revoke)))).status).toBe(404);
    expect((await listApiKeys(a.ctx)).map((k) => k.id)).toEqual([key.id]);
  });
});
