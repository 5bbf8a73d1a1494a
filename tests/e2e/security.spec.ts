import { expect, test } from "./fixtures";
import { PASSWORD, createUser, signInByCookie } from "./helpers";

// Issue 12 in the browser, with and without JavaScript: a login link carrying a hostile
// redirectTo keeps the user on the site (§2); a file name with "=" and quotes uploads under its
// own name (§3: Remix's parser answered 500, and quotes came out as %22).

test("a login link whose redirectTo hides a tab lands on the dashboard, not another site", async ({ page, request, baseURL }) => {
  const user = await createUser(request);
  await page.goto(`/auth/login?${new URLSearchParams({ redirectTo: "/\t/evil.example/phish" })}`);
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test('a file named with "=" and quotes uploads under its own name', async ({ page, request, baseURL, javaScriptEnabled }) => {
  const user = await createUser(request);
  await signInByCookie(page.context(), baseURL!, user.sessionCookie);
  const name = `book=2025 "final" ${javaScriptEnabled ? "js" : "nojs"}.csv`;
  await page.goto("/files");
  await page.getByLabel("Data domain").selectOption({ label: "Policies" });
  await page
    .getByLabel("File", { exact: true })
    .setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from("Policy #,Premium\n1001,1200\n") });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page).toHaveURL(/\/files\?view=mine/);
  await expect(page.getByTestId("file-row").filter({ hasText: name })).toHaveCount(1);
  await expect(page.getByText("%22")).toHaveCount(0);
});
