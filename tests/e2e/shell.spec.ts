import type { TestInfo } from "@playwright/test";
import { expect, test, type Page } from "./fixtures";

// Issue 14: the keyboard reaches the page first, every page describes itself, and the files
// browsers and crawlers ask for are served to anyone instead of the sign-in page.

test("the first tab stop skips to the page's main landmark", async ({ page }) => {
  await page.goto("/auth/login");
  await page.getByRole("button", { name: "Try the demo" }).click();
  await expect(page.getByTestId("dashboard-title")).toContainText("(demo)");
  await page.goto("/customers");

  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/customers#main$/);
  await expect(page.getByRole("main")).toBeFocused();
  // The next tab stop is inside the page, not the header or the sidebar.
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => !!document.activeElement?.closest("main"))).toBe(true);
});

test("every page has one meta description, its own where it says one", async ({ page }) => {
  await page.goto("/auth/login");
  const description = page.locator('meta[name="description"]');
  await expect(description).toHaveCount(1);
  await expect(description).toHaveAttribute("content", /^Sign in to Remarket/);
  await page.goto("/auth/reset-password");
  await expect(description).toHaveCount(1);
  await expect(description).toHaveAttribute("content", /insurance renewals/);
});

test("robots.txt and the favicon are served without signing in", async ({ request }) => {
  const robots = await request.get("/robots.txt", { maxRedirects: 0 });
  expect(robots.status()).toBe(200);
  expect(await robots.text()).toContain("User-agent: *");

  const svg = await request.get("/favicon.svg", { maxRedirects: 0 });
  expect(svg.status()).toBe(200);
  expect(svg.headers()["content-type"]).toContain("image/svg+xml");

  const ico = await request.get("/favicon.ico", { maxRedirects: 0 });
  expect(ico.status()).toBe(301);
  expect(ico.headers()["location"]).toBe("/favicon.svg");
});

test("on a phone the navigation sits behind a Menu button that opens and closes, with or without JavaScript", async ({
  page,
  javaScriptEnabled,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/auth/login");
  await page.getByRole("button", { name: "Try the demo" }).click();
  await expect(page.getByTestId("dashboard-title")).toContainText("(demo)");
  const nav = page.getByRole("navigation", { name: "Main" });
  const menu = page.locator("summary", { hasText: "Menu" });
  // Closed: one bar saying where you are, no links in the way.
  await expect(menu).toBeVisible();
  await expect(menu).toContainText("Dashboard");
  await expect(nav).toBeHidden();
  await shot(page, testInfo, "phone-menu-closed");

  await menu.click();
  await expect(nav).toBeVisible();
  await expect(nav.getByRole("link", { name: "Re-market" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await shot(page, testInfo, "phone-menu-open");

  if (javaScriptEnabled) {
    // Escape closes it and gives focus back to its button.
    await nav.getByRole("link", { name: "Customers" }).focus();
    await page.keyboard.press("Escape");
    await expect(nav).toBeHidden();
    await expect(menu).toBeFocused();
    await menu.press("Enter");
    await expect(nav).toBeVisible();
  }
  // A link takes you there, and the menu is folded away on the new page.
  await nav.getByRole("link", { name: "Re-market" }).click();
  await expect(page).toHaveURL(/\/remarket$/);
  await expect(page.getByRole("heading", { name: "Re-market", level: 1 })).toBeVisible();
  await expect(nav).toBeHidden();
  await expect(menu).toContainText("Re-market");

  // On a laptop the same links are always shown, and there is no Menu button.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(menu).toBeHidden();
  await expect(nav).toBeVisible();
  await shot(page, testInfo, "desktop-shell");
});

async function shot(page: Page, testInfo: TestInfo, name: string) {
  const dir = process.env.SHOT_DIR;
  if (!dir) return;
  // Without JavaScript a click-through is a new document still streaming in: wait for all of it.
  await page.waitForLoadState();
  await page.screenshot({ path: `${dir}/${name}-${testInfo.project.name}.png`, fullPage: true });
}
