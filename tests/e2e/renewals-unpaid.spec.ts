import { expect, test } from "./fixtures";
import { createUser, signInByCookie } from "./helpers";

// An agency whose free trial ended without a plan: the worklist is there, re-marketing is refused
// with one clear message (a row and a bulk selection), and the quota does not move.
test("re-market is refused after the trial, single and bulk, with a clear message", async ({ page, request, baseURL }) => {
  const user = await createUser(request, { agencyName: "Lapsed Agency" });
  const seeded = await request.post("/api/test-fixtures", { data: { action: "unpaid-book", tenantId: user.tenantId, userId: user.id } });
  expect(seeded.ok()).toBeTruthy();
  await signInByCookie(page.context(), baseURL!, user.sessionCookie);

  await page.goto("/remarket");
  const rows = page.getByTestId("worklist-row");
  await expect(rows.first()).toBeVisible();
  // The demo book comes with a few re-markets of its own: the count must not move from here.
  const used = await page.getByTestId("quota-used").innerText();
  const message =
    /Your free trial ended on .+\. Re-marketing needs an active subscription: choose a plan on the Billing page to re-market again\./;

  const policy = (await rows.first().getAttribute("data-policy"))!;
  await page.getByRole("button", { name: `Re-market ${policy}`, exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: message })).toBeVisible();
  await expect(page.getByTestId("quota-used")).toHaveText(used);
  await expect(page.locator(`[data-policy="${policy}"]`)).toHaveCount(1);

  for (let i = 0; i < 2; i++) await page.getByLabel(`Select ${(await rows.nth(i).getAttribute("data-policy"))!}`).check();
  await page.getByRole("button", { name: "Re-market selected" }).click();
  await expect(page.getByRole("alert").filter({ hasText: message })).toHaveCount(1);
  await expect(page.getByTestId("quota-used")).toHaveText(used);
});
