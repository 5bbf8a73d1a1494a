// What a first visit to each page costs on the wire (issue 14): the document's HTML, the JavaScript
// and CSS the browser fetches for it, and the number of script requests, as a cold Chromium loads the
// page with an empty cache. Sizes are the bytes as sent (compressed where the server compresses).
// With --baseline <git-ref> the same pages of that commit are measured in the same run, built in a
// temporary worktree, and each figure is printed beside the baseline's.
//
// Usage: node bench/page-weight.js [--baseline <git-ref>] [--no-build] [--only /path,/other] [--json out.json]
// Targets from the issue: first-load JS on / and /remarket ≤ 120 KB compressed in ≤ 12 script requests.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";
import { freePort, run, sleep, waitForHealth } from "./lib/server.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const text = (/** @type {string} */ name, /** @type {string} */ fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const BASELINE = text("--baseline", "");
const TARGET_JS_KB = 120;
const TARGET_SCRIPTS = 12;

// Signed-out pages first, then the demo agency's pages (the smoke spec's list).
const SIGNED_OUT = ["/auth/login", "/auth/signup"];
const SIGNED_IN = [
  "/",
  "/remarket",
  "/customers",
  "/forecast",
  "/quotes",
  "/tasks",
  "/carriers",
  "/reports",
  "/files",
  "/notifications",
  "/billing",
  "/connect-database",
  "/integration-setup",
  "/settings/team",
];

/** @typedef {{ path: string; status: number; htmlBytes: number; jsBytes: number; scripts: number; cssBytes: number; requests: number }} Weight */

async function main() {
  const only = text("--only", "");
  const wanted = only ? only.split(",") : null;
  const current = await measureCheckout(ROOT, "this checkout", wanted);
  /** @type {Map<string, Weight> | null} */
  let baseline = null;
  if (BASELINE) {
    const dir = mkdtempSync(path.join(tmpdir(), "page-weight-"));
    try {
      git(["worktree", "add", "--detach", dir, BASELINE]);
      // The baseline shares this checkout's installed packages; a baseline with other dependencies needs its own npm ci.
      symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
      const rows = await measureCheckout(dir, `baseline ${BASELINE}`, wanted, true);
      baseline = new Map(rows.map((r) => [r.path, r]));
    } finally {
      git(["worktree", "remove", "--force", dir]);
      rmSync(dir, { recursive: true, force: true });
    }
  }
  report(current, baseline);
  const out = text("--json", "");
  if (out) writeFileSync(out, JSON.stringify({ current, baseline: baseline ? [...baseline.values()] : null }, null, 2));
}

