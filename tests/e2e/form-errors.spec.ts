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

test("prediction step: a days value out of range is refused by its field, the other lines' input kept", async ({ page }) => {
  await startDemo(page);
  await page.goto("/connect-database");
  // The demo's connections went through the whole wizard, so its prediction step can be opened again.
  const ids = await page
    .locator('a[href^="/connect-database/"]')
    .evaluateAll((links) => links.map((a) => a.getAttribute("href")!.split("/")[2]).filter((id) => /^[0-9a-f-]{36}$/.test(id)));
  let opened = false;
  for (const id of new Set(ids)) {
    await page.goto(`/configure-integration/prediction/${id}`);
    if (page.url().endsWith(`/configure-integration/prediction/${id}`)) {
      opened = true;
      break;
    }
  }
  expect(opened).toBe(true);
  const all = page.getByRole("group", { name: "All lines of business" });
  await all.getByLabel("Premium increase (%)").fill("12.5");
  await all.getByLabel("Flag days before expiration").fill("400");
  await page.getByRole("button", { name: "Save & continue" }).click();
  await expect(all.getByText("Use at most 365 days.")).toBeVisible();
  await expect(all.getByLabel("Flag days before expiration")).toHaveAttribute("aria-invalid", "true");
  await expect(all.getByLabel("Premium increase (%)")).toHaveValue("12.5");
  await expect(all.getByLabel("Flag days before expiration")).toHaveValue("400");
  await expect(page.getByText("Some values need a second look.")).toBeVisible();

  await all.getByLabel("Flag days before expiration").fill("60");
  await page.getByRole("button", { name: "Save & continue" }).click();
  await expect(page).toHaveURL(/\/configure-integration\/task-creation\//);
});

test("carrier numbers: a code too long is refused by its field, the other kept; a good one is saved", async ({ page }) => {
  await startDemo(page);
  await page.goto("/carriers");
  // Each carrier's editor is folded until its "Edit" is opened.
  const editor = page.locator('details:has(form[aria-label^="Numbers for "])').first();
  await editor.locator("summary").click();
  const numbers = editor.getByRole("form", { name: /^Numbers for / });
  await numbers.getByLabel("Agency no.").fill("A".repeat(41));
  await numbers.getByLabel("Producer no.").fill("P-77");
  await numbers.getByRole("button", { name: "Save numbers" }).click();
  const again = page.getByRole("form", { name: /^Numbers for / }).filter({ hasText: "Keep codes under 40 characters." });
  await expect(again).toHaveCount(1);
  await expect(again.getByLabel("Producer no.")).toHaveValue("P-77");
  await expect(again.getByLabel("Agency no.")).toHaveAttribute("aria-invalid", "true");

  await again.getByLabel("Agency no.").fill("AG-1");
  await again.getByRole("button", { name: "Save numbers" }).click();
  await expect(page.getByText("AG-1 / P-77")).toBeVisible();
  await expect(page.getByText("Keep codes under 40 characters.")).toHaveCount(0);
});
