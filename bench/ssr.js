// Server-side rendering benchmark (issue 2): builds the app, starts the production server on a
// fresh embedded database, and measures requests/s and latency with autocannon for
//   1. /bench/hello — a hello-world page in the same build (the baseline),
//   2. /auth/login  — a signed-out page,
//   3. /            — the dashboard, signed in.
// Usage: node bench/ssr.js [--no-build] [--build bench/out/<dir>] [--duration 10] [--connections 16] [--rounds 1] [--worker] [--profile] [--only /path]
// --build serves a build made beforehand (BUILD_DIR=bench/out/<dir> npx remix build) instead of building.
// --rounds N measures the routes in turn N times and reports each route's median round (by req/s):
// on a shared machine one 10 s window can be a third slower than the next.
// --worker also runs the job worker, as `npm start` does: it polls the jobs table every 500 ms, and
// each poll (a statement) empties the embedded database's cached reads (app/db/embedded-cache/statement-clock.server.ts).
// --profile writes the server's V8 CPU profile to bench/out/prof (read it with bench/cpu-profile-summary.js).
// BENCH_NODE_ARGS="--max-semi-space-size=32" passes flags to the server's node.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { freePort, run, serverCpuMs, sleep, waitForHealth } from "./lib/server.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT = path.join(ROOT, "bench/out");
const args = process.argv.slice(2);
const flag = (/** @type {string} */ name) => args.includes(name);
const option = (/** @type {string} */ name, /** @type {number} */ fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? Number(args[i + 1]) : fallback;
};
const DURATION = option("--duration", 10);
const CONNECTIONS = option("--connections", 16);
const ROUNDS = Math.max(1, option("--rounds", 1));
const WARMUP = 3;
// Targets from the issue.
const TARGET_RATIO = 0.6;
const TARGET_P99_MS = 50;

/** @typedef {{ name: string; path: string; cookie?: string }} Target */
/** @typedef {{ name: string; path: string; rps: number; p50: number; p90: number; p99: number; max: number; non2xx: number; errors: number; cpuMs: number | null }} Row */

