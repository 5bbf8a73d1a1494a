// The pages the layout, accessibility and screenshot checks visit: every page of the smoke spec
// (tests/e2e/pages.spec.ts), the detail pages reached from its lists, and the signed-out pages.
// One list, so a page added to the app is added to every check at once.

/** Signed-in pages of the demo agency, by path. */
export const APP_PAGES = [
  "/",
  "/customers",
  "/remarket",
  "/forecast",
  "/quotes",
  "/tasks",
  "/carriers",
  "/reports",
  "/files",
  "/files/config",
  "/notifications",
  "/billing",
  "/connect-database",
  "/integration-setup",
  "/create-connection/?integrationId=csv",
  "/settings/team",
  "/settings/account",
  "/settings/api-keys",
];

/** Detail pages: the first link on a list page (the path) whose href matches the pattern. */
export const DETAIL_PAGES = /** @type {const} */ ([
  ["/customers", /^\/customers\/[0-9a-f-]{36}$/],
  ["/quotes", /^\/quotes\/[0-9a-f-]{36}$/],
  ["/files", /^\/files\/[0-9a-f-]{36}$/],
  ["/connect-database", /^\/connect-database\/[0-9a-f-]{36}$/],
  ["/integration-setup", /^\/configure-integration\/[a-z-]+\/[0-9a-f-]{36}$/],
]);

/** Pages a signed-out visitor sees. */
export const SIGNED_OUT_PAGES = ["/auth/login", "/auth/signup", "/auth/forgot-password"];

/** The two screens every page must fit: a laptop and a phone. */
export const VIEWPORTS = /** @type {const} */ ([
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
]);

/**
 * The detail pages' paths, read from the list pages' links as a user would click them.
 * @param {import("@playwright/test").Page} page
 * @returns {Promise<string[]>}
 */
export async function detailPaths(page) {
  /** @type {string[]} */
  const paths = [];
  for (const [list, pattern] of DETAIL_PAGES) {
    await page.goto(list);
    const hrefs = await page.locator("main a[href]").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
    const href = hrefs.find((h) => pattern.test(h));
    if (!href) throw new Error(`no link like ${pattern} on ${list}`);
    paths.push(href);
    // The data-quality report of the first file that has one.
    if (list === "/files") {
      for (const file of [...new Set(hrefs.filter((h) => pattern.test(h)))].slice(0, 6)) {
        await page.goto(file);
        const links = await page.locator("main a[href]").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
        const report = links.find((h) => /^\/files\/[0-9a-f-]{36}\/report$/.test(h));
        if (report) {
          paths.push(report);
          break;
        }
      }
    }
  }
  return paths;
}
