import type { Locator, Route } from "@playwright/test";
import { expect, test, type Page } from "./fixtures";
import { seededRandom } from "../../app/utils/seeded-random";

// Issue 20 soak: a scripted day of common flows while 30 % of the page's fetch / XHR requests
// fail (half never reach the server, half reach it and lose their answer). Seeded, so a failing
// run can be replayed (SOAK_SEED=…); bounded by SOAK_MS. Every flow must complete by retrying as a
// person would ("Try again", or clicking again where the page says nothing), and nothing may be
// applied twice. The figures are printed to the test output.

const SEED = Number(process.env.SOAK_SEED ?? 20);
const FAIL_RATE = 0.3;
const SOAK_MS = Number(process.env.SOAK_MS ?? 120_000);
const FLOW_DEADLINE_MS = 60_000;
// A person's click on something that went away (the page moved on) is over in seconds: without a
// bound, Playwright would wait for it until the whole test's time-out.
const CLICK = { timeout: 5_000 };

type Figures = { requests: number; aborted: number; lost: number };

async function failSome(page: Page, random: () => number, figures: Figures) {
  const handler = async (route: Route) => {
    const type = route.request().resourceType();
    if (type !== "fetch" && type !== "xhr") return route.fallback();
    figures.requests++;
    if (random() >= FAIL_RATE) return route.fallback();
    if (random() < 0.5) {
      figures.aborted++;
    } else {
      figures.lost++;
      await route.fetch();
    }
    await route.abort("failed");
  };
  await page.route("**/*", handler);
  return () => page.unroute("**/*", handler);
}

async function quotaUsed(page: Page) {
  return Number((await page.getByTestId("quota-used").innerText()).replace(/,/g, ""));
}

const notice = (page: Page) => page.getByTestId("connection-notice").or(page.getByTestId("upload-interrupted"));

/**
 * Do `attempt`, then act as a person would until `done`: click "Try again" when the page offers
 * it, else `again` (the same click once more) when the page has gone quiet without the result.
 * Returns the number of tries.
 */
async function persist(
  page: Page,
  attempt: () => Promise<void>,
  done: () => Promise<boolean>,
  again?: () => Promise<void>,
  answer?: () => Promise<boolean>,
) {
  let tries = 1;
  let quietSince = Date.now();
  const deadline = Date.now() + FLOW_DEADLINE_MS;
  await attempt();
  for (;;) {
    if ((await notice(page).count()) === 0 && (await done())) return tries;
    expect(Date.now(), "the flow completes").toBeLessThan(deadline);
    // A question on the way (re-market's "This uses 1 of your … re-markets"): the person says yes.
    if (answer && (await notice(page).count()) === 0 && (await answer())) {
      quietSince = Date.now();
      await page.waitForTimeout(200);
      continue;
    }
    const retry = notice(page).getByRole("button", { name: "Try again" }).first();
    if (await retry.isVisible().catch(() => false)) {
      tries++;
      await retry.click(CLICK).catch(() => {});
      quietSince = Date.now();
    } else if (again && Date.now() - quietSince > 3000 && (await page.getByRole("progressbar", { name: "Loading" }).count()) === 0) {
      tries++;
      await again().catch(() => {});
      quietSince = Date.now();
    }
    await page.waitForTimeout(200);
  }
}

async function sidebar(page: Page, label: string, path: string) {
  const link = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: label, exact: true });
  return persist(
    page,
    () => link.click(CLICK),
    async () => new URL(page.url()).pathname === path && (await page.locator("main h1").first().isVisible()),
    () => link.click(CLICK),
  );
}

const visible = (locator: Locator) => locator.isVisible().catch(() => false);

