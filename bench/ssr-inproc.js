// Server CPU per request without HTTP or a load generator: the Remix request handler of the
// benchmark build called in a loop, the routes interleaved round by round, CPU time (not wall time)
// per request. On a shared 2-core machine this moves far less between runs than bench/ssr.js, so
// it is the one to compare two builds with (an A/B of one change).
// Usage: node bench/ssr-inproc.js [--rounds 20] [--per-round 200] [--build bench/out/build]
// Build first (node bench/ssr.js builds into bench/out/build, or BUILD_TEST_ROUTES=true BUILD_DIR=… npx remix build).
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
const BUILD = path.resolve(ROOT, option("--build", "bench/out/build"));
const DATA_DIR = path.join(ROOT, "bench/out/data-inproc");
const ORIGIN = "http://127.0.0.1:3000";

async function main() {
  rmSync(DATA_DIR, { recursive: true, force: true });
  Object.assign(process.env, {
    NODE_ENV: "production",
    DATA_DIR,
    APP_URL: ORIGIN,
    ACCESS_LOG: "false",
    RUN_WORKER: "false",
    ENABLE_TEST_FIXTURES: "true",
    BENCH_ROUTES: "true",
  });
  delete process.env.DATABASE_URL;
  delete process.env.PGLITE_DIR;
  const build = await import(pathToFileURL(path.join(BUILD, "index.js")).href);
  const handle = createRequestHandler(build, "production");
  const call = (/** @type {string} */ pathname, /** @type {RequestInit} */ init = {}) =>
    handle(new Request(`${ORIGIN}${pathname}`, init), { requestId: "bench", cspNonce: "bench" });

  const fixture = await call("/api/test-fixtures", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: "inproc@example.test", password: "bench-password-1", agencyName: "Bench Agency" }),
  });
  const cookie = `__session=${(/** @type {{ sessionCookie: string }} */ (await fixture.json())).sessionCookie}`;
  /** @type {{ name: string; path: string; headers: Record<string, string> }[]} */
  const targets = [
    { name: "hello world", path: "/bench/hello", headers: {} },
    { name: "hello world, signed in", path: "/bench/hello", headers: { Cookie: cookie } },
    { name: "dashboard (signed in)", path: "/", headers: { Cookie: cookie } },
  ];

  /** One request, read to the end; anything but a 200 page stops the run (a redirect would be cheaper and lie). */
  const once = async (/** @type {(typeof targets)[number]} */ t) => {
    const response = await call(t.path, { headers: t.headers });
    if (response.status !== 200) throw new Error(`${t.path} answered ${response.status}`);
    await response.arrayBuffer();
  };
  for (const t of targets) for (let i = 0; i < 300; i++) await once(t); // JIT and caches
  /** @type {number[][]} */
  const samples = targets.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, t] of targets.entries()) {
      const before = process.cpuUsage();
      for (let n = 0; n < PER_ROUND; n++) await once(t);
      const used = process.cpuUsage(before);
      samples[i].push((used.user + used.system) / 1000 / PER_ROUND);
    }
  }

  console.info(`\nin-process SSR: CPU ms per request, ${ROUNDS} rounds of ${PER_ROUND} per route, build ${path.relative(ROOT, BUILD)}\n`);
  console.info(`${"route".padEnd(24)}  ${"min".padStart(6)}  ${"p25".padStart(6)}  ${"median".padStart(6)}`);
  const quartile = (/** @type {number[]} */ v, /** @type {number} */ q) => [...v].sort((a, b) => a - b)[Math.floor((v.length - 1) * q)];
  for (const [i, t] of targets.entries()) {
    const v = samples[i];
    console.info(`${t.name.padEnd(24)}  ${quartile(v, 0).toFixed(3).padStart(6)}  ${quartile(v, 0.25).toFixed(3).padStart(6)}  ${quartile(v, 0.5).toFixed(3).padStart(6)}`);
  }
  const ratio = quartile(samples[0], 0.25) / quartile(samples[2], 0.25);
  console.info(`\nratio hello world / dashboard (CPU, p25): ${ratio.toFixed(2)}  (the HTTP server adds about the same to both)`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
