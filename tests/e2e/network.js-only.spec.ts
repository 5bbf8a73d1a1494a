import type { Route } from "@playwright/test";
import { expect, test, type Page } from "./fixtures";

// Issue 20, flaky office networks, with JavaScript on (without it the browser's own retry and the
// one-time token already do the right thing). The next matching request is made to fail in one of
// two ways: "abort" (it never reaches the server) or "lose" (the server runs it, the answer is
// lost). Either way the page keeps its shell and its form, offers "Try again", and the retry
// applies once.

const MODES = ["abort", "lose"] as const;
type Mode = (typeof MODES)[number];

/** Make the next `method` request whose path matches `path` fail; the ones after it go through. */
async function failNext(page: Page, method: string, path: RegExp, mode: Mode) {
  let fired = false;
  const handler = async (route: Route) => {
    const request = route.request();
    if (fired || request.method() !== method || !path.test(new URL(request.url()).pathname)) return route.fallback();
    fired = true;
    // "lose": the server receives and runs it; only the answer never arrives.
    if (mode === "lose") await route.fetch();
    await route.abort("failed");
  };
  await page.route("**/*", handler);
  return { fired: () => fired };
}

async function startDemo(page: Page) {
  // A confirmation asked with the browser's own dialog is accepted, as the person would.
  page.on("dialog", (dialog) => void dialog.accept());
  await page.goto("/auth/login");
  await page.getByRole("button", { name: "Try the demo" }).click();
  await expect(page.getByTestId("dashboard-title")).toContainText("(demo)");
}

async function quotaUsed(page: Page) {
  return Number((await page.getByTestId("quota-used").innerText()).replace(/,/g, ""));
}

