import { expect, test, type Page } from "./fixtures";
import { confirmRemarket } from "./helpers";

// The worklist as a work surface (issue 14): sort on the server, confirm before quota is spent,
// undo for 10 minutes, a compact bulk bar, one line per renewal. JavaScript on and off.

async function startDemo(page: Page) {
  await page.goto("/auth/login");
  await page.getByRole("button", { name: "Try the demo" }).click();
  await expect(page.getByTestId("dashboard-title")).toContainText("(demo)");
}

async function quotaUsed(page: Page) {
  return Number((await page.getByTestId("quota-used").innerText()).replace(/,/g, ""));
}

/** One attribute of every row, read once the page has loaded (the total follows the table). */
async function rowValues(page: Page, attribute: string) {
  await page.waitForLoadState();
  await expect(page.getByTestId("worklist-total")).toBeVisible();
  return page.getByTestId("worklist-row").evaluateAll((trs, a) => trs.map((tr) => tr.getAttribute(a)!), attribute);
}

const isSorted = (values: number[], descending: boolean) =>
  values.every((v, i) => i === 0 || (descending ? values[i - 1] >= v : values[i - 1] <= v));

test("sort by change %, change $, premium and expiry on the server, kept with the filters", async ({ page }) => {
  await startDemo(page);
  await page.goto("/remarket");
  // Expiry, soonest first, is the default order.
  expect((await rowValues(page, "data-expires")).slice()).toEqual((await rowValues(page, "data-expires")).slice().sort());

  await page.getByTestId("sort-change_pct").click();
  await expect(page).toHaveURL(/sort=-change_pct/);
  const pct = (await rowValues(page, "data-change-pct")).map(Number);
  expect(pct.length).toBeGreaterThan(3);
  expect(isSorted(pct, true)).toBe(true);
  // The demo book is not already in this order: the sort did something.
  expect(isSorted(pct, false)).toBe(false);
  await expect(page.locator("th[aria-sort=descending]")).toHaveCount(1);

  // A second click turns it round.
  await page.getByTestId("sort-change_pct").click();
  await expect(page).toHaveURL(/sort=change_pct/);
  expect(isSorted((await rowValues(page, "data-change-pct")).map(Number), false)).toBe(true);

  await page.getByTestId("sort-change_amount").click();
  await expect(page).toHaveURL(/sort=-change_amount/);
  expect(isSorted((await rowValues(page, "data-change-amount")).map(Number), true)).toBe(true);

  await page.getByTestId("sort-premium").click();
  await expect(page).toHaveURL(/sort=-premium/);
  expect(isSorted((await rowValues(page, "data-premium")).map(Number), true)).toBe(true);

  // Filtering keeps the sort; sorting keeps the filter.
  const line = (await page.getByTestId("worklist-row").first().getAttribute("data-line"))!;
  await page.getByLabel("Line").selectOption(line);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`line=${line}`));
  await expect(page).toHaveURL(/sort=-premium/);
  expect(new Set(await rowValues(page, "data-line"))).toEqual(new Set([line]));
  expect(isSorted((await rowValues(page, "data-premium")).map(Number), true)).toBe(true);
  await page.getByTestId("sort-expiry").click();
  await expect(page).toHaveURL(new RegExp(`line=${line}.*sort=expiry|sort=expiry.*line=${line}`));
  expect(new Set(await rowValues(page, "data-line"))).toEqual(new Set([line]));
  expect((await rowValues(page, "data-expires")).slice()).toEqual((await rowValues(page, "data-expires")).slice().sort());
});

test("re-market asks first (dialog with JavaScript, page without); cancel spends nothing; the yes applies once", async ({
  page,
  javaScriptEnabled,
}) => {
  await startDemo(page);
  await page.goto("/remarket");
  const before = await quotaUsed(page);
  const total = Number((await page.getByTestId("quota-total").innerText()).replace(/,/g, ""));
  const year = new Date().getUTCFullYear();
  const policy = (await page.getByTestId("worklist-row").first().getAttribute("data-policy"))!;

  await page.getByRole("button", { name: `Re-market ${policy}`, exact: true }).click();
  const confirm = page.getByTestId("confirm-remarket");
  await expect(confirm).toBeVisible();
  await expect(page.getByRole("heading", { name: `Re-market policy ${policy}?` })).toBeVisible();
  await expect(confirm.getByTestId("confirm-message")).toHaveText(`This uses 1 of your ${total - before} re-markets left in ${year}.`);
  if (javaScriptEnabled) await expect(page.getByRole("dialog")).toBeVisible();
  else await expect(page.getByTestId("worklist")).toHaveCount(0);

  // Cancel: nothing spent, the row is still there.
  if (javaScriptEnabled) await confirm.getByRole("button", { name: "Cancel" }).click();
  else await confirm.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByTestId("quota-used")).toHaveText(String(before));
  await expect(page.locator(`[data-policy="${policy}"]`)).toHaveCount(1);

  // Yes, twice with the same one-time token (a double click, a resent form): applied once.
  await page.getByRole("button", { name: `Re-market ${policy}`, exact: true }).click();
  await expect(confirm).toBeVisible();
  const fields = await confirm.evaluate((form: HTMLFormElement) => Object.fromEntries(new FormData(form) as unknown as [string, string][]));
  expect(fields.confirmed).toBe("yes");
  expect(String(fields._formToken).length).toBeGreaterThan(15);
  const origin = new URL(page.url()).origin;
  for (let i = 0; i < 2; i++) {
    const response = await page.request.post("/remarket", { form: fields, headers: { Origin: origin }, maxRedirects: 0 });
    expect(response.status()).toBe(302);
  }
  await page.goto("/remarket");
  await expect(page.getByTestId("quota-used")).toHaveText(String(before + 1));
  await expect(page.locator(`[data-policy="${policy}"]`)).toHaveCount(0);
});

