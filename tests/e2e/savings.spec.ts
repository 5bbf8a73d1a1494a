import { expect, test, type Page } from "./fixtures";
import { remarketFirstRenewal } from "./helpers";

// Premium saved is measured against the incumbent's actual renewal offer (issue 15): typed on the
// quote page beside the competing quotes, shown with its basis there and totalled per basis in
// the reports.

async function startDemo(page: Page) {
  await page.goto("/auth/login");
  await page.getByRole("button", { name: "Try the demo" }).click();
  await expect(page.getByTestId("dashboard-title")).toContainText("(demo)");
}

/** A report cell back to a number: "$1,234.50" saved, "+$214.00 more" paid. */
function savedFigure(text: string) {
  const amount = Number(text.replace(/[^0-9.]/g, ""));
  return text.trim().startsWith("+") ? -amount : amount;
}

test("incumbent offer and two quotes → premium saved and its basis on the quote page and in reports", async ({ page }) => {
  await startDemo(page);
  await page.goto(`/reports`);
  const offerBefore = savedFigure(await page.getByTestId("saved-vs-offer").innerText());

  const policy = await remarketFirstRenewal(page);
  await page.getByLabel("Status").selectOption("remarketed");
  await page.getByRole("button", { name: "Apply" }).click();
  await page.locator(`[data-policy="${policy}"]`).getByRole("link", { name: "Quotes" }).click();
  await expect(page.getByRole("heading", { name: `Quotes for ${policy}` })).toBeVisible();

  // A money field refuses what is not money, quoting it, and keeps the rest of the form.
  await page.getByLabel("Renewal offer ($)").fill("N/A");
  await page.getByRole("button", { name: "Save offer" }).click();
  await expect(page.getByText("Renewal offer is not a number: 'N/A'")).toBeVisible();

  await page.getByLabel("Renewal offer ($)").fill("$6,480.00");
  await page.getByRole("button", { name: "Save offer" }).click();
  await expect(page.getByTestId("savings-basis")).toContainText("measured against this offer of $6,480.00");

  await page.getByLabel("…or another carrier's name").fill("Acme Mutual");
  await page.getByLabel("Premium ($)").fill("6,150");
  await page.getByRole("button", { name: "Add quote" }).click();
  await expect(page.getByTestId("quote-row")).toHaveCount(1);
  await page.locator("select[name=carrierId]").selectOption({ index: 1 });
  await page.getByLabel("Premium ($)").fill("6900");
  await page.getByRole("button", { name: "Add quote" }).click();
  await expect(page.getByTestId("quote-row")).toHaveCount(2);

  const quotes = page.getByTestId("quotes");
  await expect(quotes.locator("th", { hasText: "vs. incumbent's renewal offer" })).toBeVisible();
  await expect(page.getByTestId("quote-row").first()).toContainText("−$330");
  await expect(page.getByTestId("quote-row").nth(1)).toContainText("+$420");

  await page.getByRole("button", { name: "Select quote from Acme Mutual" }).click();
  await expect(page.getByTestId("remarket-outcome")).toContainText("Rewritten with another carrier");
  await expect(page.getByTestId("remarket-outcome")).toContainText("$330 saved vs. incumbent's renewal offer");
  await expect(page.getByTestId("remarket-outcome")).not.toContainText("-$");

  await page.getByRole("link", { name: "Reports" }).click();
  await expect(page.getByRole("columnheader", { name: "Premium saved vs. incumbent's renewal offer" })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Premium saved vs. current premium" })).toBeVisible();
  expect(savedFigure(await page.getByTestId("saved-vs-offer").innerText())).toBeCloseTo(offerBefore + 330, 2);
});