/** The shell is still there: header, and the sidebar's navigation. */
async function expectShell(page: Page) {
  await expect(page.getByTestId("tenant-name")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Re-market", exact: true })).toBeVisible();
  await expect(page.getByText("Something went wrong on our side")).toHaveCount(0);
}

/** The header bell's unread count (no badge at 0). */
async function expectUnread(page: Page, count: number) {
  if (count === 0) await expect(page.getByTestId("unread-count")).toHaveCount(0);
  else await expect(page.getByTestId("unread-count")).toHaveText(String(count));
}

const notice = (page: Page) => page.getByTestId("connection-notice");

/** A confirmation step before re-marketing, if this build asks for one (a dialog, or the browser's confirm). */
async function confirmIfAsked(page: Page) {
  const dialog = page.getByRole("dialog");
  await expect(
    notice(page)
      .or(dialog)
      .or(page.getByText(/^Re-marketed /))
      .first(),
  ).toBeVisible();
  if (await dialog.isVisible())
    await dialog
      .getByRole("button", { name: /re-market|confirm|yes/i })
      .last()
      .click();
}

async function remarketFirstRow(page: Page) {
  await page.goto("/remarket");
  const policy = (await page.getByTestId("worklist-row").first().getAttribute("data-policy"))!;
  await page.getByRole("button", { name: `Re-market ${policy}`, exact: true }).click();
  await confirmIfAsked(page);
  return policy;
}

for (const mode of MODES) {
  test(`re-market, ${mode}: the worklist stays, "Try again" re-markets once (quota +1)`, async ({ page }) => {
    await startDemo(page);
    await page.goto("/remarket");
    const before = await quotaUsed(page);
    const policy = (await page.getByTestId("worklist-row").first().getAttribute("data-policy"))!;
    // The question ("This uses 1 of your … re-markets") comes first; the answer to it is what spends quota.
    await page.getByRole("button", { name: `Re-market ${policy}`, exact: true }).click();
    const question = page.getByRole("dialog", { name: `Re-market policy ${policy}?` });
    await expect(question).toBeVisible();
    const failure = await failNext(page, "POST", /^\/remarket\.data$/, mode);
    await question.getByRole("button", { name: `Re-market ${policy}`, exact: true }).click();
    // The notice is inside the question's dialog, where the person's eyes (and the focus) are.
    await expect(question.getByTestId("connection-notice")).toContainText(
      "Couldn't reach Remarket. Your change may not have been saved; try again — it will not be applied twice.",
    );
    expect(failure.fired()).toBe(true);
    await expectShell(page);
    await expect(page.locator(`[data-policy="${policy}"]`)).toBeVisible();
    await expect(page.getByTestId("offline-indicator")).toHaveCount(0);

    await question.getByTestId("connection-notice").getByRole("button", { name: "Try again" }).click();
    await expect(page.locator(`[data-policy="${policy}"]`)).toHaveCount(0);
    await expect(notice(page)).toHaveCount(0);
    await expect(page.getByTestId("quota-used")).toHaveText(String(before + 1));
    await page.reload();
    await expect(page.getByTestId("quota-used")).toHaveText(String(before + 1));
  });

  test(`quote save, ${mode}: the form keeps its values, "Try again" adds one quote`, async ({ page }) => {
    await startDemo(page);
    const policy = await remarketFirstRow(page);
    await expect(page.locator(`[data-policy="${policy}"]`)).toHaveCount(0);
    await page.goto("/remarket?status=remarketed");
    await page.locator(`[data-policy="${policy}"]`).getByRole("link", { name: "Quotes" }).click();
    await expect(page.getByRole("heading", { name: `Quotes for ${policy}` })).toBeVisible();

    await page.getByLabel("…or another carrier's name").fill("Flaky Mutual");
    await page.getByLabel("Premium ($)").fill("1234.50");
    await page.getByLabel("Coverage notes").fill("Same limits");
    const failure = await failNext(page, "POST", /^\/quotes\/[^/]+\.data$/, mode);
    await page.getByRole("button", { name: "Add quote" }).click();
    const addForm = page.getByRole("form", { name: "Add quote" });
    await expect(addForm.getByTestId("connection-notice")).toBeVisible();
    expect(failure.fired()).toBe(true);
    await expectShell(page);
    await expect(page.getByLabel("…or another carrier's name")).toHaveValue("Flaky Mutual");
    await expect(page.getByLabel("Premium ($)")).toHaveValue("1234.50");
    await expect(page.getByLabel("Coverage notes")).toHaveValue("Same limits");

    await addForm.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByTestId("quote-row")).toHaveCount(1);
    await expect(page.getByTestId("quote-row")).toContainText("Flaky Mutual");
    await page.reload();
    await expect(page.getByTestId("quote-row")).toHaveCount(1);
  });

  test(`mark-as-read, ${mode}: no message, the list is re-read; one notification read`, async ({ page }) => {
    await startDemo(page);
    await page.goto("/notifications");
    const cards = page.getByTestId("notification-card");
    await expect(cards.first()).toBeVisible();
    const unread = Number(await page.getByTestId("unread-count").innerText());
    const fileName = await cards.first().getByTestId("notification-file-name").innerText();
    const failure = await failNext(page, "POST", /^\/notifications\.data$/, mode);
    const reread = page.waitForRequest((r) => r.method() === "GET" && new URL(r.url()).pathname === "/notifications.data");

    await cards.first().getByRole("button", { name: "Mark as read" }).click();
    await reread;
    expect(failure.fired()).toBe(true);
    await expectShell(page);
    await expect(notice(page)).toHaveCount(0);
    if (mode === "abort") {
      // Not marked: the card is still there; the person marks it again.
      await expect(cards.filter({ hasText: fileName })).toHaveCount(1);
      await expectUnread(page, unread);
      await cards.filter({ hasText: fileName }).getByRole("button", { name: "Mark as read" }).click();
    }
    await expect(cards.filter({ hasText: fileName })).toHaveCount(0);
    await expectUnread(page, unread - 1);
    await page.goto("/notifications?filter=read");
    await expect(page.getByTestId("notification-card").filter({ hasText: fileName })).toHaveCount(1);
  });

  test(`wizard step save, ${mode}: the step keeps its values, "Try again" saves it`, async ({ page }) => {
    await startDemo(page);
    await page.goto("/connect-database");
    const href = (await page.locator('a[href^="/connect-database/"]', { hasText: "EZLynx" }).first().getAttribute("href"))!;
    const connectionId = href.split("/").pop()!;
    await page.goto(`/configure-integration/prediction/${connectionId}`);
    await expect(page.getByRole("heading", { name: "Prediction" })).toBeVisible();
    await page.getByLabel("Premium increase (%)").first().fill("17");
    const failure = await failNext(page, "POST", /^\/configure-integration\/prediction\/[^/]+\.data$/, mode);
    await page.getByRole("button", { name: "Save & continue" }).click();
    await expect(notice(page)).toBeVisible();
    expect(failure.fired()).toBe(true);
    await expectShell(page);
    await expect(page.getByLabel("Premium increase (%)").first()).toHaveValue("17");

    await notice(page).getByRole("button", { name: "Try again" }).click();
    await expect(page).toHaveURL(new RegExp(`/configure-integration/task-creation/${connectionId}$`));
    await page.goto(`/configure-integration/prediction/${connectionId}`);
    await expect(page.getByLabel("Premium increase (%)").first()).toHaveValue("17");
  });

  test(`upload, ${mode}: "Upload interrupted", the retry stores the file once`, async ({ page }) => {
    await startDemo(page);
    await page.goto("/files");
    const name = `flaky-${mode}-${Date.now()}.csv`;
    await page.getByLabel("Data domain").selectOption({ label: "Policies" });
    await page.getByLabel("File", { exact: true }).setInputFiles({
      name,
      mimeType: "text/csv",
      buffer: Buffer.from("Policy #,Customer,Written Premium,Exp Date\n1001,Avery Brooks,1200,01/15/2027\n"),
    });
    const failure = await failNext(page, "POST", /^\/resources\/files\/upload$/, mode);
    await page.getByRole("button", { name: "Upload" }).click();
    const interrupted = page.getByTestId("upload-interrupted");
    await expect(interrupted).toContainText("Upload interrupted");
    expect(failure.fired()).toBe(true);
    await expectShell(page);

    await interrupted.getByRole("button", { name: "Try again" }).click();
    await expect(page).toHaveURL(/\/files\?view=mine/);
    await expect(page.getByTestId("file-row").filter({ hasText: name })).toHaveCount(1);
    await page.reload();
    await expect(page.getByTestId("file-row").filter({ hasText: name })).toHaveCount(1);
  });

  test(`sidebar navigation, ${mode}: one lost data read is retried by itself`, async ({ page }) => {
    await startDemo(page);
    const failure = await failNext(page, "GET", /^\/reports\.data$/, mode);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reports" }).click();
    await expect(page).toHaveURL(/\/reports$/);
    await expect(page.getByRole("heading", { name: "Reports", exact: true })).toBeVisible();
    expect(failure.fired()).toBe(true);
    await expect(notice(page)).toHaveCount(0);
  });
}