test("undo a bulk re-market from the notice that follows it, and a single one from the customer page", async ({ page }) => {
  await startDemo(page);
  await page.goto("/remarket");
  const before = await quotaUsed(page);
  const rows = page.getByTestId("worklist-row");
  const policies = [(await rows.nth(0).getAttribute("data-policy"))!, (await rows.nth(1).getAttribute("data-policy"))!];
  for (const p of policies) await page.getByLabel(`Select ${p}`).check();
  await page.getByRole("button", { name: "Re-market selected" }).click();
  await confirmRemarket(page, 2);
  await expect(page.getByText("Re-marketed 2 policies")).toBeVisible();
  await expect(page.getByTestId("quota-used")).toHaveText(String(before + 2));
  const undoBar = page.getByTestId("undo-bar");
  await expect(undoBar).toContainText("You can undo the re-market of 2 policies for 10 more minutes.");

  await undoBar.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByText("Undone: 2 re-markets")).toBeVisible();
  await expect(page.getByTestId("quota-used")).toHaveText(String(before));
  for (const p of policies) await expect(page.locator(`[data-policy="${p}"]`)).toHaveCount(1);
  await expect(page.getByTestId("undo-bar")).toHaveCount(0);

  // One re-market, undone from its customer's page; the audit trail keeps both.
  const row = page.locator(`[data-policy="${policies[0]}"]`);
  const customerHref = (await row.getByRole("link").first().getAttribute("href"))!;
  await page.getByRole("button", { name: `Re-market ${policies[0]}`, exact: true }).click();
  await confirmRemarket(page);
  await expect(page.getByTestId("quota-used")).toHaveText(String(before + 1));
  await page.goto(customerHref);
  await page.getByTestId("undo-remarket").click();
  await expect(page.getByText(`Undone: re-market of ${policies[0]}`)).toBeVisible();
  await expect(page.getByTestId("undo-remarket")).toHaveCount(0);
  await expect(page.getByTestId("audit-trail")).toContainText(`Re-market undone ${policies[0]}`);
  await expect(page.getByTestId("audit-trail")).toContainText(`Re-marketed ${policies[0]}`);
  await page.goto("/remarket");
  await expect(page.getByTestId("quota-used")).toHaveText(String(before));
  await expect(page.locator(`[data-policy="${policies[0]}"]`)).toHaveCount(1);
});