async function main() {
  mkdirSync(OUT, { recursive: true });
  const given = args.includes("--build") ? args[args.indexOf("--build") + 1] : null;
  const buildDir = given ? path.resolve(ROOT, given) : path.join(OUT, "build");
  if (!flag("--no-build") && !given) {
    console.info("building (npx remix build)…");
    const built = spawnSync("npx", ["remix", "build"], {
      cwd: ROOT,
      stdio: "inherit",
      env: { ...process.env, BUILD_DIR: buildDir, BUILD_TEST_ROUTES: "true" },
    });
    if (built.status !== 0) throw new Error("remix build failed");
  }
  // Only a build made with BUILD_TEST_ROUTES has the hello-world baseline and the fixtures route.
  if (!existsSync(path.join(buildDir, "index.js"))) throw new Error("no benchmark build in bench/out/build: run without --no-build");

  const port = await freePort();
  const dataDir = path.join(OUT, `data-${port}`);
  rmSync(dataDir, { recursive: true, force: true });
  const base = `http://127.0.0.1:${port}`;
  /** @type {NodeJS.ProcessEnv} */
  const env = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: base,
    DATA_DIR: dataDir,
    ACCESS_LOG: "false",
    RUN_WORKER: flag("--worker") ? "true" : "false",
    ENABLE_TEST_FIXTURES: "true",
    BENCH_ROUTES: "true",
    BUILD_DIR: buildDir,
  };
  // The embedded database is what the issue measures.
  delete env.DATABASE_URL;
  delete env.PGLITE_DIR;

  const nodeArgs = [
    ...(process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean),
    ...(flag("--profile") ? ["--cpu-prof", `--cpu-prof-dir=${path.join(OUT, "prof")}`] : []),
  ];
  const server = spawn(process.execPath, [...nodeArgs, "server/index.js"], { cwd: ROOT, env, stdio: ["ignore", "inherit", "inherit"] });
  const exited = new Promise((resolve) => server.once("exit", resolve));
  try {
    await waitForHealth(base, exited);
    const cookie = await signedInCookie(base);

    /** @type {Target[]} */
    const targets = [
      { name: "hello world", path: "/bench/hello" },
      { name: "login", path: "/auth/login" },
      { name: "dashboard (signed in)", path: "/", cookie },
    ];
    const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : null;
    if (only) targets.splice(0, targets.length, ...targets.filter((t) => t.path === only));
    for (const t of targets) await check(base, t);

    /** @type {Row[]} */
    const rows = [];
    // Warm every route first (JIT, caches), so the first one measured is not the one that pays.
    for (const t of targets) await measure(base, t, WARMUP, server.pid);
    /** @type {Row[][]} */
    const rounds = targets.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, t] of targets.entries()) rounds[i].push(await measure(base, t, DURATION, server.pid));
    }
    for (const measured of rounds) rows.push(median(measured));
    if (ROUNDS > 1) {
      console.info(
        `\nreq/s per round: ${rounds.map((m, i) => `${targets[i].path} ${m.map((r) => r.rps.toFixed(0)).join(" / ")}`).join("; ")}`,
      );
      console.info(`dashboard p99 per round: ${rounds[targets.findIndex((t) => t.path === "/")]?.map((r) => r.p99).join(" / ") ?? "-"} ms`);
    }
    report(rows);
  } finally {
    server.kill("SIGTERM");
    await Promise.race([exited, sleep(20_000)]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * @param {string} base @param {Target} target @param {number} duration @param {number | undefined} pid
 * @returns {Promise<Row>}
 */
async function measure(base, target, duration, pid) {
  const cpuBefore = serverCpuMs(pid);
  const result = await autocannon({
    url: `${base}${target.path}`,
    connections: CONNECTIONS,
    duration,
    headers: target.cookie ? { cookie: target.cookie } : {},
  });
  return {
    name: target.name,
    path: target.path,
    rps: result.requests.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    // Server CPU time per request: unlike req/s, it hardly moves when other work shares the machine.
    cpuMs: cpuBefore === null ? null : ((serverCpuMs(pid) ?? 0) - cpuBefore) / Math.max(1, result.requests.total),
  };
}

/** The round with the median requests/s (its own latency and CPU figures, not a mix of rounds). */
function median(/** @type {Row[]} */ measured) {
  const sorted = [...measured].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** CPU time (user + system) the server process has used so far, from /proc (Linux), or null. */
/** A page must answer 200 with HTML before it is measured (a redirect would be cheaper and lie). */
async function check(/** @type {string} */ base, /** @type {Target} */ target) {
  const response = await fetch(`${base}${target.path}`, { headers: target.cookie ? { cookie: target.cookie } : {}, redirect: "manual" });
  const body = await response.text();
  if (response.status !== 200 || !body.includes("</html>")) {
    throw new Error(`${target.path} answered ${response.status}; expected a 200 page`);
  }
  if (target.path === "/" && !body.includes('data-testid="dashboard-title"')) throw new Error("/ did not render the dashboard");
}

/** @param {Row[]} rows */
function report(rows) {
  const header = ["route", "path", "req/s", "p50 ms", "p90 ms", "p99 ms", "max ms", "CPU ms/req", "non-2xx", "errors"];
  const lines = rows.map((r) =>
    [r.name, r.path, r.rps.toFixed(0), r.p50, r.p90, r.p99, r.max, r.cpuMs === null ? "-" : r.cpuMs.toFixed(2), r.non2xx, r.errors].map(
      String,
    ),
  );
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (/** @type {string[]} */ cells) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  const rounds = ROUNDS > 1 ? `, median of ${ROUNDS} rounds` : "";
  console.info(`\nSSR benchmark: ${CONNECTIONS} connections, ${DURATION} s per route${rounds}, embedded PGlite, Node ${process.version}\n`);
  console.info(fmt(header));
  console.info(widths.map((w) => "-".repeat(w)).join("  "));
  for (const l of lines) console.info(fmt(l));
  const hello = rows.find((r) => r.path === "/bench/hello");
  const dashboard = rows.find((r) => r.path === "/");
  if (!hello || !dashboard) return;
  const ratio = dashboard.rps / hello.rps;
  console.info(`\nratio dashboard / hello world (req/s): ${ratio.toFixed(2)}  (target ≥ ${TARGET_RATIO})`);
  console.info(`dashboard p99: ${dashboard.p99} ms  (target ≤ ${TARGET_P99_MS} ms)`);
  if (hello.cpuMs && dashboard.cpuMs) {
    console.info(`ratio by server CPU per request (hello / dashboard): ${(hello.cpuMs / dashboard.cpuMs).toFixed(2)}`);
  }
  console.info(
    `load average while measuring: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} on ${cpus().length} CPUs`,
  );
  const failures = rows.filter((r) => r.non2xx > 0 || r.errors > 0);
  if (failures.length > 0) console.warn(`warning: non-2xx answers or errors on ${failures.map((f) => f.path).join(", ")}`);
}

async function signedInCookie(/** @type {string} */ base) {
  const response = await fetch(`${base}/api/test-fixtures`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: `bench-${Date.now()}@example.test`, password: "bench-password-1", agencyName: "Bench Agency" }),
  });
  if (!response.ok) throw new Error(`test fixture failed: ${response.status}`);
  const user = /** @type {{ sessionCookie: string }} */ (await response.json());
  return `__session=${user.sessionCookie}`;
}

run(main);
