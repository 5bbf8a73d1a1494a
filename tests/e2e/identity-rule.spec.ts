import { expect, test } from "./fixtures";
import { exportRow as row, saveAndContinue, startCsvConnection, waitForImport } from "./helpers";

// Issue 15 "Identity", JavaScript on and off: an export whose customer number 1002 names two
// insureds → the mapping preview lists the conflict → the agency chooses one customer per insured →
// the summary says so → after the import, Ann and Bo are two customers, each with their policy.

test("rows naming two insureds under one customer number: listed, the rule chosen, two customers imported", async ({
  page,
  context,
  request,
  baseURL,
}, testInfo) => {
  const js = testInfo.project.name === "js";
  const connectionId = await startCsvConnection(page, context, request, baseURL!, testInfo.outputPath("two-insureds.csv"), [
    row("1001", "Smith, John", "john@example.com", "HO1"),
    row("1002", "Lee, Ann", "ann@example.com", "HO2"),
    row("1002", "Lee, Bo", "bo@example.com", "AU2"),
  ]);

  const conflicts = page.getByTestId("identity-conflicts");
  await expect(conflicts).toContainText("1 customer number is shared by rows that disagree on who the insured is");
  await expect(conflicts).toContainText("1002 (rows 3, 4): name “Ann Lee” vs. “Bo Lee”");
  const rule = page.getByTestId("identity-rule");
  await expect(rule.getByRole("radio", { name: /with the details of its most recently modified row/ })).toBeChecked();
  await rule.getByRole("radio", { name: "One customer per customer number and insured name" }).check();
  await saveAndContinue(page);

  await expect(page.getByRole("heading", { name: "Prediction" })).toBeVisible();
  await saveAndContinue(page);
  await expect(page.getByRole("heading", { name: "Task creation" })).toBeVisible();
  await saveAndContinue(page);
  await expect(page.getByRole("heading", { name: "Filter options" })).toBeVisible();
  await saveAndContinue(page);
  await expect(page.getByRole("heading", { name: "Summary" })).toBeVisible();
  await expect(page.getByText("Customers: one customer per customer number and insured name")).toBeVisible();
  await page.getByRole("button", { name: "Start import" }).click();
  await expect(page).toHaveURL(new RegExp(`/connect-database/${connectionId}$`));
  await waitForImport(page, js);

  await page.goto("/customers?q=Lee");
  await expect(page.getByRole("link", { name: "Ann Lee" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Bo Lee" })).toBeVisible();
  await page.getByRole("link", { name: "Bo Lee" }).click();
  await expect(page.getByText("AU2").first()).toBeVisible();
  await expect(page.getByText("HO2")).toHaveCount(0);
});
