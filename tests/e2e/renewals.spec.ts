import { expect, test, type Page } from "./fixtures";
import { confirmRemarket } from "./helpers";

// Every test starts its own demo agency ("Try the demo"), so tests never share rows.
async function startDemo(page: Page) {
  await page.goto("/auth/login");
  await page.getByRole("button", { name: "Try the demo" }).click();
  await expect(page.getByTestId("dashboard-title")).toContainText("(demo)");
}

async function quotaUsed(page: Page) {
  return Number((await page.getByTestId("quota-used").innerText()).replace(/,/g, ""));
}

test("worklist → filter → re-market one → two quotes → select → outcome in reports", async ({ page }) => {
  await startDemo(page);
  await page.getByRole("link", { name: "Re-market", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Re-market", exact: true })).toBeVisible();
  const before = await quotaUsed(page);

  // Filter by the first row's line of business.
  const firstRow = page.getByTestId("worklist-row").first();
  const lineCell = (await firstRow.getAttribute("data-line"))!;
  await page.getByLabel("Line").selectOption(lineCell);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`line=${lineCell}`));
  const rows = page.getByTestId("worklist-row");
  await expect(rows.first()).toBeVisible();
  for (const line of await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-line")))) expect(line).toBe(lineCell);

  const row = rows.first();
  const policy = (await row.getAttribute("data-policy"))!;
  const carrier = (await row.getAttribute("data-carrier"))!;
  await page.getByRole("button", { name: `Re-market ${policy}`, exact: true }).click();
  // Asking spends nothing.
  await expect(page.getByTestId("confirm-remarket")).toBeVisible();
  await confirmRemarket(page);
  await expect(page.getByText(`Re-marketed ${policy}`)).toBeVisible();
  await expect(page.getByTestId("quota-used")).toHaveText(String(before + 1));
  await expect(page.locator(`[data-policy="${policy}"]`)).toHaveCount(0);

  // It is now under "Re-marketed", with its quotes page.
  await page.getByLabel("Status").selectOption("remarketed");
  await page.getByRole("button", { name: "Apply" }).click();
  await page.locator(`[data-policy="${policy}"]`).getByRole("link", { name: "Quotes" }).click();
  await expect(page.getByRole("heading", { name: `Quotes for ${policy}` })).toBeVisible();

  await page.locator("select[name=carrierId]").selectOption({ index: 1 });
  const firstCarrier = (await page.locator("select[name=carrierId]").locator("option:checked").innerText()).trim();
  await page.getByLabel("Premium ($)").fill("1234.50");
  await page.getByLabel("Coverage notes").fill("Same limits, $1,000 deductible");
  await page.getByRole("button", { name: "Add quote" }).click();
  await expect(page.getByTestId("quote-row")).toHaveCount(1);

  await page.getByLabel("…or another carrier's name").fill("Acme Mutual");
  await page.getByLabel("Premium ($)").fill("99.00");
  await page.getByRole("button", { name: "Add quote" }).click();
  await expect(page.getByTestId("quote-row")).toHaveCount(2);
  await expect(page.getByTestId("quote-row").first()).toContainText("Acme Mutual");
  await expect(page.getByTestId("quote-row").nth(1)).toContainText(firstCarrier);

  await page.getByRole("button", { name: "Select quote from Acme Mutual" }).click();
  await expect(page.getByTestId("remarket-outcome")).toContainText("Rewritten with another carrier");
  await expect(page.getByTestId("remarket-outcome")).toContainText(/saved vs\. (incumbent's renewal offer|current premium)/);

  await page.getByRole("link", { name: "Reports" }).click();
  const carrierRow = page.getByTestId("retention-carrier").locator("tr", { hasText: carrier });
  await expect(carrierRow).toBeVisible();
  expect(Number(await carrierRow.locator("td").nth(2).innerText())).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId("quota-return-used")).not.toHaveText("0");
});

test("dismiss needs a reason, then leaves the worklist with it", async ({ page }) => {
  await startDemo(page);
  await page.goto("/remarket");
  const row = page.getByTestId("worklist-row").first();
  const policy = (await row.getAttribute("data-policy"))!;
  await row.getByText("More").click();
  await row.getByRole("button", { name: `Dismiss ${policy}` }).click();
  await expect(page.getByText("Enter a reason to dismiss.")).toBeVisible();

  const again = page.locator(`[data-policy="${policy}"]`);
  if (!(await again.getByLabel(`Dismiss reason for ${policy}`).isVisible())) await again.getByText("More").click();
  await again.getByLabel(`Dismiss reason for ${policy}`).fill("Customer is selling the home");
  await again.getByRole("button", { name: `Dismiss ${policy}` }).click();
  await expect(page.getByText("1 renewal dismissed: Customer is selling the home")).toBeVisible();
  await expect(page.locator(`[data-policy="${policy}"]`)).toHaveCount(0);

  await page.goto("/remarket?status=dismissed");
  await expect(page.locator(`[data-policy="${policy}"]`)).toContainText("Dismissed: Customer is selling the home");
});

test("bulk re-market three; the bulk log records it", async ({ page }) => {
  await startDemo(page);
  await page.goto("/remarket");
  const before = await quotaUsed(page);
  const rows = page.getByTestId("worklist-row");
  const policies: string[] = [];
  for (let i = 0; i < 3; i++) {
    const policy = (await rows.nth(i).getAttribute("data-policy"))!;
    policies.push(policy);
    await page.getByLabel(`Select ${policy}`).check();
  }
  await page.getByRole("button", { name: "Re-market selected" }).click();
  await confirmRemarket(page, 3);
  await expect(page.getByText("Re-marketed 3 policies")).toBeVisible();
  await expect(page.getByTestId("quota-used")).toHaveText(String(before + 3));
  for (const policy of policies) await expect(page.locator(`[data-policy="${policy}"]`)).toHaveCount(0);

  await page.goto("/tasks");
  for (const policy of policies) await expect(page.getByTestId("tasks")).toContainText(policy);

  await page.goto("/reports");
  const entry = page.getByTestId("bulk-log").locator("tbody tr").first();
  await expect(entry).toContainText("Re-market");
  await expect(entry.locator("td").nth(3)).toHaveText("3");
  await expect(entry.locator("td").nth(4)).toHaveText("3");
});

test("forecast: a line with preferences of its own is edited from what it has saved", async ({ page }, testInfo) => {
  await startDemo(page);
  await page.goto("/forecast");
  const form = page.getByRole("form", { name: "Preferences" });
  // The demo saves all lines at 10% or $250 within 90 days, and WC at 8% or $1,000 within 120.
  await expect(form.getByLabel("Applies to")).toHaveValue("all");
  await expect(form.getByLabel("Premium increase from (%)")).toHaveValue("10");
  await page.getByTestId("preferences").getByRole("link", { name: "Edit WC" }).click();
  await expect(form.getByLabel("Applies to")).toHaveValue("WC");
  await expect(form.getByLabel("Premium increase from (%)")).toHaveValue("8");
  await expect(form.getByLabel("Act within days of expiry")).toHaveValue("120");
  if (testInfo.project.use.javaScriptEnabled !== false) {
    // A line without its own preferences follows all lines', and the form says so by showing them.
    await form.getByLabel("Applies to").selectOption("HOME");
    await expect(form.getByLabel("Premium increase from (%)")).toHaveValue("10");
    await form.getByLabel("Applies to").selectOption("WC");
    await expect(form.getByLabel("Premium increase from (%)")).toHaveValue("8");
  }
  await form.getByLabel("Act within days of expiry").fill("100");
  await form.getByRole("button", { name: "Save preferences" }).click();
  await expect(page.getByText("Saved for WC.")).toBeVisible();
  await expect(page.getByTestId("preferences")).toContainText("WC: 12 months, from 8.0% or $1,000, act within 100 days");
  await expect(page.getByTestId("preferences")).toContainText("All lines: 12 months, from 10.0% or $250, act within 90 days");
});

test("forecast: what-if counts without saving, then saves as preferences", async ({ page }) => {
  await startDemo(page);
  await page.goto("/forecast");
  await expect(page.getByTestId("forecast-summary")).toBeVisible();
  await expect(page.getByTestId("prediction").first()).toContainText("Predicted");
  // The headline counts renewals and the customers they belong to: the worklist holds each customer once.
  await expect(
    page.getByText(/\d+ meets? your saved preferences now, for \d+ customers? \(the worklist lists each customer once\)/),
  ).toBeVisible();
  const whatIf = page.getByRole("form", { name: "What if" });
  await whatIf.getByLabel("Premium increase from (%)").fill("5");
  await whatIf.getByLabel("Act within days of expiry").fill("200");
  await whatIf.getByRole("button", { name: "Show what would be flagged" }).click();
  await expect(page.getByTestId("what-if-result")).toContainText("re-markets left");
  await expect(page.getByTestId("preferences")).toContainText("All lines: 12 months, from 10.0%");
  await page.getByRole("button", { name: "Save as preferences" }).click();
  await expect(page.getByText("Preferences saved")).toBeVisible();
  await expect(page.getByTestId("preferences")).toContainText("All lines: 12 months, from 5.0% or $250, act within 200 days");
});

test("another agency's customer and quotes pages are 404", async ({ page, browser }) => {
  await startDemo(page);
  await page.goto("/customers");
  await page.getByTestId("customers").getByRole("link").first().click();
  await expect(page.getByTestId("customer-name")).toBeVisible();
  const customerUrl = new URL(page.url()).pathname;
  await page.goto("/quotes");
  await page.getByTestId("remarkets").getByRole("link").first().click();
  await expect(page.getByRole("heading", { name: /Quotes for/ })).toBeVisible();
  const quotesUrl = new URL(page.url()).pathname;

  const use = test.info().project.use;
  const other = await browser.newContext({ baseURL: use.baseURL, javaScriptEnabled: use.javaScriptEnabled });
  const stranger = await other.newPage();
  await startDemo(stranger);
  for (const url of [customerUrl, quotesUrl]) {
    const response = await stranger.goto(url);
    expect(response?.status()).toBe(404);
    await expect(stranger.getByRole("heading", { name: "Page not found" })).toBeVisible();
  }
  await other.close();
});

test("the quotes list shows re-markets awaiting a decision first, each group newest first", async ({ page }) => {
  await startDemo(page);
  await page.goto("/quotes");
  const rows = page.getByTestId("remarkets").locator("tbody tr");
  await expect(rows.first()).toContainText("Open");
  // The outcome column: every "Open" before any outcome (closed sorted after open, not before it).
  const outcomes = (await rows.locator("td:nth-child(7)").allInnerTexts()).map((o) => o.trim());
  const firstClosed = outcomes.findIndex((o) => o !== "Open");
  expect(firstClosed, outcomes.join(", ")).toBeGreaterThan(0);
  expect(
    outcomes.slice(firstClosed).filter((o) => o === "Open"),
    outcomes.join(", "),
  ).toEqual([]);
  // Within the open ones, newest re-marketed first.
  const dates = (await rows.locator("td:nth-child(5)").allInnerTexts()).slice(0, firstClosed).map((d) => Date.parse(d));
  expect(dates, dates.join(", ")).toEqual([...dates].sort((a, b) => b - a));
});

test("what-if for one line of business saves that line's preference", async ({ page }) => {
  await startDemo(page);
  await page.goto("/forecast");
  const whatIf = page.getByRole("form", { name: "What if" });
  await whatIf.getByLabel("Applies to").selectOption("HOME");
  await whatIf.getByLabel("Premium increase from (%)").fill("7.5");
  await whatIf.getByLabel("Act within days of expiry").fill("120");
  await whatIf.getByRole("button", { name: "Show what would be flagged" }).click();
  await expect(page).toHaveURL(/forecastObjectId=HOME/);
  await expect(page.getByTestId("what-if-result")).toContainText("For HOME, these settings would flag");
  await expect(page.getByRole("form", { name: "What if" }).getByLabel("Applies to")).toHaveValue("HOME");
  await page.getByRole("button", { name: "Save as preferences for HOME" }).click();
  await expect(page.getByText("Saved for HOME.")).toBeVisible();
  await expect(page.getByTestId("preferences")).toContainText("HOME: 12 months, from 7.5%");
  await expect(page.getByTestId("preferences")).toContainText("act within 120 days");
  // 'All lines' kept its own settings.
  await expect(page.getByTestId("preferences")).not.toContainText("All lines: 12 months, from 7.5%");
});

test("dashboard: forecast, quota and connections cards link to their pages", async ({ page }) => {
  await startDemo(page);
  const forecast = page.getByTestId("card-forecast");
  await expect(forecast).toContainText(/\d+ flagged renewals? expires? in the next 30 days/);
  const quota = page.getByTestId("card-quota");
  await expect(quota).toContainText(/\d+ of [\d,]+ re-markets used \(\d+%\)/);
  // The demo agency's connections have synced: the card says when, to the minute, in its time zone.
  await expect(page.getByTestId("card-connections")).toContainText(
    /\d+ connections?, last synced \d{2} [A-Z][a-z]{2} \d{4} \| \d{2}:\d{2}/,
  );
  await quota.getByRole("link", { name: "Billing and usage" }).click();
  await expect(page).toHaveURL(/\/billing$/);
  await page.goto("/");
  await page.getByTestId("card-forecast").getByRole("link", { name: "Open the worklist" }).click();
  await expect(page.getByRole("heading", { name: "Re-market", exact: true })).toBeVisible();
  await page.goto("/");
  await page.getByTestId("card-connections").getByRole("link", { name: "Manage connections" }).click();
  await expect(page).toHaveURL(/\/connect-database$/);
});
