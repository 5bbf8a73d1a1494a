// Server CPU per request without HTTP or a load generator: the Remix request handler of the
// benchmark build called in a loop, the routes interleaved round by round, CPU time (not wall time)
// per request. On a shared 2-core machine this moves far less between runs than bench/ssr.js, so
// it is the one to compare two builds with (an A/B of one change).
// Usage: node bench/ssr-inproc.js [--rounds 20] [--per-round 200] [--build bench/out/build]...
// Build first (node bench/ssr.js builds into bench/out/build, or BUILD_TEST_ROUTES=true BUILD_DIR=… npx remix build).
// Several --build options load every build into this one process, each on its own embedded
// database, and interleave them round by round: what else runs on the machine then weighs on
// each build alike. The same build twice is an A/A run (the spread to expect between two builds).
// Changes under node_modules (patches/) cannot be compared this way: one process loads one copy.
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/node";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const option = (/** @type {string} */ name, /** @type {string} */ fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const ROUNDS = Number(option("--rounds", "20"));
const PER_ROUND = Number(option("--per-round", "200"));
const BUILDS = args.flatMap((arg, i) => (arg === "--build" && args[i + 1] ? [path.resolve(ROOT, args[i + 1])] : []));
if (BUILDS.length === 0) BUILDS.push(path.resolve(ROOT, "bench/out/build"));
const ORIGIN = "http://127.0.0.1:3000";

/** @typedef {{ name: string; path: string; headers: Record<string, string> }} Target */

/**
 * The build's request handler, on an embedded database of its own, and the bench's targets in it.
 * `index` tells apart the data directories and, for the same build loaded twice, the module URLs.
 */
async function loadBuild(/** @type {string} */ buildDir, /** @type {number} */ index) {
  const dataDir = path.join(ROOT, `bench/out/data-inproc${index === 0 ? "" : `-${index}`}`);
  rmSync(dataDir, { recursive: true, force: true });
  // Each build bundles its own copy of the app, which reads the environment on its first request.
  Object.assign(process.env, { DATA_DIR: dataDir });
  const build = await import(`${pathToFileURL(path.join(buildDir, "index.js")).href}?build=${index}`);
  const handle = createRequestHandler(build, "production");
  const call = (/** @type {string} */ pathname, /** @type {RequestInit} */ init = {}) =>
    handle(new Request(`${ORIGIN}${pathname}`, init), { requestId: "bench", cspNonce: "bench", memo: new Map() });

  const fixture = await call("/api/test-fixtures", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: "inproc@example.test", password: "bench-password-1", agencyName: "Bench Agency" }),
  });
  const cookie = `__session=${/** @type {{ sessionCookie: string }} */ (await fixture.json()).sessionCookie}`;
  // An agency with data (the demo book: flags, re-markets, quotes, audit events), whose dashboard
  // shows the trends and recent activity rather than the first-run checklist.
  const bookFixture = await call("/api/test-fixtures", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: "inproc-book@example.test", password: "bench-password-1", agencyName: "Bench Book Agency" }),
  });
  const bookUser = /** @type {{ id: string; tenantId: string; sessionCookie: string }} */ (await bookFixture.json());
  const seeded = await call("/api/test-fixtures", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ action: "unpaid-book", tenantId: bookUser.tenantId, userId: bookUser.id }),
  });
  if (seeded.status !== 200) throw new Error(`seeding the book answered ${seeded.status}`);
  const bookCookie = `__session=${bookUser.sessionCookie}`;
  /** @type {Target[]} */
  const targets = [
    { name: "hello world", path: "/bench/hello", headers: {} },
    { name: "hello world, signed in", path: "/bench/hello", headers: { Cookie: cookie } },
    { name: "dashboard (signed in)", path: "/", headers: { Cookie: cookie } },
    { name: "dashboard, with data", path: "/", headers: { Cookie: bookCookie } },
  ];
  /** One request, read to the end; anything but a 200 page stops the run (a redirect would be cheaper and lie). */
  const once = async (/** @type {Target} */ t) => {
    const response = await call(t.path, { headers: t.headers });
    if (response.status !== 200) throw new Error(`${t.path} answered ${response.status}`);
    await response.arrayBuffer();
  };
  return { label: `${path.relative(ROOT, buildDir)}${BUILDS.indexOf(buildDir) === index ? "" : ` (#${index + 1})`}`, targets, once };
}

async function main() {
  Object.assign(process.env, {
    NODE_ENV: "production",
    APP_URL: ORIGIN,
    ACCESS_LOG: "false",
    RUN_WORKER: "false",
    ENABLE_TEST_FIXTURES: "true",
    BENCH_ROUTES: "true",
  });
  delete process.env.DATABASE_URL;
  delete process.env.PGLITE_DIR;
  const builds = [];
  for (const [index, dir] of BUILDS.entries()) builds.push(await loadBuild(dir, index));

  for (const b of builds) for (const t of b.targets) for (let i = 0; i < 300; i++) await b.once(t); // JIT and caches
  /** @type {number[][][]} */
  const samples = builds.map((b) => b.targets.map(() => []));
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which build goes first, so neither always follows the other.
    const order = builds.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const bi of order) {
      for (const [ti, t] of builds[bi].targets.entries()) {
        const before = process.cpuUsage();
        for (let n = 0; n < PER_ROUND; n++) await builds[bi].once(t);
        const used = process.cpuUsage(before);
        samples[bi][ti].push((used.user + used.system) / 1000 / PER_ROUND);
      }
    }
  }

  const quartile = (/** @type {number[]} */ v, /** @type {number} */ q) => [...v].sort((a, b) => a - b)[Math.floor((v.length - 1) * q)];
  for (const [bi, b] of builds.entries()) {
    console.info(`\nin-process SSR: CPU ms per request, ${ROUNDS} rounds of ${PER_ROUND} per route, build ${b.label}\n`);
    console.info(`${"route".padEnd(24)}  ${"min".padStart(6)}  ${"p25".padStart(6)}  ${"median".padStart(6)}`);
    for (const [ti, t] of b.targets.entries()) {
      const v = samples[bi][ti];
      console.info(
        `${t.name.padEnd(24)}  ${quartile(v, 0).toFixed(3).padStart(6)}  ${quartile(v, 0.25).toFixed(3).padStart(6)}  ${quartile(v, 0.5).toFixed(3).padStart(6)}`,
      );
    }
    const ratio = quartile(samples[bi][0], 0.25) / quartile(samples[bi][2], 0.25);
    console.info(`\nratio hello world / dashboard (CPU, p25): ${ratio.toFixed(2)}  (the HTTP server adds about the same to both)`);
    const withData = quartile(samples[bi][0], 0.25) / quartile(samples[bi][3], 0.25);
    console.info(`ratio hello world / dashboard with data (CPU, p25): ${withData.toFixed(2)}`);
  }
  if (builds.length > 1) {
    // Per round, each build's time against the first build's in the same round: the median of
    // those ratios cancels what the machine did to that round.
    console.info(`\nagainst ${builds[0].label}, median of the per-round ratios (below 1: cheaper):`);
    for (const [bi, b] of builds.entries()) {
      if (bi === 0) continue;
      const cells = b.targets.map(
        (t, ti) =>
          `${t.name} ${quartile(
            samples[bi][ti].map((v, r) => v / samples[0][ti][r]),
            0.5,
          ).toFixed(3)}`,
      );
      console.info(`  ${b.label}: ${cells.join("; ")}`);
    }
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
