import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "./fixtures";
import { remarketFirstRenewal } from "./helpers";

// Issue 14: for an agency with data the dashboard shows trends (flagged this week, re-markets this
// month, outcomes), each saying what it rests on, and the agency's recent activity with who, when
// and a link to what it is about. Server-rendered: the same with JavaScript on and off.

const DATE_TIME = /^\d{2} [A-Z][a-z]{2} \d{4} \| \d{2}:\d{2}$/;

async function startDemo(page: Page) {
  await page.goto("/auth/login");
  await page.getByRole("button", { name: "Try the demo" }).click();
  await expect(page.getByTestId("dashboard-title")).toContainText("(demo)");
}

async function remarketsThisMonth(page: Page) {
  const text = await page.getByTestId("trend-remarkets").innerText();
  return Number(/(\d+) re-markets? in [A-Z][a-z]+\./.exec(text)?.[1]);
}

test("dashboard: trends with their basis, and recent activity with who, when and a link", async ({ page }) => {
  await startDemo(page);

  const flagged = page.getByTestId("trend-flagged");
  await expect(flagged.getByRole("heading", { name: "Flagged this week" })).toBeVisible();
  await expect(flagged).toContainText(/\d+ renewals? newly flagged\./);
  // A change in words, or a sentence when there is nothing to compare with: never a bare "+100%".
  await expect(page.getByTestId("trend-flagged-change")).toHaveText(
    /^(▲|▼|=)?(Up \d+ from \d+|Down \d+ from \d+|Same as) in the 7 days before|^No flags in the 7 days before to compare with$/,
  );
  await expect(flagged).toContainText(/Newly flagged from \d{2} [A-Z][a-z]{2} \d{4} to today \(7 days\)/);
  await expect(flagged).not.toContainText("%");

  const remarkets = page.getByTestId("trend-remarkets");
  await expect(remarkets).toContainText(/\d+ re-markets? in [A-Z][a-z]+\./);
  await expect(page.getByTestId("trend-remarkets-change")).toHaveText(
    /(Up \d+ from \d+|Down \d+ from \d+|Same as) in [A-Z][a-z]+|^No re-markets in [A-Z][a-z]+ to compare with$/,
  );
  await expect(remarkets).toContainText(/[\d,]+ of [\d,]+ left for \d{4}\./);

  // The demo agency has re-marketed: closed ones with quotes and outcomes, open ones too.
  const outcomes = page.getByTestId("trend-outcomes");
  await expect(outcomes).toContainText(/From \d+ re-markets? since 01 Jan \d{4} \(this quota year\)\./);
  await expect(page.getByTestId("outcome-quoted")).toContainText(/Got quotes\s*\d+ of \d+/);
  for (const key of ["won", "kept", "lost", "open"]) await expect(page.getByTestId(`outcome-${key}`)).toContainText(/\d+$/);

  // Recent activity: eight events, newest first, each with its time in the agency's zone and who.
  const items = page.getByTestId("activity-item");
  await expect(items).toHaveCount(8);
  for (const time of await items.locator("time").allInnerTexts()) expect(time).toMatch(DATE_TIME);
  const stamps = await items.locator("time").evaluateAll((ts) => ts.map((t) => t.getAttribute("datetime") ?? ""));
  expect([...stamps].sort().reverse()).toEqual(stamps);
  await expect(items.first()).toContainText(/^.+: (Re-marketed|Quote selected|Closed as lost) [A-Z0-9-]+/);

  // A re-market's event leads to its quotes page.
  const link = items.getByRole("link", { name: /^Re-marketed / }).first();
  const href = (await link.getAttribute("href"))!;
  expect(href).toMatch(/^\/quotes\/[0-9a-f-]{36}$/);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.locator("h1").first()).toBeVisible();
});

test("dashboard: a re-market shows at once in this month's figure and at the top of recent activity", async ({ page }) => {
  await startDemo(page);
  const before = await remarketsThisMonth(page);

  const policy = await remarketFirstRenewal(page);

  await page.goto("/");
  expect(await remarketsThisMonth(page)).toBe(before + 1);
  const first = page.getByTestId("activity-item").first();
  await expect(first).toContainText(`Dana Whitfield: Re-marketed ${policy}`);
  await expect(first.getByRole("link")).toHaveAttribute("href", /^\/quotes\/[0-9a-f-]{36}$/);
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`dashboard at ${viewport.width}×${viewport.height}: no sideways scroll`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await startDemo(page);
    await expect(page.getByTestId("recent-activity")).toBeVisible();
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  });
}

test.describe("axe", () => {
  // As in accessibility.spec.ts: axe needs scripting, so without JavaScript the app's bundles are
  // blocked instead and the page stays the server-rendered HTML.
  test.use({ javaScriptEnabled: true });
  test.beforeEach(async ({ page }, testInfo) => {
    if (testInfo.project.use.javaScriptEnabled === false) await page.route(/\/build\/.*\.js$/, (route) => route.abort());
  });

  test("dashboard with trends and activity: no serious or critical axe violation", async ({ page }) => {
    await startDemo(page);
    await expect(page.getByTestId("trends")).toBeVisible();
    const results = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
      .analyze();
    const serious = results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    expect(serious).toEqual([]);
  });
});
