import { expect, test } from "./fixtures";

// Issue 14: menus close on Escape (a script enhancement: without JavaScript the menu is a plain
// <details> that closes by its button).

test("Escape closes the user menu and returns focus to its button", async ({ page }) => {
  await page.goto("/auth/login");
  await page.getByRole("button", { name: "Try the demo" }).click();
  await expect(page.getByTestId("dashboard-title")).toContainText("(demo)");

  const menu = page.locator("header details");
  const button = menu.locator("summary");
  await button.click();
  await expect(menu).toHaveAttribute("open", "");
  await expect(menu.getByRole("link", { name: "Account and password" })).toBeVisible();
  await menu.getByRole("link", { name: "Account and password" }).focus();
  await page.keyboard.press("Escape");
  await expect(menu).not.toHaveAttribute("open", "");
  await expect(button).toBeFocused();
});

test("a toast sits away from the header's bell and user menu", async ({ page }) => {
  await page.goto("/auth/login");
  await page.getByRole("button", { name: "Try the demo" }).click();
  // "Try the demo" greets with a toast.
  const toast = page.locator("[data-sonner-toast]").first();
  await expect(toast).toBeVisible();
  const toastBox = (await toast.boundingBox())!;
  for (const control of [page.getByRole("link", { name: /^Notifications, \d+ unread$/ }), page.locator("header summary")]) {
    const box = (await control.boundingBox())!;
    const overlaps =
      box.x < toastBox.x + toastBox.width &&
      toastBox.x < box.x + box.width &&
      box.y < toastBox.y + toastBox.height &&
      toastBox.y < box.y + box.height;
    expect(overlaps, "the toast covers a header control").toBe(false);
  }
});
