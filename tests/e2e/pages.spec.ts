import { APP_PAGES as PAGES } from "../support/page-list.js";
import { expect, test } from "./fixtures";

// Every page of the demo agency, as staff open it: it answers 200, renders inside the shell and,
// with JavaScript, hydrates without a script error (the fixture fails the test on any). A route
// module that cannot load in the browser would otherwise go unnoticed: Remix falls back to a
// full page load and the page still looks right.

test("every page of the demo agency renders and hydrates without errors", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto("/auth/login");
  await page.getByRole("button", { name: "Try the demo" }).click();
  await expect(page.getByTestId("dashboard-title")).toContainText("(demo)");

  for (const path of PAGES) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByRole("navigation", { name: "Main" }), path).toBeAttached();
    await expect(page.locator("h1").first(), path).toBeVisible();
    await page.waitForLoadState("networkidle");
  }

  // Pages reached from the lists: a customer, a file and a connection of the demo agency.
  for (const [list, link] of [
    ["/customers", /^\/customers\/[0-9a-f-]{36}$/],
    ["/files", /^\/files\/[0-9a-f-]{36}$/],
    ["/connect-database", /^\/connect-database\/[0-9a-f-]{36}$/],
  ] as const) {
    await page.goto(list);
    const hrefs = await page.locator("main a[href]").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
    const href = hrefs.find((h) => link.test(h));
    expect(href, `a link like ${link} on ${list}`).toBeTruthy();
    const response = await page.goto(href!);
    expect(response?.status(), href).toBe(200);
    await expect(page.locator("h1").first(), href).toBeVisible();
    await page.waitForLoadState("networkidle");
  }
});

test("the sidebar, header and dashboard links move between pages and the sidebar marks where you are; with JavaScript, without reloading", async ({
  page,
}) => {
  await page.goto("/auth/login");
  await page.getByRole("button", { name: "Try the demo" }).click();
  await expect(page.getByTestId("dashboard-title")).toContainText("(demo)");
  const sidebar = page.getByRole("navigation", { name: "Main" });
  await expect(sidebar.getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");

  // A marker on window survives client-side navigation and is gone after a full page load.
  const scripted = await page.evaluate(() => typeof window !== "undefined" && "__remixContext" in window);
  if (scripted) await page.evaluate(() => ((window as unknown as { sidebarMarker: number }).sidebarMarker = 1));

  await sidebar.getByRole("link", { name: "Customers" }).click();
  await expect(page).toHaveURL(/\/customers$/);
  await expect(page.locator("h1").first()).toContainText("Customers");
  await expect(sidebar.getByRole("link", { name: "Customers" })).toHaveAttribute("aria-current", "page");
  await expect(sidebar.getByRole("link", { name: "Dashboard" })).not.toHaveAttribute("aria-current", "page");

  // A page below a section keeps the section marked; Settings opens for the connection pages.
  await sidebar.getByText("Settings").click();
  await sidebar.getByRole("link", { name: "Connections" }).click();
  await expect(page).toHaveURL(/\/connect-database$/);
  await expect(sidebar.getByRole("link", { name: "Connections" })).toHaveAttribute("aria-current", "page");
  await expect(sidebar.locator('details[data-section="/configuration"]')).toHaveAttribute("open", "");

  // The header's links and the dashboard's cards move the same way.
  await page.getByRole("link", { name: /^Notifications, \d+ unread$/ }).click();
  await expect(page).toHaveURL(/\/notifications$/);
  await page.locator("header").getByRole("link", { name: "Remarket" }).click();
  await expect(page.getByTestId("dashboard-title")).toContainText("(demo)");
  await page
    .getByTestId("card-quota")
    .getByRole("link", { name: /Billing and usage/ })
    .click();
  await expect(page).toHaveURL(/\/billing$/);
  await expect(sidebar.getByRole("link", { name: "Billing" })).toHaveAttribute("aria-current", "page");

  const marker = await page.evaluate(() => (window as unknown as { sidebarMarker?: number }).sidebarMarker ?? null);
  expect(marker).toBe(scripted ? 1 : null);
});
