// Every page a signed-in user reaches from the sidebar, and the sign-in page, against hello world
// in the same run (issue 16). Builds the app (or serves a given build), starts the production
// server on a fresh database, presses "Try the demo" (the demo agency: the pages have data, and
// every detail page has something to show), optionally adds the large generated agency to it,
// then measures each page in turn with autocannon: req/s, p50, p99, server CPU per request, and
// the ratio to hello world's req/s measured in the same run.
//
// Usage: node bench/pages.js [--db pglite|postgres] [--size demo|large] [--duration 5 | --amount 300] [--connections 16]
//          [--no-build | --build bench/out/<dir>] [--only /path,/other] [--explain] [--profile] [--policies 50000]
// --db postgres uses DATABASE_URL (run it under scripts/with-postgres.sh speed_<name> …).
// --size large adds 50,000 policies (≈ 20,000 customers), 200 files and 2,000 notifications to the
//   demo agency with set-based SQL (app/test-routes/large-book.server.ts) and runs the forecast.
// --explain fetches each page once with SQL_LOG_FILE on, prints the plan of each statement it ran (EXPLAIN
//   ANALYZE, rolled back: what each took) and
//   flags sequential scans of tenant tables (no load test).
// --profile writes the server's V8 CPU profile to bench/out/prof (bench/cpu-profile-summary.js reads it)
//   and prints, for each page, where its CPU per request went: React render, loader data, forms,
//   database, framework, our code, Node, garbage collector.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { AREA_LABELS, AREAS, cpuByArea, monotonicMicros } from "./lib/cpu-areas.js";
import { freePort, run, serverCpuMs, sleep, waitForHealth } from "./lib/server.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT = path.join(ROOT, "bench/out");
const args = process.argv.slice(2);
const flag = (/** @type {string} */ name) => args.includes(name);
const text = (/** @type {string} */ name, /** @type {string} */ fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const DURATION = Number(text("--duration", "5"));
// --amount N: each measurement stops after N requests instead of after --duration seconds, so a
// starved server on a crowded machine still yields enough samples (req/s is then N over the time taken).
const AMOUNT = Number(text("--amount", "0"));
const CONNECTIONS = Number(text("--connections", "16"));
const DB = text("--db", "pglite");
const SIZE = text("--size", "demo");
const POLICIES = Number(text("--policies", "50000"));
const EXPLAIN = flag("--explain");
const WARMUP_S = 1;
// Targets from issue 16.
const TARGET_RATIO = 0.5;
const TARGET_P99_MS = 50;
// Tables whose rows belong to a tenant and grow with its book: a sequential scan of one on a page load is a finding.
const TENANT_TABLES = [
  "customers",
  "policies",
  "renewal_forecasts",
  "renewal_flags",
  "remarkets",
  "quotes",
  "tasks",
  "files",
  "file_events",
  "notifications",
  "connections",
  "jobs",
];

/** @typedef {{ name: string; path: string; cookie?: string }} Target */
/** @typedef {{ name: string; path: string; rps: number; p50: number; p99: number; non2xx: number; errors: number; cpuMs: number | null; requests: number }} Row */

async function main() {
  if (DB !== "pglite" && DB !== "postgres") throw new Error("--db pglite|postgres");
  if (SIZE !== "demo" && SIZE !== "large") throw new Error("--size demo|large");
  if (DB === "postgres" && !process.env.DATABASE_URL) throw new Error("--db postgres needs DATABASE_URL (scripts/with-postgres.sh)");
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
  if (!existsSync(path.join(buildDir, "index.js"))) throw new Error(`no benchmark build in ${buildDir}: run without --no-build`);

  const port = Number(text("--port", "0")) || (await freePort());
  const dataDir = path.join(OUT, `pages-data-${port}`);
  const sqlLog = path.join(OUT, `pages-sql-${port}.jsonl`);
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
    RUN_WORKER: "false",
    ENABLE_TEST_FIXTURES: "true",
    BENCH_ROUTES: "true",
    BUILD_DIR: buildDir,
  };
  delete env.PGLITE_DIR;
  if (DB === "pglite") delete env.DATABASE_URL;
  if (EXPLAIN) {
    env.SQL_LOG_FILE = sqlLog;
    // Statements the embedded read cache answers never reach Drizzle's logger.
    env.EMBEDDED_READ_CACHE = "false";
  }

  const profiling = flag("--profile");
  if (profiling) rmSync(path.join(OUT, "prof"), { recursive: true, force: true });
  /** @type {{ name: string; path: string; from: number; to: number; requests: number }[]} */
  const windows = [];
  const nodeArgs = [
    ...(process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean),
    ...(profiling ? ["--cpu-prof", `--cpu-prof-dir=${path.join(OUT, "prof")}`] : []),
  ];
  const server = spawn(process.execPath, [...nodeArgs, "server/index.js"], { cwd: ROOT, env, stdio: ["ignore", "inherit", "inherit"] });
  const exited = new Promise((resolve) => server.once("exit", resolve));
  try {
    await waitForHealth(base, exited);
    const cookie = await demoCookie(base);
    if (SIZE === "large") await largeBook(base, cookie);
    const targets = await discoverTargets(base, cookie);
    const only = text("--only", "");
    const wanted = only ? only.split(",") : null;
    const measured = wanted
      ? targets.filter((t) => t.path === "/bench/hello" || wanted.includes(t.path) || wanted.includes(t.name))
      : targets;
    for (const t of measured) await check(base, t);

    if (EXPLAIN) {
      await explainPages(base, measured, sqlLog);
      return;
    }
    /** @type {(Row & { helloRps: number; helloP99: number })[]} */
    const rows = [];
    const hello = measured[0];
    for (const t of measured) await measure(base, t, WARMUP_S, server.pid);
    for (const t of measured.slice(1)) {
      // Hello world right before each page: the ratio compares two windows a few seconds apart,
      // so a neighbour's burst on the shared machine moves both.
      const helloFrom = monotonicMicros();
      const h = await measure(base, hello, DURATION, server.pid);
      if (t === measured[1])
        windows.push({ name: hello.name, path: hello.path, from: helloFrom, to: monotonicMicros(), requests: h.requests });
      const from = monotonicMicros();
      const p = await measure(base, t, DURATION, server.pid);
      windows.push({ name: t.name, path: t.path, from, to: monotonicMicros(), requests: p.requests });
      rows.push({ ...p, helloRps: h.rps, helloP99: h.p99 });
    }
    report(rows);
  } finally {
    server.kill("SIGTERM");
    await Promise.race([exited, sleep(20_000)]);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(sqlLog, { force: true });
  }
  if (profiling && windows.length > 0) reportAreas(windows);
}

