// Full-page screenshots of every page (tests/support/page-list.js) at 1280×800 and 390×844, with
// JavaScript on and off, signed in as a fresh demo agency (and signed out for the sign-in pages),
// so a person can look at every page as a designer would before calling a change done.
//
// Usage: node scripts/screenshots.js [--base http://localhost:3000] [--no-build] [--only /path,/other] [--out screenshots]
// Without --base it builds the app (into data/screenshots-build) and starts the production server
// on a free port with a fresh data directory. PNGs go to screenshots/ (git-ignored), named
// <viewport>-<js|nojs>-<page>.png; it also prints each page whose document is wider than the screen.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";
import { freePort, run, sleep, waitForHealth } from "../bench/lib/server.js";
import { APP_PAGES, SIGNED_OUT_PAGES, VIEWPORTS, detailPaths } from "../tests/support/page-list.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const option = (/** @type {string} */ name) => {
  const i = args.indexOf(name);
  return i >= 0 ? (args[i + 1] ?? "") : null;
};
const OUT = path.resolve(ROOT, option("--out") ?? "screenshots");
const ONLY = option("--only")?.split(",") ?? null;

async function main() {
  mkdirSync(OUT, { recursive: true });
  const given = option("--base");
  if (given) return shootAll(given);

  const buildDir = path.join(ROOT, "data/screenshots-build");
  if (!args.includes("--no-build")) {
    const built = spawnSync("npx", ["remix", "build"], { cwd: ROOT, stdio: "inherit", env: { ...process.env, BUILD_DIR: buildDir } });
    if (built.status !== 0) throw new Error("remix build failed");
  }
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const dataDir = path.join(ROOT, `data/screenshots-${port}`);
  const server = spawn(process.execPath, ["server/index.js"], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      APP_URL: base,
      DATA_DIR: dataDir,
      BUILD_DIR: buildDir,
      ACCESS_LOG: "false",
    },
  });
  const exited = new Promise((resolve) => server.once("exit", resolve));
  try {
    await waitForHealth(base, exited);
    await shootAll(base);
  } finally {
    server.kill("SIGTERM");
    await Promise.race([exited, sleep(20_000)]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function shootAll(/** @type {string} */ base) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
  /** @type {string[]} */
  const wide = [];
  try {
    // One demo agency for every shot: the detail pages' ids are read once, with JavaScript on.
    const signedIn = await browser.newContext({ baseURL: base });
    const setup = await signedIn.newPage();
    await setup.goto("/auth/login");
    await setup.getByRole("button", { name: "Try the demo" }).click();
    await setup.waitForURL(`${base}/`);
    const pages = [...APP_PAGES, ...(await detailPaths(setup))].filter((p) => !ONLY || ONLY.includes(p));
    const storageState = await signedIn.storageState();
    await signedIn.close();

    for (const viewport of VIEWPORTS) {
      for (const javaScriptEnabled of [true, false]) {
        const mode = javaScriptEnabled ? "js" : "nojs";
        const contextOptions = { baseURL: base, viewport, javaScriptEnabled };
        const sets = /** @type {const} */ ([
          [await browser.newContext({ ...contextOptions, storageState }), pages],
          [await browser.newContext(contextOptions), SIGNED_OUT_PAGES.filter((p) => !ONLY || ONLY.includes(p))],
        ]);
        for (const [context, paths] of sets) {
          const page = await context.newPage();
          for (const p of paths) {
            await page.goto(p, { waitUntil: "networkidle" });
            const file = `${viewport.name}-${mode}-${slug(p)}.png`;
            await page.screenshot({ path: path.join(OUT, file), fullPage: true });
            const width = await page.evaluate(() => document.documentElement.scrollWidth);
            if (width > viewport.width) wide.push(`${file}: ${width} px wide`);
          }
          await context.close();
        }
      }
    }
  } finally {
    await browser.close();
  }
  console.info(`screenshots in ${path.relative(ROOT, OUT)}/`);
  console.info(wide.length ? `wider than the screen:\n  ${wide.join("\n  ")}` : "no page is wider than the screen");
}

function slug(/** @type {string} */ p) {
  const s = p
    .replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, "id")
    .replace(/[^a-z0-9]+/gi, "-")
    .replace(/^-|-$/g, "");
  return s || "dashboard";
}

run(main);
