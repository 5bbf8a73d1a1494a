import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "./fixtures";
import { uniqueEmail } from "./helpers";

// The loopback OpenID provider (tests/support/oidc-server.js) shows oidc-provider's development
// login form: any login name signs in as `<login>@sso.example.test`.
async function signInWithTestIdp(page: Page, login: string) {
  await page.goto("/auth/login");
  await page.getByRole("button", { name: "Continue with Test IdP" }).click();
  await expect(page.locator('input[name="login"]')).toBeVisible();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any-password");
  await page.getByRole("button", { name: "Sign-in" }).click();
}

test("single sign-on: the first login creates a user and tenant, the next one returns to it", async ({
  browser,
  page,
  baseURL,
  javaScriptEnabled,
}) => {
  const login = `sso-${randomUUID().slice(0, 8)}`;
  await signInWithTestIdp(page, login);
  await expect(page.getByTestId("dashboard-title")).toHaveText(`SSO ${login}'s agency`);

  // Leave a mark in this tenant: a pending invitation.
  const invitee = uniqueEmail("sso-mark");
  await page.goto("/settings/team");
  await page.getByLabel("E-mail").fill(invitee);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(`${invitee} (staff)`)).toBeVisible();

  // A different browser (no provider or app cookies) signs in with the same identity.
  const other = await browser.newContext({ baseURL, javaScriptEnabled });
  try {
    const second = await other.newPage();
    await signInWithTestIdp(second, login);
    await expect(second.getByTestId("dashboard-title")).toHaveText(`SSO ${login}'s agency`);
    await second.goto("/settings/team");
    await expect(second.getByText(`${invitee} (staff)`)).toBeVisible();
    await expect(second.getByRole("cell", { name: `${login}@sso.example.test` })).toHaveCount(1);
  } finally {
    await other.close();
  }
});

test("single sign-on keeps the page the visitor asked for", async ({ page }) => {
  const login = `sso-${randomUUID().slice(0, 8)}`;
  await page.goto("/settings/account");
  await expect(page).toHaveURL(/redirectTo=%2Fsettings%2Faccount/);
  await page.getByRole("button", { name: "Continue with Test IdP" }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any-password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await expect(page).toHaveURL(/\/settings\/account$/);
  await expect(page.getByText(`Signed in as ${login}@sso.example.test.`)).toBeVisible();
});