test("bulk bar: shown on selection with JavaScript, compact without; each field works with its own button", async ({
  page,
  javaScriptEnabled,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await startDemo(page);
  await page.goto("/remarket");
  const bar = page.getByTestId("bulk-bar");
  const rows = page.getByTestId("worklist-row");
  const first = (await rows.nth(0).getAttribute("data-policy"))!;
  const second = (await rows.nth(1).getAttribute("data-policy"))!;
  if (javaScriptEnabled) await expect(bar).toHaveCount(0);
  else await expect(bar).toBeVisible();

  await page.getByLabel(`Select ${first}`).check();
  await expect(bar).toBeVisible();
  if (javaScriptEnabled) {
    await expect(bar).toContainText("1 selected");
    // With JavaScript, a box in the header selects (and clears) the whole page.
    const count = await rows.count();
    await page.getByLabel("Select all on this page").check();
    await expect(bar).toContainText(`${count} selected`);
    await page.getByLabel("Select all on this page").uncheck();
    await expect(bar).toHaveCount(0);
    await page.getByLabel(`Select ${first}`).check();
    await expect(bar).toContainText("1 selected");
  }
  // One row on a desktop.
  expect((await bar.boundingBox())!.height).toBeLessThanOrEqual(60);

  // A reason is needed, and its message sits with the field.
  await bar.getByRole("button", { name: "Dismiss selected" }).click();
  await expect(page.getByText("Enter a reason to dismiss.")).toBeVisible();
  // With JavaScript the focus moves to the first field with an error (the page stays as it was).
  if (javaScriptEnabled) await expect(bar.getByLabel("Dismiss reason")).toBeFocused();
  if (!(await page.getByLabel(`Select ${first}`).isChecked())) await page.getByLabel(`Select ${first}`).check();
  await bar.getByLabel("Dismiss reason").fill("Moving out of state");
  await bar.getByRole("button", { name: "Dismiss selected" }).click();
  await expect(page.getByText("1 renewal dismissed: Moving out of state")).toBeVisible();
  await expect(page.locator(`[data-policy="${first}"]`)).toHaveCount(0);

  await page.getByLabel(`Select ${second}`).check();
  const nextMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  await bar.getByLabel("Snooze until").fill(nextMonth);
  await bar.getByRole("button", { name: "Snooze selected" }).click();
  await expect(page.getByText(/1 renewal snoozed until/)).toBeVisible();
  await expect(page.locator(`[data-policy="${second}"]`)).toHaveCount(0);
  await page.goto("/remarket?status=snoozed");
  await expect(page.locator(`[data-policy="${second}"]`)).toContainText("Snoozed until");
});

test("one line per renewal at 1280 px, few tab stops, the reason in plain words; no sideways scroll at 390 px", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await startDemo(page);
  await page.goto("/remarket");
  const rows = page.getByTestId("worklist-row");
  await expect(rows.first()).toBeVisible();
  const heights = await rows.evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().height));
  expect(heights.length).toBeGreaterThan(10);
  expect(Math.max(...heights)).toBeLessThanOrEqual(72);
  // The table fits its frame: no action hangs over the edge.
  const fit = await page
    .locator(".wl-frame")
    .evaluate((frame) => ({ table: frame.firstElementChild!.scrollWidth, frame: frame.clientWidth }));
  expect(fit.table).toBeLessThanOrEqual(fit.frame);
  // The filters fit one line: State is not alone on a second one.
  const status = (await page.getByLabel("Status").boundingBox())!;
  const state = (await page.getByLabel("State").boundingBox())!;
  expect(Math.abs(state.y - status.y)).toBeLessThan(4);

  const why = page.getByTestId("why").first();
  await expect(why).toHaveText(/^(Renewal offer|Predicted renewal) [+−]/);
  await expect(why).toContainText("over your");
  // No internal words in what the row shows (the rule's id is for the full explanation).
  const shown = (await page.getByTestId("why").allInnerTexts()).join("\n");
  expect(shown).not.toContain("renewal-flag/v1");
  expect(shown).not.toContain("preference");
  // The full explanation is one click away (a <details>, so no JavaScript needed).
  await rows.first().getByText("More").click();
  await expect(rows.first().getByTestId("flag-explanation")).toContainText("Rule");
  await expect(rows.first().getByTestId("flag-explanation")).toContainText("Preference used");

  // Four tab stops per row: select, customer, Re-market, More.
  const stops = await rows
    .nth(1)
    .evaluate(
      (tr) =>
        [...tr.querySelectorAll<HTMLElement>("a[href], button, input, summary, select")].filter(
          (el) => el.tabIndex >= 0 && el.checkVisibility(),
        ).length,
    );
  expect(stops).toBe(4);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/remarket");
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  const policy = (await rows.first().getAttribute("data-policy"))!;
  const button = (await page.getByRole("button", { name: `Re-market ${policy}`, exact: true }).boundingBox())!;
  expect(button.x).toBeGreaterThanOrEqual(0);
  expect(button.x + button.width).toBeLessThanOrEqual(390);
});

test("the re-market's toast carries its Undo; with JavaScript focus moves to the toast", async ({ page, javaScriptEnabled }, testInfo) => {
  await startDemo(page);
  await page.goto("/remarket");
  const before = await quotaUsed(page);
  const policy = (await page.getByTestId("worklist-row").first().getAttribute("data-policy"))!;
  await page.getByRole("button", { name: `Re-market ${policy}`, exact: true }).click();
  await confirmRemarket(page);
  await expect(page.getByTestId("quota-used")).toHaveText(String(before + 1));

  // Sonner's toast with JavaScript, the server-rendered notice without: the same form either way.
  const toast = javaScriptEnabled
    ? page.locator("[data-sonner-toast]").filter({ hasText: `Re-marketed ${policy}` })
    : page.getByTestId("server-toast");
  await expect(toast).toContainText(`Re-marketed ${policy}`);
  const undo = toast.getByRole("button", { name: `Undo re-market of ${policy}` });
  await expect(undo).toBeVisible();
  // The result of a submission made with JavaScript has the focus, so a keyboard user can undo at once.
  if (javaScriptEnabled) expect(await toast.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  // Hovered, sonner holds the toast (it would go after 5 s) while the screenshots are taken.
  if (javaScriptEnabled) await toast.hover();
  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    if (process.env.SHOT_DIR)
      await page.screenshot({ path: `${process.env.SHOT_DIR}/toast-undo-${size.width}-${testInfo.project.name}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  if (javaScriptEnabled) await toast.hover();
  await toast.getByRole("button", { name: `Undo re-market of ${policy}` }).click();
  await expect(page.getByText(`Undone: re-market of ${policy}`)).toBeVisible();
  await expect(page.getByTestId("quota-used")).toHaveText(String(before));
  await expect(page.locator(`[data-policy="${policy}"]`)).toHaveCount(1);
});
