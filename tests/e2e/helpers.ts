import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { expect, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";

export const PASSWORD = "e2e-password-1";

export function uniqueEmail(prefix = "e2e") {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.test`;
}

/** Create a tenant and a confirmed user through the services (test-only fixture route). */
export async function createUser(
  request: APIRequestContext,
  input: { email?: string; agencyName?: string; name?: string; role?: "admin" | "staff"; tenantId?: string } = {},
) {
  const email = input.email ?? uniqueEmail();
  const response = await request.post("/api/test-fixtures", {
    data: { password: PASSWORD, ...input, email },
  });
  expect(response.ok()).toBeTruthy();
  return (await response.json()) as { id: string; tenantId: string; email: string; sessionCookie: string };
}

/** Sign a browser context in by cookie, skipping the login form. */
export async function signInByCookie(context: BrowserContext, baseURL: string, sessionCookie: string) {
  await context.addCookies([{ name: "__session", value: sessionCookie, url: baseURL, httpOnly: true, sameSite: "Lax" }]);
}

/** The newest 6-digit code mailed to `email`, read from the dev outbox page. */
export async function readCodeFromOutbox(page: Page, email: string) {
  const code = (await readOutbox(page, email)).match(/\b(\d{6})\b/)?.[1];
  expect(code, `a code mailed to ${email}`).toBeTruthy();
  return code!;
}

/** The newest link mailed to `email` whose path starts with `pathPrefix`, as a path for page.goto. */
export async function readLinkFromOutbox(page: Page, email: string, pathPrefix: string) {
  const links = (await readOutbox(page, email)).match(/https?:\/\/\S+/g) ?? [];
  const link = links.map((l) => new URL(l)).find((url) => url.pathname.startsWith(pathPrefix));
  expect(link, `a ${pathPrefix} link mailed to ${email}`).toBeTruthy();
  return `${link!.pathname}${link!.search}`;
}

/** The text of the newest e-mail to `email` in the dev outbox (filtered by address on the server). */
async function readOutbox(page: Page, email: string) {
  const outbox = await page.context().newPage();
  try {
    await outbox.goto(`/dev/outbox?${new URLSearchParams({ to: email.toLowerCase() })}`);
    const mail = outbox.getByTestId("outbox-email").filter({ hasText: email.toLowerCase() }).first();
    return await mail.getByTestId("outbox-text").innerText();
  } finally {
    await outbox.close();
  }
}

/**
 * Re-marketing spends quota, so it asks first: a dialog with JavaScript, a page of its own
 * without. Checks the question's words, then answers yes.
 */
export async function confirmRemarket(page: Page, count = 1) {
  const confirm = page.getByTestId("confirm-remarket");
  await expect(confirm).toBeVisible();
  await expect(confirm.getByTestId("confirm-message")).toContainText(`This uses ${count} of your `);
  await confirm.getByRole("button", { name: /^Re-market / }).click();
}

/** From the worklist, re-market its first renewal (confirmed); returns the policy number. */
export async function remarketFirstRenewal(page: Page) {
  await page.goto("/remarket");
  const policy = (await page.getByTestId("worklist-row").first().getAttribute("data-policy"))!;
  await page.getByRole("button", { name: `Re-market ${policy}`, exact: true }).click();
  await confirmRemarket(page);
  await expect(page.getByText(`Re-marketed ${policy}`)).toBeVisible();
  return policy;
}

/** The wizard's step forward (every step has it). */
export async function saveAndContinue(page: Page) {
  await page.getByRole("button", { name: "Save & continue" }).click();
}

/** On a connection's page until its import succeeded: JavaScript refreshes by itself every 2 s; without it, the page's refresh link. */
export async function waitForImport(page: Page, js: boolean) {
  await expect
    .poll(
      async () => {
        const progress = page.getByTestId("import-progress");
        if (!js && (await progress.getAttribute("data-status")) !== "succeeded") {
          const refresh = page.getByRole("link", { name: "Refresh" });
          if (await refresh.isVisible()) await refresh.click();
          else await page.reload();
        }
        return progress.getAttribute("data-status");
      },
      { timeout: 45_000, intervals: [500, 1000, 2000] },
    )
    .toBe("succeeded");
}

/** The header of the EZLynx-style export the wizard specs upload. */
export const EXPORT_HEADER =
  "Client Number,Applicant Name,Applicant Type,Email,Phone,Address Line 1,Address Line 2,City,State,Zip Code,Producer,CSR,Policy #,LOB,Carrier,Policy Status,Original Inception,Effective Date,Exp Date,Term,Written Premium,Prior Premium,Renewal Premium,Risk State,Claims 3Y,Last Modified";

/** One active home policy of that export, for a customer number, an insured's name and e-mail. */
export const exportRow = (client: string, name: string, email: string, policy: string) =>
  `${client},"${name}",Personal,${email},,1 Elm St,,Erie,PA,16501,Alex Rivera,Casey Nguyen,${policy},HOME,Erie,Active,01/01/2020,01/01/2026,01/01/2027,12,"$1,000.00",900,,PA,0,2025-05-01T00:00:00Z`;

/**
 * A new user, signed in, creates a CSV connection from `rows` (written to `file`) and lands on its
 * mapping step; returns the connection's id.
 */
export async function startCsvConnection(
  page: Page,
  context: BrowserContext,
  request: APIRequestContext,
  baseURL: string,
  file: string,
  rows: string[],
) {
  const user = await createUser(request);
  await signInByCookie(context, baseURL, user.sessionCookie);
  writeFileSync(file, [EXPORT_HEADER, ...rows].join("\r\n"));
  await page.goto("/create-connection/?integrationId=csv");
  await page.getByLabel("Export file (.csv or .xlsx)").setInputFiles(file);
  await saveAndContinue(page);
  await expect(page).toHaveURL(/\/configure-integration\/configuration\/[0-9a-f-]{36}$/);
  return page.url().split("/").pop()!;
}
