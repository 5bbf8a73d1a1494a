import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { createUser, readLinkFromOutbox, signInByCookie, uniqueEmail } from "./helpers";

test("an admin invites a teammate, who joins the same agency", async ({ page, context, baseURL, browser, javaScriptEnabled, request }) => {
  const agency = `Invite Agency ${randomUUID().slice(0, 6)}`;
  const admin = await createUser(request, { agencyName: agency });
  await signInByCookie(context, baseURL!, admin.sessionCookie);

  const invitee = uniqueEmail("invitee");
  await page.goto("/settings/team");
  await page.getByLabel("E-mail").fill(invitee);
  await page.getByLabel("Role").selectOption("staff");
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(`We e-mailed ${invitee} a link to join.`)).toBeVisible();
  await expect(page.getByText(`${invitee} (staff)`)).toBeVisible();

  const link = await readLinkFromOutbox(page, invitee, "/auth/accept-invite");
  const other = await browser.newContext({ baseURL, javaScriptEnabled });
  try {
    const second = await other.newPage();
    await second.goto(link);
    await expect(second.getByRole("heading", { name: `Join ${agency}` })).toBeVisible();
    await expect(second.getByText(`You are joining as ${invitee}.`)).toBeVisible();
    await second.getByLabel("Your name").fill("Ina Vitee");
    await second.getByLabel("Choose a password").fill("joining-pass-1");
    await second.getByRole("button", { name: "Join agency" }).click();

    await expect(second.getByTestId("dashboard-title")).toHaveText(agency);
    await expect(second.getByTestId("tenant-name")).toHaveText(agency);
    // The agency has no book yet: the newcomer is welcomed, not welcomed back.
    await expect(second.getByText("Welcome, Ina Vitee.")).toBeVisible();

    // The link works once.
    await second.context().clearCookies();
    await second.goto(link);
    await expect(second.getByText("This invitation is no longer valid.")).toBeVisible();
  } finally {
    await other.close();
  }

  await page.goto("/settings/team");
  await expect(page.getByRole("cell", { name: invitee })).toBeVisible();
  await expect(page.getByText(`${invitee} (staff)`)).toHaveCount(0);
});
