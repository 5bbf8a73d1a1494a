import { expect, test, type Page } from "./fixtures";
import { createUser, signInByCookie } from "./helpers";

const CSV = [
  "Policy #,Customer,Written Premium,Exp Date,Email",
  '1001,"Brooks, Avery","$1,200.50",01/15/2026,avery@example.com',
  "1002,Jordan Lee,980,02/20/2026,",
  "1003,Morgan Diaz,N/A,03/05/2026,morgan@example.com",
].join("\n");

async function signIn(page: Page, baseURL: string, request: Parameters<typeof createUser>[0]) {
  const user = await createUser(request);
  await signInByCookie(page.context(), baseURL, user.sessionCookie);
  return user;
}

async function upload(page: Page, name: string, buffer: Buffer, domain = "Policies") {
  await page.goto("/files");
  await page.getByLabel("Data domain").selectOption({ label: domain });
  await page.getByLabel("File", { exact: true }).setInputFiles({ name, mimeType: "application/octet-stream", buffer });
  await page.getByRole("button", { name: "Upload" }).click();
}

/** With JavaScript the list follows processing by itself; without it, the user refreshes. */
async function waitForStatus(page: Page, name: string, status: string, javaScriptEnabled: boolean) {
  const row = page.getByTestId("file-row").filter({ hasText: name });
  if (javaScriptEnabled) {
    await expect(row.getByTestId("file-status")).toHaveText(status, { timeout: 30_000 });
    return;
  }
  await expect(async () => {
    await page.reload();
    await expect(row.getByTestId("file-status")).toHaveText(status, { timeout: 500 });
  }).toPass({ timeout: 30_000 });
}

test("upload a CSV → Ready → report → notification → mark read", async ({ page, request, baseURL, javaScriptEnabled }) => {
  await signIn(page, baseURL!, request);
  const name = `renewals-${javaScriptEnabled ? "js" : "nojs"}.csv`;
  await upload(page, name, Buffer.from(CSV));
  await expect(page).toHaveURL(/\/files\?view=mine/);
  await expect(page.getByText(`${name} is queued for processing.`)).toBeVisible();
  await waitForStatus(page, name, "Ready", javaScriptEnabled);
  const row = page.getByTestId("file-row").filter({ hasText: name });
  await expect(row).toContainText("CSV");
  await expect(row).toContainText("Policies");
  await expect(row).toContainText(/\d{2} [A-Z][a-z]{2} \d{4} \| \d{2}:\d{2}/);

  await row.getByRole("link", { name }).click();
  await expect(page.getByTestId("file-name")).toContainText(name);
  await expect(page.getByTestId("status-history")).toContainText("Uploaded");
  await expect(page.getByTestId("status-history")).toContainText("Ready");
  const open = page.getByRole("link", { name: "Open report" });
  await expect(open).toHaveAttribute("target", "_blank");
  let report: Page;
  if (javaScriptEnabled) {
    [report] = await Promise.all([page.waitForEvent("popup"), open.click()]);
  } else {
    report = page;
    await page.goto((await open.getAttribute("href"))!);
  }
  await expect(report.getByTestId("report-rows")).toHaveText("3");
  await expect(report.getByTestId("report-columns")).toHaveText("5");
  for (const column of ["Policy #", "Customer", "Written Premium", "Exp Date", "Email"]) {
    await expect(report.getByRole("heading", { name: column, exact: false }).first()).toBeVisible();
  }
  await expect(report.getByTestId("eda-report").locator("svg").first()).toBeVisible();
  if (report !== page) await report.close();

  await page.goto("/");
  await expect(page.getByTestId("unread-count")).toHaveText("1");
  await page.getByRole("link", { name: /Notifications, 1 unread/ }).click();
  const card = page.getByTestId("notification-card").filter({ hasText: name });
  await expect(card).toBeVisible();
  await expect(card.getByTestId("notification-date")).toHaveText(/^\d{2} [A-Z][a-z]{2} \d{4} \| \d{2}:\d{2}$/);
  await card.getByRole("button", { name: "Mark as read" }).click();
  await expect(card).toHaveCount(0);
  if (!javaScriptEnabled) await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByTestId("unread-count")).toHaveCount(0);
  await page.getByRole("link", { name: "Read", exact: true }).click();
  await expect(page.getByTestId("notification-card").filter({ hasText: name })).toBeVisible();
});

