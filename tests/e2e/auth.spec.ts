import { expect, test, type Page } from "./fixtures";
import { PASSWORD, createUser, readCodeFromOutbox, signInByCookie, uniqueEmail } from "./helpers";

test("sign up → code from the outbox → dashboard", async ({ page }) => {
  const email = uniqueEmail("signup");
  await page.goto("/auth/signup");
  await page.getByLabel("Agency name").fill("Lighthouse Insurance");
  await page.getByLabel("Your name").fill("Lee Harbor");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("secret-pass");
  await page.getByLabel("Confirm password").fill("secret-pass");
  await page.getByRole("button", { name: "Create account" }).click();

  await expect(page).toHaveURL(/\/auth\/confirm-signup/);
  const code = await readCodeFromOutbox(page, email);
  await page.getByLabel("Confirmation code").fill(code);
  await page.getByRole("button", { name: "Confirm" }).click();

  await expect(page.getByTestId("dashboard-title")).toHaveText("Lighthouse Insurance");
  await expect(page.getByText("© " + new Date().getFullYear() + " Remarket. All Rights Reserved")).toBeVisible();

  // The welcome toast (a server-rendered notice without JavaScript, which stays until the next
  // page) sits over the user menu: signing out straight away must still work.
  await expect(page.getByText("Welcome to Remarket").first()).toBeVisible();
  await openUserMenu(page);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/auth\/login/);
});

test("a wrong password keeps the e-mail and shows the error", async ({ page, request }) => {
  const user = await createUser(request);
  await page.goto("/auth/login");
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Invalid e-mail or password.")).toBeVisible();
  await expect(page.getByLabel("E-mail")).toHaveValue(user.email);
  await expect(page.getByLabel("Password")).toHaveValue("");

  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("dashboard-title")).toBeVisible();
});

test("a signed-out visit goes to login and comes back after signing in", async ({ page, request }) => {
  const user = await createUser(request);
  await page.goto("/settings/account");
  await expect(page).toHaveURL(/\/auth\/login\?redirectTo=%2Fsettings%2Faccount/);
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/settings\/account$/);
});

test("logout keeps the theme", async ({ page, context, baseURL, request }) => {
  const user = await createUser(request);
  await signInByCookie(context, baseURL!, user.sessionCookie);
  await page.goto("/");
  await openUserMenu(page);
  await page.getByRole("button", { name: "Dark theme" }).click();
  await expect(page.locator("html")).toHaveClass(/dark/);

  await openUserMenu(page);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/auth\/login/);
  await expect(page.locator("html")).toHaveClass(/dark/);
  const cookies = await context.cookies();
  expect(cookies.find((c) => c.name === "__session")?.value ?? "").toBe("");
  expect(cookies.find((c) => c.name === "theme")).toBeTruthy();
});

test("try the demo", async ({ page }) => {
  await page.goto("/auth/login");
  await page.getByRole("button", { name: "Try the demo" }).click();
  await expect(page.getByTestId("dashboard-title")).toContainText("(demo)");
  await expect(page.getByText("You are exploring a demo agency")).toBeVisible();
});

async function openUserMenu(page: Page) {
  const menu = page.locator("header details");
  if (!(await menu.evaluate((el) => (el as HTMLDetailsElement).open))) await menu.locator("summary").click();
}
