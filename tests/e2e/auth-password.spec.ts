import { expect, test } from "./fixtures";
import { PASSWORD, createUser, readCodeFromOutbox, signInByCookie } from "./helpers";

test("forgot password → code from the outbox → new password → signed in", async ({ page, request }) => {
  const user = await createUser(request, { agencyName: "Reset Agency" });
  await page.goto("/auth/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/auth\/forgot-password$/);
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByRole("button", { name: "Send code" }).click();

  await expect(page).toHaveURL(/\/auth\/reset-password\?/);
  await expect(page.getByText("If an account uses this e-mail, we sent it a 6-digit code.")).toBeVisible();
  await expect(page.getByLabel("E-mail")).toHaveValue(user.email);
  const code = await readCodeFromOutbox(page, user.email);
  await page.getByLabel("Code").fill(code);
  await page.getByLabel("New password", { exact: true }).fill("a-brand-new-pass");
  await page.getByLabel("Confirm new password").fill("a-brand-new-pass");
  await page.getByRole("button", { name: "Save new password" }).click();

  await expect(page.getByTestId("dashboard-title")).toHaveText("Reset Agency");
  await expect(page.getByText("You are signed in with your new password.")).toBeVisible();

  // The old session (from the fixture) was signed out; the new password works, the old one not.
  const stale = await request.get("/settings/account", { headers: { Cookie: `__session=${user.sessionCookie}` }, maxRedirects: 0 });
  expect(stale.status()).toBe(302);
  expect(stale.headers()["location"]).toMatch(/^\/auth\/login/);
});

test("a wrong reset code is refused on its field, keeping the e-mail", async ({ page, request }) => {
  const user = await createUser(request);
  await page.goto("/auth/forgot-password");
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page).toHaveURL(/\/auth\/reset-password\?/);
  const code = await readCodeFromOutbox(page, user.email);
  const wrong = code === "000000" ? "111111" : "000000";
  await page.getByLabel("Code").fill(wrong);
  await page.getByLabel("New password", { exact: true }).fill("another-pass-1");
  await page.getByLabel("Confirm new password").fill("another-pass-1");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByText("That code is not right. 4 attempts left.")).toBeVisible();
  await expect(page.getByLabel("E-mail")).toHaveValue(user.email);
  await expect(page.getByLabel("New password", { exact: true })).toHaveValue("");
});

test("sign out everywhere ends the sessions of every browser", async ({ page, context, baseURL, browser, javaScriptEnabled, request }) => {
  const user = await createUser(request);
  // Browser 1 signed in by cookie, browser 2 through the login form.
  await signInByCookie(context, baseURL!, user.sessionCookie);
  const other = await browser.newContext({ baseURL, javaScriptEnabled });
  try {
    const second = await other.newPage();
    await second.goto("/auth/login");
    await second.getByLabel("E-mail").fill(user.email);
    await second.getByLabel("Password").fill(PASSWORD);
    await second.getByRole("button", { name: "Sign in" }).click();
    await expect(second.getByTestId("dashboard-title")).toBeVisible();

    await page.goto("/settings/account");
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await expect(page).toHaveURL(/\/auth\/login$/);

    await second.goto("/settings/account");
    await expect(second).toHaveURL(/\/auth\/login\?redirectTo=%2Fsettings%2Faccount/);
    await page.goto("/");
    await expect(page).toHaveURL(/\/auth\/login$/);
  } finally {
    await other.close();
  }
});

test("the daily digest's e-mail can be turned off and on again, and the choice is kept", async ({ page, context, baseURL, request }) => {
  const user = await createUser(request);
  await signInByCookie(context, baseURL!, user.sessionCookie);
  await page.goto("/settings/account");
  const email = page.getByRole("checkbox", { name: "E-mail it to me as well" });
  await expect(email).toBeChecked();
  await email.uncheck();
  await page.getByRole("button", { name: "Save digest setting" }).click();
  await expect(page.getByText("Daily digest saved").first()).toBeVisible();
  await page.reload();
  await expect(email).not.toBeChecked();
  await email.check();
  await page.getByRole("button", { name: "Save digest setting" }).click();
  await expect(page.getByText("Daily digest saved").first()).toBeVisible();
  await page.reload();
  await expect(email).toBeChecked();
});