test("a wrong-type upload shows the error on the form", async ({ page, request, baseURL }) => {
  await signIn(page, baseURL!, request);
  await upload(page, "photo.csv", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
  await expect(page.getByText("The content does not match .csv: it looks like a PNG image.")).toBeVisible();
  await expect(page.getByLabel("Data domain")).toHaveValue("policies");
  await upload(page, "notes.txt", Buffer.from("hello"), "Carriers");
  await expect(page.getByText("Only .csv, .xls, .xlsx, .pdf, .doc and .docx files can be uploaded.")).toBeVisible();
  await expect(page.getByLabel("Data domain")).toHaveValue("carriers");
  await page.goto("/files");
  await expect(page.getByTestId("file-row")).toHaveCount(0);
});

test("a large upload: progress bar and cancel with JavaScript, the plain form without", async ({
  page,
  request,
  baseURL,
  javaScriptEnabled,
}) => {
  await signIn(page, baseURL!, request);
  const big = Buffer.alloc(24 * 1024 * 1024, "policy,premium\n1001,100\n");
  if (!javaScriptEnabled) {
    await upload(page, "big.csv", big);
    await expect(page).toHaveURL(/\/files\?view=mine/);
    await expect(page.getByTestId("file-row").filter({ hasText: "big.csv" })).toBeVisible();
    return;
  }
  // Slow the upload down (Chrome's network emulation) so progress is observable.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 4 * 1024 * 1024,
  });
  await upload(page, "big.csv", big);
  const progress = page.getByRole("progressbar", { name: "Upload progress" });
  await expect(progress).toBeVisible();
  const seen = new Set<number>();
  await expect(async () => {
    seen.add(Number(await progress.getAttribute("aria-valuenow")));
    expect([...seen].filter((v) => v > 0 && v < 100).length).toBeGreaterThanOrEqual(2);
  }).toPass({ timeout: 20_000, intervals: [100] });
  await expect(page.getByTestId("upload-progress-text")).toContainText(/MB of 24\.0 MB sent/);
  await page.getByRole("button", { name: "Cancel upload" }).click();
  await expect(page.getByText("Upload cancelled: nothing was stored.")).toBeVisible();
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await page.goto("/files");
  await expect(page.getByText("No files yet")).toBeVisible();
});

test("tenant isolation: another agency's file and notification are 404; an altered public link fails", async ({
  page,
  request,
  baseURL,
  browser,
}) => {
  await signIn(page, baseURL!, request);
  await upload(page, "private.csv", Buffer.from(CSV));
  await expect(page).toHaveURL(/\/files\?view=mine/);
  await page.getByRole("link", { name: "private.csv" }).click();
  await expect(page).toHaveURL(/\/files\/[0-9a-f-]{36}$/);
  const fileId = page.url().split("/files/")[1];
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("file-status").first()).toHaveText("Ready", { timeout: 500 });
  }).toPass({ timeout: 30_000 });
  await page.getByRole("button", { name: "Copy public link" }).click();
  const link = await page.getByLabel(/Public link/).inputValue();
  expect(link).toContain(`/public/files/${fileId}?expires=`);
  await page.goto("/notifications");
  const notificationId = await page.locator('input[name="id"]').first().inputValue();

  // A stranger from another agency, in a browser of their own.
  const stranger = await createUser(request);
  const context = await browser.newContext();
  await signInByCookie(context, baseURL!, stranger.sessionCookie);
  const api = context.request;
  for (const path of [`/files/${fileId}`, `/files/${fileId}/report`, `/files/${fileId}/download`, `/files/${fileId}/report/download`]) {
    expect((await api.get(path)).status(), path).toBe(404);
  }
  const markRead = await api.post("/notifications", {
    form: { intent: "read", id: notificationId },
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(markRead.status()).toBe(404);
  // The public link works without any session; with another id it does not.
  const anonymous = await browser.newContext();
  expect((await anonymous.request.get(link)).status()).toBe(200);
  const altered = link.replace(fileId, `${fileId.slice(0, -1)}${fileId.endsWith("0") ? "1" : "0"}`);
  expect((await anonymous.request.get(altered)).status()).toBe(403);
  await context.close();
  await anonymous.close();
});