/** Each page's CPU per request by area, from the profile the server wrote on exit. */
function reportAreas(/** @type {{ name: string; path: string; from: number; to: number; requests: number }[]} */ windows) {
  const dir = path.join(OUT, "prof");
  const file = existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith(".cpuprofile")) : undefined;
  if (!file) return console.warn("no CPU profile written");
  const profile = JSON.parse(readFileSync(path.join(dir, file), "utf8"));
  const header = ["page", "sampled ms/req", ...AREAS];
  const lines = windows.map((w) => {
    const { ms, total } = cpuByArea(profile, w.from, w.to);
    const per = (/** @type {number} */ v) => (v / Math.max(1, w.requests)).toFixed(2);
    return [w.name, per(total), ...AREAS.map((a) => per(ms[a]))];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (/** @type {string[]} */ cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.info(`\nwhere each page's CPU goes, ms per request (sampled from bench/out/prof/${file}):`);
  for (const a of AREAS) console.info(`  ${a}: ${AREA_LABELS[/** @type {keyof typeof AREA_LABELS} */ (a)]}`);
  console.info(`\n${fmt(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const l of lines) console.info(fmt(l));
}

/** "Try the demo" as a browser presses it: the one-time form token from the sign-in page, then the POST. */
async function demoCookie(/** @type {string} */ base) {
  const login = await (await fetch(`${base}/auth/login`)).text();
  const token = /name="_formToken" value="([^"]+)"/.exec(login)?.[1];
  if (!token) throw new Error("no form token on /auth/login");
  const response = await fetch(`${base}/auth/demo`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
    body: new URLSearchParams({ _formToken: token }),
  });
  const session = response.headers.getSetCookie().find((c) => c.startsWith("__session="));
  if (!session) throw new Error(`the demo did not sign in (${response.status})`);
  return session.split(";")[0];
}

async function largeBook(/** @type {string} */ base, /** @type {string} */ cookie) {
  const started = Date.now();
  const response = await fetch(`${base}/api/test-fixtures`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ action: "large-book", cookie, policies: POLICIES }),
  });
  if (!response.ok) throw new Error(`large book failed: ${response.status} ${await response.text()}`);
  const made = /** @type {{ customers: number; policies: number; flagged: number; evaluated: number }} */ (await response.json());
  console.info(
    `large agency: +${made.customers} customers, +${made.policies} policies, 200 files, 2,000 notifications; forecast evaluated ${made.evaluated}, flagged ${made.flagged} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
}

/** The pages, with the ids of detail pages read from the list pages' links (as a user clicks them). */
async function discoverTargets(/** @type {string} */ base, /** @type {string} */ cookie) {
  const html = async (/** @type {string} */ p) => (await fetch(`${base}${p}`, { headers: { cookie } })).text();
  const first = (/** @type {string} */ body, /** @type {RegExp} */ pattern, /** @type {string} */ what) => {
    const found = pattern.exec(body)?.[0];
    if (!found) throw new Error(`no link to ${what} found`);
    return found;
  };
  const uuid = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
  const customer = first(await html("/customers"), new RegExp(`/customers/${uuid}`), "a customer");
  const quote = first(await html("/quotes"), new RegExp(`/quotes/${uuid}`), "a quote");
  const filesPage = await html("/files");
  const file = first(filesPage, new RegExp(`/files/${uuid}(?!/)`), "a file");
  const report = await findReport(filesPage, html, uuid);
  const connection = first(await html("/connect-database"), new RegExp(`/connect-database/${uuid}(?!/)`), "a connection");
  // A connection the demo set up in full, so no step of the wizard is ahead of it (its last step answers 200).
  const connectionIds = [
    ...new Set([...(await html("/connect-database")).matchAll(new RegExp(`/connect-database/(${uuid})`, "g"))].map((m) => m[1])),
  ];
  let setUp = "";
  for (const id of connectionIds) {
    const last = await fetch(`${base}/configure-integration/filter-options/${id}`, { headers: { cookie }, redirect: "manual" });
    await last.arrayBuffer();
    if (last.status === 200) {
      setUp = id;
      break;
    }
  }
  if (!setUp) throw new Error("no connection set up in full found");

  /** @type {[string, string][]} */
  const pages = [
    ["hello world", "/bench/hello"],
    ["sign in", "/auth/login"],
    ["dashboard", "/"],
    ["re-market", "/remarket"],
    ["customers", "/customers"],
    ["a customer", customer],
    ["forecast", "/forecast"],
    ["quotes", "/quotes"],
    ["a quote", quote],
    ["tasks", "/tasks"],
    ["reports", "/reports"],
    ["carriers", "/carriers"],
    ["files", "/files"],
    ["a file", file],
    ["a report", report],
    ["notifications", "/notifications"],
    ["billing", "/billing"],
    ["connections", "/connect-database"],
    ["a connection", connection],
    ["integration setup", "/integration-setup"],
    // Each step of the wizard.
    ["wizard: mapping", `/configure-integration/configuration/${setUp}`],
    ["wizard: prediction", `/configure-integration/prediction/${setUp}`],
    ["wizard: tasks", `/configure-integration/task-creation/${setUp}`],
    ["wizard: filters", `/configure-integration/filter-options/${setUp}`],
  ];
  return pages.map(
    ([name, p]) => /** @type {Target} */ ({ name, path: p, cookie: p.startsWith("/auth/") || p === "/bench/hello" ? undefined : cookie }),
  );
}

/** A file with a profile report: the list's files in turn until one's page links to its report. */
async function findReport(/** @type {string} */ filesPage, /** @type {(p: string) => Promise<string>} */ html, /** @type {string} */ uuid) {
  const direct = new RegExp(`/files/${uuid}/report(?!/|\\.)`).exec(filesPage)?.[0];
  if (direct) return direct;
  const ids = [...new Set([...filesPage.matchAll(new RegExp(`/files/(${uuid})`, "g"))].map((m) => m[1]))];
  for (const id of ids) {
    if (new RegExp(`/files/${id}/report(?!/|\\.)`).test(await html(`/files/${id}`))) return `/files/${id}/report`;
  }
  throw new Error("no file with a report found");
}

/** @param {string} base @param {Target} target @param {number} duration @param {number | undefined} pid @returns {Promise<Row>} */
async function measure(base, target, duration, pid) {
  const cpuBefore = serverCpuMs(pid);
  const result = await autocannon({
    url: `${base}${target.path}`,
    connections: CONNECTIONS,
    ...(AMOUNT > 0 && duration === DURATION ? { amount: AMOUNT } : { duration }),
    headers: target.cookie ? { cookie: target.cookie } : {},
  });
  return {
    name: target.name,
    path: target.path,
    // Completed requests over the measured time (autocannon's per-second average drops the last partial second).
    rps: result.requests.total / Math.max(0.001, result.duration),
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpuMs: cpuBefore === null || result.requests.total === 0 ? null : ((serverCpuMs(pid) ?? 0) - cpuBefore) / result.requests.total,
  };
}

/** CPU time (user + system) the server process has used so far, from /proc (Linux), or null. */
/** A page must answer 200 with HTML before it is measured (a redirect would be cheaper and lie). */
async function check(/** @type {string} */ base, /** @type {Target} */ target) {
  const response = await fetch(`${base}${target.path}`, { headers: target.cookie ? { cookie: target.cookie } : {}, redirect: "manual" });
  const body = await response.text();
  if (response.status !== 200 || !body.includes("</html>"))
    throw new Error(`${target.path} answered ${response.status}; expected a 200 page`);
}

/** @param {(Row & { helloRps: number; helloP99: number })[]} rows */
function report(rows) {
  const header = ["page", "path", "req/s", "hello req/s", "ratio", "p50 ms", "p99 ms", "CPU ms/req", "target", "non-2xx"];
  const lines = rows.map((r) => {
    const ratio = r.rps / r.helloRps;
    const ok = ratio >= TARGET_RATIO && r.p99 <= TARGET_P99_MS && r.non2xx === 0 && r.errors === 0;
    return [
      r.name,
      r.path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, ":id"),
      r.rps.toFixed(0),
      r.helloRps.toFixed(0),
      ratio.toFixed(2),
      String(r.p50),
      String(r.p99),
      r.cpuMs === null ? "-" : r.cpuMs.toFixed(2),
      ok ? "met" : "MISSED",
      String(r.non2xx + r.errors),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (/** @type {string[]} */ cells) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  const per = AMOUNT > 0 ? `${AMOUNT} requests` : `${DURATION} s`;
  console.info(
    `\npages benchmark: ${DB}, ${SIZE} agency, ${CONNECTIONS} connections, ${per} per page (hello world measured right before each), Node ${process.version}`,
  );
  console.info(`target: ≥ ${TARGET_RATIO} of hello world's req/s and p99 ≤ ${TARGET_P99_MS} ms\n`);
  console.info(fmt(header));
  console.info(widths.map((w) => "-".repeat(w)).join("  "));
  for (const l of lines) console.info(fmt(l));
  console.info(
    `\nload average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} on ${cpus().length} CPUs`,
  );
}

/** Each page once with the statement log on; the plan of every statement it ran; sequential scans of tenant tables flagged. */
async function explainPages(/** @type {string} */ base, /** @type {Target[]} */ targets, /** @type {string} */ sqlLog) {
  let findings = 0;
  for (const t of targets) {
    writeFileSync(sqlLog, "");
    await fetch(`${base}${t.path}`, { headers: t.cookie ? { cookie: t.cookie } : {} }).then((r) => r.text());
    const statements = readFileSync(sqlLog, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => /** @type {{ sql: string; params: unknown[] }} */ (JSON.parse(line)))
      .filter((s) => /^\s*(select|with)\b/i.test(s.sql));
    writeFileSync(sqlLog, "");
    const response = await fetch(`${base}/api/test-fixtures`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ action: "explain", statements }),
    });
    if (!response.ok) throw new Error(`explain of ${t.path} failed: ${response.status} ${await response.text()}`);
    const { plans } = /** @type {{ plans: string[][] }} */ (await response.json());
    const ms = plans.map((plan) => plan.reduce((n, l) => n + Number(/Execution Time: ([\d.]+) ms/.exec(l)?.[1] ?? 0), 0));
    console.info(
      `\n=== ${t.name} ${t.path}: ${statements.length} reading statements, ${ms.reduce((a, b) => a + b, 0).toFixed(2)} ms executing (EXPLAIN ANALYZE)`,
    );
    for (const [i, s] of statements.entries()) {
      const seq = plans[i].filter((l) => TENANT_TABLES.some((table) => new RegExp(`Seq Scan on ${table}\\b`).test(l)));
      findings += seq.length;
      console.info(`-- [${i + 1}] ${s.sql.replace(/\s+/g, " ").slice(0, 300)}`);
      for (const line of plans[i]) console.info(`   ${line}`);
      for (const line of seq) console.info(`   ^^^ SEQUENTIAL SCAN OF A TENANT TABLE: ${line.trim()}`);
    }
  }
  console.info(`\n${findings} sequential scan(s) of tenant tables on page loads (${DB}, ${SIZE} agency)`);
}

run(main);
