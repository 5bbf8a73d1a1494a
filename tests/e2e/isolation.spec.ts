import { expect, test } from "./fixtures";
import { createUser, signInByCookie, uniqueEmail } from "./helpers";

const cookieOf = (user: { sessionCookie: string }) => `__session=${user.sessionCookie}`;

test("a cross-origin POST is refused with 403 and changes nothing", async ({ request, baseURL }) => {
  const user = await createUser(request);
  const evil = await request.post("/auth/logout", {
    headers: { Cookie: cookieOf(user), Origin: "http://evil.example" },
    form: { intent: "everywhere" },
    maxRedirects: 0,
  });
  expect(evil.status()).toBe(403);
  // No Origin and no Referer is refused too.
  const blind = await request.post("/auth/logout", {
    headers: { Cookie: cookieOf(user) },
    form: { intent: "everywhere" },
    maxRedirects: 0,
  });
  expect(blind.status()).toBe(403);
  // Still signed in.
  const home = await request.get("/", { headers: { Cookie: cookieOf(user) }, maxRedirects: 0 });
  expect(home.status()).toBe(200);
  // The same request from our own origin is accepted.
  const own = await request.post("/auth/logout", { headers: { Cookie: cookieOf(user), Origin: baseURL! }, form: {}, maxRedirects: 0 });
  expect(own.status()).toBe(302);
});

test("a user of tenant A cannot remove tenant B's members or withdraw its invitations", async ({ page, context, baseURL, request }) => {
  const a = await createUser(request, { agencyName: "Tenant A" });
  const b = await createUser(request, { agencyName: "Tenant B" });
  const bMate = await createUser(request, { tenantId: b.tenantId, role: "staff", name: "B Mate" });

  // B invites someone; read the invitation id from B's own page.
  await signInByCookie(context, baseURL!, b.sessionCookie);
  const invitee = uniqueEmail("b-invitee");
  await page.goto("/settings/team");
  await page.getByLabel("E-mail").fill(invitee);
  await page.getByRole("button", { name: "Send invitation" }).click();
  const pending = page
    .locator("section", { has: page.getByRole("heading", { name: "Pending invitations" }) })
    .locator("li", { hasText: invitee });
  await expect(pending).toBeVisible();
  const invitationId = await pending.locator('input[name="id"]').getAttribute("value");
  expect(invitationId).toMatch(/^[0-9a-f-]{36}$/);

  for (const [intent, id] of [
    ["remove", bMate.id],
    ["remove", b.id],
    ["revoke", invitationId!],
  ]) {
    const response = await request.post("/settings/team", {
      headers: { Cookie: cookieOf(a), Origin: baseURL! },
      form: { intent, id },
      maxRedirects: 0,
    });
    expect(response.status(), `${intent} ${id}`).toBe(404);
  }

  // B is unaffected.
  await page.goto("/settings/team");
  await expect(page.getByRole("cell", { name: bMate.email })).toBeVisible();
  await expect(page.getByRole("cell", { name: b.email })).toBeVisible();
  await expect(pending).toBeVisible();
  // And A's own team page shows none of B.
  const aTeam = await request.get("/settings/team", { headers: { Cookie: cookieOf(a) } });
  const html = await aTeam.text();
  expect(html).not.toContain(bMate.email);
  expect(html).not.toContain(invitee);
});

test("/admin is a 404 for an agency user and open to listed staff", async ({ page, context, baseURL, request }) => {
  const agencyUser = await createUser(request);
  await signInByCookie(context, baseURL!, agencyUser.sessionCookie);
  const denied = await page.goto("/admin");
  expect(denied?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Staff admin" })).toHaveCount(0);

  // STAFF_EMAILS lists " Staff.Person@Example.test " (other case, spaces).
  const staff = await createUser(request, { email: "Staff.Person@example.test" });
  await context.clearCookies();
  await signInByCookie(context, baseURL!, staff.sessionCookie);
  const allowed = await page.goto("/admin");
  expect(allowed?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "Staff admin" })).toBeVisible();
});
