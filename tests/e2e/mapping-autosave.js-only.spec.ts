import { expect, test } from "./fixtures";
import { exportRow as row, saveAndContinue, startCsvConnection } from "./helpers";

// The mapping step saves a draft through a fetcher on every change (JavaScript only). A draft's
// answer that arrives while "Save & continue" is under way must not cost the user the next step:
// it once did, when the draft's answer (and its revalidation) landed while the browser was still
// asking the server for the route of the Prediction step (Remix's lazy route discovery), and the
// router completed the navigation with the draft's stale matches. The test holds the draft's
// answer until the save has been answered, and slows the route discovery so the two overlap.

test("a draft autosave answered while Save & continue is under way: the Prediction step still opens, with the draft's choice saved", async ({
  page,
  context,
  request,
  baseURL,
}, testInfo) => {
  const connectionId = await startCsvConnection(page, context, request, baseURL!, testInfo.outputPath("autosave.csv"), [
    row("1001", "Smith, John", "john@example.com", "HO1"),
    row("1002", "Lee, Ann", "ann@example.com", "HO2"),
    row("1002", "Lee, Bo", "bo@example.com", "AU2"),
  ]);
  await expect(page.getByTestId("identity-rule")).toBeVisible();

  // From the save on, every route-discovery request takes a second and a half.
  let saving = false;
  await page.route(/\/__manifest\?/, async (route) => {
    if (saving) await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });
  // The draft reaches the server at once; its answer is held until the save has been answered.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let applied!: () => void;
  const draftApplied = new Promise<void>((resolve) => (applied = resolve));
  await page.route(
    (url) => url.pathname.endsWith(".data"),
    async (route) => {
      const sent = route.request();
      if (sent.method() !== "POST" || !(sent.postData() ?? "").includes("intent=draft")) return route.continue();
      const response = await route.fetch();
      applied();
      await held;
      await route.fulfill({ response });
    },
  );

  await page.getByTestId("identity-rule").getByRole("radio", { name: "One customer per customer number and insured name" }).check();
  await draftApplied;
  saving = true;
  const saveAnswered = page.waitForResponse(
    (r) => r.request().method() === "POST" && (r.request().postData() ?? "").includes("intent=save"),
  );
  await saveAndContinue(page);
  await saveAnswered;
  release();

  await expect(page.getByRole("heading", { name: "Prediction" })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/configure-integration/prediction/${connectionId}$`));
  // The choice the draft carried is the saved one.
  await page.goto(`/configure-integration/configuration/${connectionId}`);
  await expect(
    page.getByTestId("identity-rule").getByRole("radio", { name: "One customer per customer number and insured name" }),
  ).toBeChecked();
});

test("a draft autosave reloads no route's data: root, layout and mapping keep theirs", async ({
  page,
  context,
  request,
  baseURL,
}, testInfo) => {
  await startCsvConnection(page, context, request, baseURL!, testInfo.outputPath("autosave.csv"), [
    row("1001", "Smith, John", "john@example.com", "HO1"),
    row("1002", "Lee, Ann", "ann@example.com", "HO2"),
  ]);
  await expect(page.getByTestId("identity-rule")).toBeVisible();

  const loads: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "GET" && new URL(r.url()).pathname.endsWith(".data")) loads.push(r.url());
  });
  const drafted = page.waitForResponse((r) => r.request().method() === "POST" && (r.request().postData() ?? "").includes("intent=draft"));
  await page.getByTestId("identity-rule").getByRole("radio", { name: "One customer per customer number and insured name" }).check();
  expect((await drafted).status()).toBe(200);
  // A reload would be asked for right after the answer; give it time to show.
  await page.waitForTimeout(1_000);
  expect(loads).toEqual([]);
});