function git(/** @type {string[]} */ gitArgs) {
  const done = spawnSync("git", gitArgs, { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
  if (done.status !== 0) throw new Error(`git ${gitArgs.join(" ")} failed`);
}

/** Builds a checkout, serves it on a fresh embedded database and weighs every page in Chromium. */
async function measureCheckout(
  /** @type {string} */ dir,
  /** @type {string} */ label,
  /** @type {string[] | null} */ wanted,
  forceBuild = false,
) {
  const buildDir = path.join(dir, "bench/out/weight-build");
  if (forceBuild || !args.includes("--no-build") || !existsSync(path.join(buildDir, "index.js"))) {
    console.info(`building ${label}…`);
    const built = spawnSync(path.join(ROOT, "node_modules/.bin/remix"), ["build"], {
      cwd: dir,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, NODE_ENV: "production", BUILD_DIR: buildDir },
    });
    if (built.status !== 0) throw new Error(`remix build failed in ${dir}`);
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = path.join(dir, `bench/out/weight-data-${port}`);
  rmSync(dataDir, { recursive: true, force: true });
  /** @type {NodeJS.ProcessEnv} */
  const env = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: base,
    DATA_DIR: dataDir,
    BUILD_DIR: buildDir,
    ACCESS_LOG: "false",
    RUN_WORKER: "false",
  };
  delete env.DATABASE_URL;
  const server = spawn(process.execPath, ["server/index.js"], { cwd: dir, env, stdio: ["ignore", "ignore", "inherit"] });
  const exited = new Promise((resolve) => server.once("exit", resolve));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    await waitForHealth(base, exited);
    /** @type {Weight[]} */
    const rows = [];
    const keep = (/** @type {string} */ p) => !wanted || wanted.includes(p);
    for (const p of SIGNED_OUT.filter(keep)) rows.push(await weigh(browser, base, undefined, p));
    const signIn = await browser.newContext({ baseURL: base });
    const page = await signIn.newPage();
    await page.goto("/auth/login");
    await page.getByRole("button", { name: "Try the demo" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    const signedIn = await signIn.storageState();
    await signIn.close();
    for (const p of SIGNED_IN.filter(keep)) rows.push(await weigh(browser, base, signedIn, p));
    return rows;
  } finally {
    await browser.close();
    server.kill("SIGTERM");
    await Promise.race([exited, sleep(20_000)]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * One cold load of a page: a new browser context (an empty cache) holding only the session cookie.
 * @param {import("@playwright/test").Browser} browser @param {string} base
 * @param {Awaited<ReturnType<import("@playwright/test").BrowserContext["storageState"]>> | undefined} storageState
 * @param {string} pagePath
 */
async function weigh(browser, base, storageState, pagePath) {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 800 }, storageState });
  const page = await context.newPage();
  /** @type {import("@playwright/test").Request[]} */
  const requests = [];
  page.on("requestfinished", (request) => {
    if (request.url().startsWith(base)) requests.push(request);
  });
  const response = await page.goto(pagePath, { waitUntil: "networkidle" });
  const weight = {
    path: pagePath,
    status: response?.status() ?? 0,
    htmlBytes: 0,
    jsBytes: 0,
    scripts: 0,
    cssBytes: 0,
    requests: requests.length,
  };
  for (const request of requests) {
    const bytes = (await request.sizes()).responseBodySize;
    const type = request.resourceType();
    if (type === "document") weight.htmlBytes += bytes;
    else if (type === "script") {
      weight.jsBytes += bytes;
      weight.scripts += 1;
    } else if (type === "stylesheet") weight.cssBytes += bytes;
  }
  await context.close();
  return weight;
}

/** @param {Weight[]} rows @param {Map<string, Weight> | null} baseline */
function report(rows, baseline) {
  const kb = (/** @type {number} */ n) => (n / 1024).toFixed(1);
  const was = (/** @type {string} */ p, /** @type {(w: Weight) => string} */ pick) => {
    const b = baseline?.get(p);
    return b ? ` (${pick(b)})` : "";
  };
  console.info(`\nFirst load per page, cold cache, Chromium 1280×800${baseline ? `; in brackets: baseline ${BASELINE}` : ""}\n`);
  const header = ["page", "status", "HTML KB", "JS KB", "scripts", "CSS KB", "requests"];
  const lines = rows.map((r) => [
    r.path,
    String(r.status),
    kb(r.htmlBytes) + was(r.path, (b) => kb(b.htmlBytes)),
    kb(r.jsBytes) + was(r.path, (b) => kb(b.jsBytes)),
    String(r.scripts) + was(r.path, (b) => String(b.scripts)),
    kb(r.cssBytes) + was(r.path, (b) => kb(b.cssBytes)),
    String(r.requests) + was(r.path, (b) => String(b.requests)),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const row = (/** @type {string[]} */ cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.info(row(header));
  console.info(widths.map((w) => "-".repeat(w)).join("  "));
  for (const l of lines) console.info(row(l));
  for (const p of ["/", "/remarket"]) {
    const r = rows.find((x) => x.path === p);
    if (!r) continue;
    const ok = r.jsBytes / 1024 <= TARGET_JS_KB && r.scripts <= TARGET_SCRIPTS;
    console.info(
      `${p}: ${kb(r.jsBytes)} KB of JS in ${r.scripts} scripts (target ≤ ${TARGET_JS_KB} KB in ≤ ${TARGET_SCRIPTS}): ${ok ? "met" : "not met"}`,
    );
  }
}

run(main);
