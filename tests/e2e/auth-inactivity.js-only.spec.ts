import { expect, test, type Page } from "./fixtures";
import { createUser, signInByCookie } from "./helpers";

// Runs in the js project only (playwright.config.ts): without JavaScript there is no modal, and
// the server's idle expiry alone signs the user out.
const WARNING = "For your security, you will be logged out due to inactivity in 60 seconds";

/** The modal's timers are set once the page is hydrated; their deadline is on the warning text. */
async function armedDeadline(page: Page, not?: string) {
  const warning = page.getByTestId("inactivity-warning");
  await expect(warning).toHaveAttribute("data-deadline", /^\d+$/);
  if (not) await expect(warning).not.toHaveAttribute("data-deadline", not);
  return (await warning.getAttribute("data-deadline"))!;
}

test("the inactivity modal appears 60 s before idle expiry, and Reset renews the session", async ({ page, context, baseURL, request }) => {
  const user = await createUser(request);
  await signInByCookie(context, baseURL!, user.sessionCookie);
  await page.clock.install();
  await page.goto("/");
  await expect(page.getByTestId("dashboard-title")).toBeVisible();
  const first = await armedDeadline(page);
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeHidden();

  // The session idles out 30 minutes (the default) after the last request: the warning shows at 29:00.
  await page.clock.fastForward("28:30");
  await expect(dialog).toBeHidden();
  await page.clock.fastForward("00:31");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("inactivity-warning")).toHaveText(WARNING);

  const touched = page.waitForResponse(
    (r) => new URL(r.url()).pathname.startsWith("/resources/session") && r.request().method() === "POST",
  );
  await dialog.getByRole("button", { name: "Reset" }).click();
  expect((await touched).status()).toBe(200);
  await expect(dialog).toBeHidden();

  // The root's data is reloaded and the timers restart from the renewed session.
  await armedDeadline(page, first);
  await page.clock.fastForward("28:00");
  await expect(dialog).toBeHidden();
  await page.clock.fastForward("01:30");
  await expect(dialog).toBeVisible();
});

test("the modal's close button dismisses it without signing out", async ({ page, context, baseURL, request }) => {
  const user = await createUser(request);
  await signInByCookie(context, baseURL!, user.sessionCookie);
  await page.clock.install();
  await page.goto("/settings/account");
  await armedDeadline(page);
  await page.clock.fastForward("29:05");
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Signed in as ${user.email}.`)).toBeVisible();
});

test("navigating restarts the timer from the server's renewed idle window", async ({ page, context, baseURL, request }) => {
  const user = await createUser(request);
  await signInByCookie(context, baseURL!, user.sessionCookie);
  await page.clock.install();
  await page.goto("/");
  const first = await armedDeadline(page);
  await page.clock.fastForward("20:00");
  // A client-side navigation: the root reloads, so the modal learns the new idle expiry.
  await page.getByRole("link", { name: "Start integration setup" }).click();
  await armedDeadline(page, first);
  await page.clock.fastForward("20:00");
  await expect(page.getByRole("dialog")).toBeHidden();
});