test("soak: 30 % of fetch/XHR requests fail over a day of common flows; every flow completes, nothing doubles", async ({
  page,
}, testInfo) => {
  test.setTimeout(SOAK_MS + 180_000);
  const random = seededRandom(SEED);
  const figures: Figures = { requests: 0, aborted: 0, lost: 0 };
  const tries: Record<string, number[]> = {};
  const record = (flow: string, n: number) => (tries[flow] ??= []).push(n);

  await page.goto("/auth/login");
  await page.getByRole("button", { name: "Try the demo" }).click();
  await expect(page.getByTestId("dashboard-title")).toContainText("(demo)");
  await page.goto("/remarket");
  const quotaBefore = await quotaUsed(page);

  const remarketed: string[] = [];
  const quotes: { policy: string; carrier: string }[] = [];
  const uploads: string[] = [];
  const marked: string[] = [];
  const pages: [string, string][] = [
    ["Dashboard", "/"],
    ["Customers", "/customers"],
    ["Forecast", "/forecast"],
    ["Quotes", "/quotes"],
    ["Tasks", "/tasks"],
    ["Reports", "/reports"],
    ["Files", "/files"],
  ];

  const stopFailing = await failSome(page, random, figures);
  const flows = {
    navigate: async () => {
      const [label, path] = pages[Math.floor(random() * pages.length)];
      record("navigate", await sidebar(page, label, path));
    },
    remarket: async () => {
      await sidebar(page, "Re-market", "/remarket");
      // The demo's open renewals can run out on a long soak.
      if ((await page.getByTestId("worklist-row").count()) === 0) return;
      const row = page.getByTestId("worklist-row").first();
      const policy = (await row.getAttribute("data-policy"))!;
      const button = page.getByRole("button", { name: `Re-market ${policy}`, exact: true }).first();
      const yes = page
        .getByRole("dialog", { name: `Re-market policy ${policy}?` })
        .getByRole("button", { name: `Re-market ${policy}`, exact: true });
      const n = await persist(
        page,
        () => button.click(CLICK),
        async () =>
          (await page.locator(`[data-policy="${policy}"]`).count()) === 0 &&
          (await visible(page.getByRole("heading", { name: "Re-market", exact: true }))),
        undefined,
        async () =>
          (await visible(yes)) &&
          (await yes.click(CLICK).then(
            () => true,
            () => false,
          )),
      );
      remarketed.push(policy);
      record("re-market", n);
    },
    quote: async () => {
      const policy = remarketed.find((p) => !quotes.some((q) => q.policy === p));
      if (!policy) return;
      await page.goto("/remarket?status=remarketed");
      const link = page.locator(`[data-policy="${policy}"]`).getByRole("link", { name: "Quotes" });
      const heading = page.getByRole("heading", { name: `Quotes for ${policy}` });
      await persist(
        page,
        () => link.click(CLICK),
        () => visible(heading),
        () => link.click(CLICK),
      );
      const carrier = `Soak Mutual ${quotes.length + 1}`;
      await page.getByLabel("…or another carrier's name").fill(carrier);
      await page.getByLabel("Premium ($)").fill("1000.00");
      const n = await persist(
        page,
        () => page.getByRole("button", { name: "Add quote" }).click(CLICK),
        async () => (await page.getByTestId("quote-row").filter({ hasText: carrier }).count()) === 1,
      );
      quotes.push({ policy, carrier });
      record("quote", n);
    },
    markRead: async () => {
      await sidebar(page, "Notifications", "/notifications");
      const card = page.getByTestId("notification-card").filter({ has: page.getByRole("button", { name: "Mark as read" }) });
      if ((await card.count()) === 0) return;
      const name = await card.first().getByTestId("notification-file-name").innerText();
      const id = await card.first().locator('input[name="id"]').inputValue();
      const mine = page.getByTestId("notification-card").filter({ has: page.locator(`input[name="id"][value="${id}"]`) });
      const button = mine.getByRole("button", { name: "Mark as read" });
      // A failed mark-as-read says nothing (seed §9): the person sees the card still there and clicks again.
      const n = await persist(
        page,
        () => button.click(CLICK),
        async () => (await mine.count()) === 0,
        () => button.click(CLICK),
      );
      marked.push(name);
      record("mark-as-read", n);
    },
    upload: async () => {
      await sidebar(page, "Files", "/files");
      const name = `soak-${SEED}-${uploads.length + 1}.csv`;
      await page.getByLabel("Data domain").selectOption({ label: "Policies" });
      await page.getByLabel("File", { exact: true }).setInputFiles({
        name,
        mimeType: "text/csv",
        buffer: Buffer.from(`Policy #,Customer,Written Premium,Exp Date\n${9000 + uploads.length},Soak Person,1200,01/15/2027\n`),
      });
      const n = await persist(
        page,
        () => page.getByRole("button", { name: "Upload" }).click(CLICK),
        async () => /\/files\?view=mine/.test(page.url()) && (await page.getByTestId("file-row").filter({ hasText: name }).count()) > 0,
      );
      uploads.push(name);
      record("upload", n);
    },
  };
  // A day's mix: mostly reading, some re-marketing, quotes, notifications and an upload now and then.
  const mix: (keyof typeof flows)[] = ["navigate", "navigate", "navigate", "remarket", "remarket", "quote", "quote", "markRead", "upload"];

  const started = Date.now();
  while (Date.now() - started < SOAK_MS) await flows[mix[Math.floor(random() * mix.length)]]();
  await stopFailing();

  // Nothing doubled: the quota grew by the re-markets, each quote and upload is there once, each
  // marked notification is read once.
  await page.goto("/remarket");
  await expect(page.getByTestId("quota-used")).toHaveText(String(quotaBefore + remarketed.length));
  for (const policy of remarketed) await expect(page.locator(`[data-policy="${policy}"]`)).toHaveCount(0);
  for (const { policy, carrier } of quotes) {
    await page.goto("/remarket?status=remarketed");
    await page.locator(`[data-policy="${policy}"]`).getByRole("link", { name: "Quotes" }).click();
    await expect(page.getByRole("heading", { name: `Quotes for ${policy}` })).toBeVisible();
    await expect(page.getByTestId("quote-row")).toHaveCount(1);
    await expect(page.getByTestId("quote-row")).toContainText(carrier);
  }
  await page.goto("/files?view=mine");
  for (const name of uploads) await expect(page.getByTestId("file-row").filter({ hasText: name })).toHaveCount(1);
  await page.goto("/notifications?filter=read");
  for (const name of marked) await expect(page.getByTestId("notification-card").filter({ hasText: name }).first()).toBeVisible();

  const all = Object.values(tries).flat();
  const summary = [
    `soak seed ${SEED}, ${Math.round((Date.now() - started) / 1000)} s, ${Math.round(FAIL_RATE * 100)} % of fetch/XHR failing`,
    `requests: ${figures.requests} fetch/XHR, ${figures.aborted + figures.lost} failed (${figures.aborted} aborted before the server, ${figures.lost} answers lost)`,
    `flows completed: ${all.length} (${Object.entries(tries)
      .map(([flow, list]) => `${flow} ${list.length}`)
      .join(", ")})`,
    `tries per flow: mean ${(all.reduce((a, b) => a + b, 0) / Math.max(1, all.length)).toFixed(2)}, max ${Math.max(0, ...all)}; ${Object.entries(
      tries,
    )
      .map(([flow, list]) => `${flow} [${list.join(",")}]`)
      .join("; ")}`,
    `nothing doubled: quota +${remarketed.length} for ${remarketed.length} re-markets, ${quotes.length} quotes once each, ${uploads.length} uploads once each, ${marked.length} notifications read`,
  ];
  console.log(summary.join("\n"));
  testInfo.annotations.push({ type: "soak", description: summary.join(" | ") });
  expect(all.length).toBeGreaterThan(10);
  expect(figures.aborted + figures.lost).toBeGreaterThan(0);
});