test("sidebar navigation whose data never comes: after the retries, the notice inside the shell; Try again loads it", async ({ page }) => {
  await startDemo(page);
  let tries = 0;
  const failAll = async (route: Route) => {
    if (new URL(route.request().url()).pathname !== "/customers.data") return route.fallback();
    tries++;
    await route.abort("failed");
  };
  await page.route("**/*", failAll);
  const started = Date.now();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Customers" }).click();
  await expect(page.getByTestId("offline-indicator")).toBeVisible();
  await expect(notice(page)).toBeVisible({ timeout: 20_000 });
  // Seed §9: the first try and 3 retries, 1 s + 2 s + 4 s apart.
  expect(tries).toBe(4);
  expect(Date.now() - started).toBeGreaterThanOrEqual(7000);
  await expectShell(page);

  await page.unroute("**/*", failAll);
  await notice(page).getByRole("button", { name: "Try again" }).click();
  await expect(page.getByRole("heading", { name: "Customers", exact: true })).toBeVisible();
  await expect(notice(page)).toHaveCount(0);
  // The indicator goes by itself once requests get answers again.
  await expect(page.getByTestId("offline-indicator")).toHaveCount(0);
});

test("a 5xx answer is tried once more after 1000 ms, then the error is shown", async ({ page }) => {
  await startDemo(page);
  const seen: number[] = [];
  await page.route("**/*", async (route) => {
    if (new URL(route.request().url()).pathname !== "/tasks.data") return route.fallback();
    seen.push(Date.now());
    await route.fulfill({ status: 503, body: "busy" });
  });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Tasks" }).click();
  await expect(page.getByText("Something went wrong on our side")).toBeVisible();
  await expect(page.getByTestId("tenant-name")).toBeVisible();
  expect(seen).toHaveLength(2);
  expect(seen[1] - seen[0]).toBeGreaterThanOrEqual(1000);
  await expect(notice(page)).toHaveCount(0);
});

test("the browser going offline shows the indicator, and it clears by itself", async ({ page, context }) => {
  await startDemo(page);
  await expect(page.getByTestId("offline-indicator")).toHaveCount(0);
  await context.setOffline(true);
  await expect(page.getByTestId("offline-indicator")).toHaveText("Offline");
  await context.setOffline(false);
  await expect(page.getByTestId("offline-indicator")).toHaveCount(0);
});

test("a request the page abandoned is not reported as an error in the page", async ({ page }) => {
  await page.goto("/auth/login");
  // What the router leaves behind when a newer navigation aborts a read still retrying: a rejection
  // nobody handles. The page-error check of every test (fixtures.ts) fails the test if it surfaces.
  await page.evaluate(() => {
    const controller = new AbortController();
    controller.abort();
    void Promise.reject(controller.signal.reason);
  });
  const silenced = await page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        window.addEventListener("unhandledrejection", (event) => resolve(event.defaultPrevented), { once: true });
        void Promise.reject(new DOMException("Aborted", "AbortError"));
      }),
  );
  expect(silenced).toBe(true);
});
