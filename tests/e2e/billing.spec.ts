import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { createUser, signInByCookie } from "./helpers";

const agency = (prefix: string) => `${prefix} ${randomUUID().slice(0, 6)}`;

test("a new tenant sees its trial on /billing", async ({ page, context, baseURL, request }) => {
  const user = await createUser(request, { agencyName: agency("Trial Agency") });
  await signInByCookie(context, baseURL!, user.sessionCookie);
  await page.goto("/billing");
  await expect(page.getByRole("heading", { name: "Billing", level: 1 })).toBeVisible();
  await expect(page.getByTestId("subscription-status")).toHaveText("Trial");
  await expect(page.getByTestId("subscription-plan")).toHaveText("Trial");
  await expect(page.getByTestId("trial-days-left")).toContainText("14 days left");
  await expect(page.getByTestId("payment-method")).toHaveText("No payment method");
  await expect(page.getByTestId("usage-text")).toContainText(`0 of 25 re-markets used in ${new Date().getFullYear()}`);
  await expect(page.getByTestId("unpaid-banner")).toHaveCount(0);
});

test("local mode: an admin changes plan, and no payment or portal button is offered", async ({ page, context, baseURL, request }) => {
  const user = await createUser(request, { agencyName: agency("Plan Agency") });
  await signInByCookie(context, baseURL!, user.sessionCookie);
  await page.goto("/billing");
  await expect(page.getByTestId("local-mode-note")).toContainText("Payments are not configured on this server");
  await page.getByLabel("Plan", { exact: true }).selectOption("agency");
  await page.getByRole("button", { name: "Start subscription" }).click();
  await expect(page.getByTestId("subscription-plan")).toHaveText("Agency");
  await expect(page.getByTestId("subscription-status")).toHaveText("Active");
  await expect(page.getByTestId("renews-on")).toBeVisible();
  await expect(page.getByTestId("usage-text")).toContainText("of 2,400 re-markets");
  await expect(page.getByRole("button", { name: "Change plan" })).toBeVisible();

  // Without Stripe the page offers only what works here: no payment method, no billing portal.
  await expect(page.getByRole("button", { name: "Add payment method" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Manage billing" })).toHaveCount(0);
  await expect(page.getByTestId("subscription-plan")).toHaveText("Agency");
});

test("the usage meter shows uses recorded through the quota service", async ({ page, context, baseURL, request }) => {
  const user = await createUser(request, { agencyName: agency("Usage Agency") });
  const used = await request.post("/api/test-fixtures", { data: { action: "consume-quota", tenantId: user.tenantId, count: 20 } });
  expect(used.ok()).toBeTruthy();
  await signInByCookie(context, baseURL!, user.sessionCookie);
  await page.goto("/billing");
  const year = new Date().getFullYear();
  await expect(page.getByTestId("usage-text")).toHaveText(`20 of 25 re-markets used in ${year} (80%)`);
  await expect(page.getByText("80% or more used")).toBeVisible();
  await expect(page.getByRole("meter", { name: `Re-marketing quota used in ${year}` })).toHaveAttribute("aria-valuenow", "20");
  await expect(page.getByTestId("usage-chart")).toBeVisible();
  await expect(page.getByText(`20 re-markets in ${year}.`)).toBeVisible();

  // The day-by-day view of this month, through the GET form.
  const month = new Date().toLocaleString("en-US", { month: "long" });
  await page.getByLabel("Month", { exact: true }).selectOption({ label: month });
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/month=\d+/);
  await expect(page.getByRole("heading", { name: "Usage by day" })).toBeVisible();
  await expect(page.getByText(`20 re-markets in ${month} ${year}.`)).toBeVisible();

  const rest = await request.post("/api/test-fixtures", { data: { action: "consume-quota", tenantId: user.tenantId, count: 6 } });
  const results = ((await rest.json()) as { results: { ok: boolean; reason?: string }[] }).results;
  expect(results.filter((r) => r.ok)).toHaveLength(5);
  expect(results.at(-1)?.reason).toBe(`Your re-marketing quota for ${year} is used up (25 of 25).`);
  await page.goto("/billing");
  await expect(page.getByTestId("usage-text")).toContainText("25 of 25");
  await expect(page.getByText("Quota used up")).toBeVisible();
});

test("staff admin: only for an allow-listed e-mail, matched trimmed and case-insensitively", async ({ browser, baseURL, request }) => {
  const name = agency("Outsider Agency");
  const outsider = await createUser(request, { agencyName: name });
  const outsiderContext = await browser.newContext();
  await signInByCookie(outsiderContext, baseURL!, outsider.sessionCookie);
  const outsiderPage = await outsiderContext.newPage();
  const refused = await outsiderPage.goto("/admin");
  expect(refused?.status()).toBe(404);
  await expect(outsiderPage.getByText("Page not found")).toBeVisible();
  await outsiderContext.close();

  // STAFF_EMAILS is " Staff.Person@Example.test ,other@example.test" on the e2e server.
  const staff = await createUser(request, { email: "staff.person@example.test", agencyName: "Remarket Staff" });
  const staffContext = await browser.newContext();
  await signInByCookie(staffContext, baseURL!, staff.sessionCookie);
  const page = await staffContext.newPage();
  await page.goto("/");
  await expect(page.locator('a[href="/admin"]:visible')).toHaveText("Staff admin");
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "Staff admin" })).toBeVisible();

  const row = page.getByTestId("admin-tenant-row").filter({ hasText: name });
  await expect(row).toContainText("Trial");
  await row.getByLabel(`Days to add for ${name}`).fill("30");
  await row.getByRole("button", { name: `Extend trial of ${name}` }).click();
  await expect(page.getByTestId("staff-audit")).toContainText(`Trial extended · ${name}`);

  await row.getByLabel(`Yearly quota for ${name}`).fill("40");
  await row.getByRole("button", { name: `Set quota of ${name}` }).click();
  await expect(page.getByTestId("admin-tenant-row").filter({ hasText: name }).getByTestId("admin-usage")).toContainText("0 of 40");
  await expect(page.getByTestId("staff-audit")).toContainText(`Quota changed · ${name}`);

  await page.getByRole("button", { name: `Turn billing off for ${name}` }).click();
  await expect(page.getByRole("button", { name: `Turn billing on for ${name}` })).toBeVisible();
  await expect(page.getByTestId("staff-audit")).toContainText(`Flag changed · ${name}`);
  await staffContext.close();
});
