import { expect, test } from "./fixtures";

// Two of the agency's carriers that are one company: an admin merges them on /carriers.
test("merge two carriers: the first leaves the list, its policies move to the second", async ({ page }) => {
  await page.goto("/auth/login");
  await page.getByRole("button", { name: "Try the demo" }).click();
  await expect(page.getByTestId("dashboard-title")).toContainText("(demo)");
  await page.goto("/carriers");
  const rows = page.getByTestId("my-carrier");
  const before = await rows.count();
  expect(before).toBeGreaterThan(1);
  const names = (await rows.locator(".font-medium").allInnerTexts()).map((n) => n.trim());
  const [from, into] = [names[0], names[1]];

  const form = page.getByRole("form", { name: "Merge two carriers" });
  await form.getByRole("button", { name: "Merge carriers" }).click();
  await expect(form.getByText("Choose the carrier to merge.")).toBeVisible();

  await form.locator('select[name="fromId"]').selectOption({ label: from });
  await form.locator('select[name="intoId"]').selectOption({ label: into });
  await form.getByRole("button", { name: "Merge carriers" }).click();
  await expect(page.getByText(new RegExp(`${from} merged into ${into}: \\d+ polic`))).toBeVisible();
  await expect(rows).toHaveCount(before - 1);
  await expect(page.getByTestId("my-carriers")).not.toContainText(from);
});

test("the catalogue points out the carriers of the book the agency has not added, until it adds them", async ({ page }) => {
  await page.goto("/auth/login");
  await page.getByRole("button", { name: "Try the demo" }).click();
  await expect(page.getByTestId("dashboard-title")).toContainText("(demo)");
  await page.goto("/carriers");
  await expect(page.getByTestId("book-carriers")).toContainText("Kemper");
  const kemper = page.getByTestId("catalogue").getByRole("row").filter({ hasText: "Kemper" });
  await expect(kemper).toContainText("In your book");
  await kemper.getByRole("button", { name: "Add Kemper" }).click();
  await expect(page.getByTestId("catalogue").getByRole("row").filter({ hasText: "Kemper" })).toContainText("Yours");
  await expect(page.getByTestId("book-carriers")).not.toContainText("Kemper");
});
