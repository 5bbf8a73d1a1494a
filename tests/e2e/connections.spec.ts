import { expect, test } from "./fixtures";
import { createUser, saveAndContinue, signInByCookie, waitForImport } from "./helpers";

// From an empty tenant to imported customers and policies through the wizard, with JavaScript
// on (project "js") and off ("no-js"), then disconnect.

test("integration setup: CSV connection, wizard, import, notification, disconnect", async ({
  page,
  context,
  request,
  baseURL,
}, testInfo) => {
  const js = testInfo.project.name === "js";
  const user = await createUser(request);
  await signInByCookie(context, baseURL!, user.sessionCookie);

  await page.goto("/integration-setup");
  await page.getByRole("link", { name: "Set up CSV / Excel export" }).click();
  await expect(page).toHaveURL(/\/create-connection\/\?integrationId=csv$/);
  await expect(page.locator('[aria-current="step"]')).toHaveAttribute("data-step", "CONNECTION_SETTING");

  // Step 1: the sample export, downloaded from the page, uploaded back.
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download the sample CSV" }).click();
  const samplePath = testInfo.outputPath("ezlynx-sample-export.csv");
  await (await downloading).saveAs(samplePath);
  await page.getByLabel("Connection name").fill("Agency book export");
  await page.getByLabel("Export file (.csv or .xlsx)").setInputFiles(samplePath);
  await page.getByRole("button", { name: "Test connection" }).click();
  await expect(page.getByTestId("test-result")).toContainText("The file can be read: 26 columns");
  // What was typed before the test is still there.
  await expect(page.getByLabel("Connection name")).toHaveValue("Agency book export");
  if (!js) await expect(page.getByText("ezlynx-sample-export.csv is uploaded.")).toBeVisible();
  await saveAndContinue(page);

  // Step 2: mapping, suggestions accepted, preview shown.
  await expect(page).toHaveURL(/\/configure-integration\/configuration\/[0-9a-f-]{36}$/);
  const connectionId = page.url().split("/").pop()!;
  // The preview validates exactly as the import does (duplicates included): 117 valid, 3 rejected below.
  await expect(page.getByTestId("preview-counts")).toContainText("117 valid and 3 invalid rows");
  await expect(page.getByRole("combobox", { name: /Policy number/ })).toHaveValue("Policy #");
  await saveAndContinue(page);
  await expect(page).toHaveURL(new RegExp(`/configure-integration/prediction/${connectionId}$`));

  // A later step cannot be entered before the earlier ones are saved.
  await page.goto(`/configure-integration/filter-options/${connectionId}`);
  await expect(page).toHaveURL(new RegExp(`/configure-integration/prediction/${connectionId}$`));

  // Step 3: prediction; a reload stays on it.
  await page.reload();
  await expect(page).toHaveURL(new RegExp(`/configure-integration/prediction/${connectionId}$`));
  await expect(page.getByRole("heading", { name: "Prediction" })).toBeVisible();
  await page.getByLabel("Premium increase (%)").first().fill("15");
  await saveAndContinue(page);

  // Step 4: task creation, people from the export's producer / CSR columns.
  await expect(page.getByRole("heading", { name: "Task creation" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Fixed employee" })).toContainText("Casey Nguyen");
  await page.getByLabel("The policy’s CSR").check();
  await saveAndContinue(page);

  // Step 5: filter options: everything ticked but the statuses no longer in force.
  await expect(page.getByRole("heading", { name: "Filter options" })).toBeVisible();
  await expect(page.getByRole("checkbox", { name: /PAUTO — Personal auto/ })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: /^Active/ })).toBeChecked();
  for (const inactive of [/^Cancelled/, /^Expired/]) await expect(page.getByRole("checkbox", { name: inactive })).not.toBeChecked();
  // This agency wants its whole book in, so it ticks them.
  for (const inactive of [/^Cancelled/, /^Expired/]) await page.getByRole("checkbox", { name: inactive }).check();
  await saveAndContinue(page);

  // Step 6: summary, start the import.
  await expect(page.getByRole("heading", { name: "Summary" })).toBeVisible();
  await expect(page.getByText("Create a task for the policy's CSR")).toBeVisible();
  await page.getByRole("button", { name: "Start import" }).click();
  await expect(page).toHaveURL(new RegExp(`/connect-database/${connectionId}$`));

  await waitForImport(page, js);
  await expect(page.getByTestId("import-progress")).toContainText("Read 120 of 120 rows: 117 imported, 3 rejected");
  await expect(page.getByTestId("connection-notification")).toHaveText(
    /^Import finished: \d+ customers, 117 policies, 3 rejected in \d+ (ms|s)$/,
  );
  await expect(page.getByTestId("connection-status")).toHaveText("Connected");
  await expect(page.getByTestId("records-imported")).toHaveText("117");

  // The same notification is in the bell's list.
  await page.goto("/notifications");
  await expect(page.getByText(/^Import finished: \d+ customers, 117 policies, 3 rejected in/)).toBeVisible();
  await page.goto(`/connect-database/${connectionId}`);

  // The uploaded export is a file like any upload: linked from the connection, on /files, with its report.
  await page.getByRole("link", { name: "ezlynx-sample-export.csv" }).click();
  await expect(page.getByTestId("file-name")).toContainText("ezlynx-sample-export.csv");
  await expect(page.getByTestId("status-history")).toContainText("Ready");
  await expect(page.getByRole("link", { name: "Open report" })).toBeVisible();
  await page.goto("/files");
  await expect(page.getByTestId("file-row").filter({ hasText: "ezlynx-sample-export.csv" })).toContainText("Policies");
  await page.goto(`/connect-database/${connectionId}`);

  // The rejected rows download with their reasons.
  const rejected = await page.request.get(`/resources/connections/${connectionId}/rejections`);
  expect(rejected.status()).toBe(200);
  const csv = await rejected.text();
  expect(csv.split("\r\n")[0]).toMatch(/^Row,Reasons,Client Number/);
  expect(csv).toContain("Duplicate of row");

  // The list shows status, records and the last sync.
  await page.goto("/connect-database");
  const row = page.locator(`tr[data-connection="${connectionId}"]`);
  await expect(row).toContainText("Connected");
  await expect(row).toContainText("117");

  // Disconnect: a modal with JavaScript, a confirmation page without.
  await row
    .getByRole("button", { name: "Disconnect Agency book export" })
    .or(row.getByRole("link", { name: "Disconnect Agency book export" }))
    .click();
  if (js) {
    const dialog = page.getByRole("dialog", { name: "Disconnect Agency book export?" });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel("Also delete imported data").check();
    await dialog.getByRole("button", { name: "Disconnect" }).click();
  } else {
    await expect(page).toHaveURL(new RegExp(`/connect-database/${connectionId}/disconnect$`));
    await page.getByLabel("Also delete imported data").check();
    await page.getByRole("button", { name: "Disconnect" }).click();
  }
  await expect(page).toHaveURL(/\/connect-database$/);
  await expect(page.getByText("Agency book export is disconnected and its imported data deleted.")).toBeVisible();
  await expect(page.locator(`tr[data-connection="${connectionId}"]`)).toContainText("Disconnected");

  const state = await request.post("/api/test-fixtures", { data: { fixture: "connection-state", tenantId: user.tenantId, connectionId } });
  expect((await state.json()).counts).toEqual({ customers: 0, policies: 0 });
});
