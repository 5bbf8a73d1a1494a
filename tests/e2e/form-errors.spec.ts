import { expect, test, type Page } from "./fixtures";
import { createUser, signInByCookie } from "./helpers";

// Refused forms, with JavaScript and without: the same field messages from the server, the other
// input kept, and once a corrected submission succeeds, no message left over.

async function startDemo(page: Page) {
  await page.goto("/auth/login");
  await page.getByRole("button", { name: "Try the demo" }).click();
  await expect(page.getByTestId("dashboard-title")).toContainText("(demo)");
}

test("a quote without premium or carrier: both messages, the notes kept; corrected, it is added", async ({ page }) => {
  await startDemo(page);
  await page.goto("/quotes");
  await page.getByTestId("remarkets").getByRole("link").first().click();
  const form = page.getByRole("form", { name: "Add quote" });
  await form.getByLabel("Coverage notes").fill("Roof replaced in 2023");
  await form.getByRole("button", { name: "Add quote" }).click();
  await expect(form.getByText("Enter the quoted premium.")).toBeVisible();
  await expect(form.getByText("Choose a carrier or type its name.")).toBeVisible();
  await expect(form.getByLabel("Coverage notes")).toHaveValue("Roof replaced in 2023");

  await form.getByLabel("…or another carrier's name").fill("Acme Mutual");
  await form.getByLabel("Premium ($)").fill("1234");
  await form.getByRole("button", { name: "Add quote" }).click();
  await expect(page.getByTestId("quotes")).toContainText("Acme Mutual");
  await expect(page.getByText("Enter the quoted premium.")).toHaveCount(0);
  await expect(page.getByText("Choose a carrier or type its name.")).toHaveCount(0);
});

test("what-if with a threshold out of range: the message by the field, the typed values kept", async ({ page }) => {
  await startDemo(page);
  await page.goto("/forecast");
  const whatIf = page.getByRole("form", { name: "What if" });
  await whatIf.getByLabel("Premium increase from (%)").fill("0");
  await whatIf.getByLabel("Act within days of expiry").fill("200");
  await whatIf.getByRole("button", { name: "Show what would be flagged" }).click();
  await expect(whatIf.getByText("Enter at least 0.1%.")).toBeVisible();
  await expect(whatIf.getByLabel("Premium increase from (%)")).toHaveValue("0");
  await expect(whatIf.getByLabel("Act within days of expiry")).toHaveValue("200");
  await expect(page.getByTestId("what-if-result")).toHaveCount(0);

  await whatIf.getByLabel("Premium increase from (%)").fill("5");
  await whatIf.getByRole("button", { name: "Show what would be flagged" }).click();
  await expect(page.getByTestId("what-if-result")).toContainText("re-markets left");
  await expect(page.getByText("Enter at least 0.1%.")).toHaveCount(0);
});

test("staff admin: days out of range are refused in that row, the entry kept; a good one applies", async ({
  browser,
  baseURL,
  request,
}) => {
  const name = `Row Errors ${Date.now()}`;
  await createUser(request, { agencyName: name });
  // STAFF_EMAILS lists this address on the e2e server.
  const staff = await createUser(request, { email: "staff.person@example.test", agencyName: "Remarket Staff" });
  const context = await browser.newContext();
  await signInByCookie(context, baseURL!, staff.sessionCookie);
  const page = await context.newPage();
  await page.goto("/admin");
  const row = page.getByTestId("admin-tenant-row").filter({ hasText: name });
  await row.getByLabel(`Days to add for ${name}`).fill("400");
  await row.getByRole("button", { name: `Extend trial of ${name}` }).click();
  await expect(row.getByRole("alert")).toHaveText("Enter a number of days from 1 to 365.");
  await expect(row.getByLabel(`Days to add for ${name}`)).toHaveValue("400");
  // The other rows say nothing.
  await expect(page.getByRole("alert").filter({ hasText: "Enter a number of days" })).toHaveCount(1);

  await row.getByLabel(`Days to add for ${name}`).fill("5");
  await row.getByRole("button", { name: `Extend trial of ${name}` }).click();
  await expect(page.getByTestId("staff-audit")).toContainText(`Trial extended · ${name}`);
  await expect(page.getByText("Enter a number of days from 1 to 365.")).toHaveCount(0);
  await context.close();
});
