import { APP_PAGES, SIGNED_OUT_PAGES, VIEWPORTS, detailPaths } from "../support/page-list.js";
import { expect, test, type Page } from "./fixtures";

// Issue 14: no page scrolls sideways on a laptop or a phone; a wide table scrolls inside its own
// frame instead. Every page of the smoke spec, its detail pages and the signed-out pages.

async function documentOverflow(page: Page) {
  return page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
}

for (const viewport of VIEWPORTS) {
  test(`no signed-in page is wider than a ${viewport.width}×${viewport.height} screen`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(viewport);
    await page.goto("/auth/login");
    await page.getByRole("button", { name: "Try the demo" }).click();
    await expect(page.getByTestId("dashboard-title")).toContainText("(demo)");
    const paths = [...APP_PAGES, ...(await detailPaths(page))];
    // Pages reached from the lists must be found, or the check would shrink unnoticed.
    expect(paths.length).toBeGreaterThanOrEqual(APP_PAGES.length + 5);

    const wide: string[] = [];
    for (const path of paths) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      const { scrollWidth, innerWidth } = await documentOverflow(page);
      if (scrollWidth > innerWidth) wide.push(`${path}: ${scrollWidth} px in ${innerWidth}`);
    }
    expect(wide, "pages that scroll sideways").toEqual([]);
  });

  test(`no signed-out page is wider than a ${viewport.width}×${viewport.height} screen`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const wide: string[] = [];
    for (const path of SIGNED_OUT_PAGES) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      const { scrollWidth, innerWidth } = await documentOverflow(page);
      if (scrollWidth > innerWidth) wide.push(`${path}: ${scrollWidth} px in ${innerWidth}`);
    }
    expect(wide, "pages that scroll sideways").toEqual([]);
  });
}

/** Whether an element lies inside the window, so nobody has to scroll a table to reach it. */
async function onScreen(page: Page, name: RegExp) {
  const box = await page.getByRole("button", { name }).first().boundingBox();
  const width = page.viewportSize()!.width;
  return box !== null && box.x >= 0 && box.x + box.width <= width;
}

test("on a phone, a quote's Select and a connection's Sync now and a carrier's Edit sit on screen, not at the far end of a table", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/auth/login");
  await page.getByRole("button", { name: "Try the demo" }).click();
  await expect(page.getByTestId("dashboard-title")).toContainText("(demo)");
  await page.goto("/quotes");
  await page.getByRole("table").getByRole("link").first().click();
  await expect(page.getByRole("heading", { name: /^Quotes for / })).toBeVisible();
  expect(await onScreen(page, /^Select quote from /)).toBe(true);
  await page.goto("/connect-database");
  expect(await onScreen(page, /^Sync now: /)).toBe(true);
  await page.goto("/carriers");
  const edit = await page.getByTestId("my-carrier").first().getByText("Edit").boundingBox();
  expect(edit !== null && edit.x + edit.width <= 390, "a carrier's Edit on screen").toBe(true);
});
