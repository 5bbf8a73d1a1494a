import { writeFileSync } from "node:fs";
import { expect, test } from "./fixtures";
import { createUser, saveAndContinue, signInByCookie, waitForImport } from "./helpers";

// Issue 15 "Identity", JavaScript on and off: an export whose customer number 1002 names two
// insureds → the mapping preview lists the conflict → the agency chooses one customer per insured →
// the summary says so → after the import, Ann and Bo are two customers, each with their policy.

const HEADER =
  "Client Number,Applicant Name,Applicant Type,Email,Phone,Address Line 1,Address Line 2,City,State,Zip Code,Producer,CSR,Policy #,LOB,Carrier,Policy Status,Original Inception,Effective Date,Exp Date,Term,Written Premium,Prior Premium,Renewal Premium,Risk State,Claims 3Y,Last Modified";
const row = (client: string, name: string, email: string, policy: string) =>
  `${client},"${name}",Personal,${email},,1 Elm St,,Erie,PA,16501,Alex Rivera,Casey Nguyen,${policy},HOME,Erie,Active,01/01/2020,01/01/2026,01/01/2027,12,"$1,000.00",900,,PA,0,2025-05-01T00:00:00Z`;

test("rows naming two insureds under one customer number: listed, the rule chosen, two customers imported", async ({
  page,
  context,
  request,
  baseURL,
}, testInfo) => {
  const js = testInfo.project.name === "js";
  const user = await createUser(request);
  await signInByCookie(context, baseURL!, user.sessionCookie);
  const file = testInfo.outputPath("two-insureds.csv");
  writeFileSync(
    file,
    [
      HEADER,
      row("1001", "Smith, John", "john@example.com", "HO1"),
      row("1002", "Lee, Ann", "ann@example.com", "HO2"),
      row("1002", "Lee, Bo", "bo@example.com", "AU2"),
    ].join("\r\n"),
  );

  await page.goto("/create-connection/?integrationId=csv");
  await page.getByLabel("Export file (.csv or .xlsx)").setInputFiles(file);
  await saveAndContinue(page);
  await expect(page).toHaveURL(/\/configure-integration\/configuration\/[0-9a-f-]{36}$/);
  const connectionId = page.url().split("/").pop()!;

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
