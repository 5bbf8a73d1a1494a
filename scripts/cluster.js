// A local cluster, as Remarket runs for many agencies: web instances without workers and job
// workers, all on one PostgreSQL database (DATABASE_URL) and one S3-compatible store (the S3
// stand-in the tests use: s3rver, plus the multipart-upload listing it lacks), behind HAProxy (Debian's package) that health-checks /readyz and
// balances round-robin. Logs go to <dir>/logs, one file per process.
//
//   npm run cluster                      (a fresh database via scripts/with-postgres.sh; Ctrl-C stops all)
//   node scripts/cluster.js [--web 2] [--workers 2] [--port 8080] [--dir data/cluster] [--no-build]
//   node scripts/cluster.js stop [--dir data/cluster]   (stops a cluster started from another shell)
//
// The tests drive the same code through startCluster() (tests/cluster/cluster.test.ts).
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startS3StandInWithUploads } from "../tests/support/s3-stand-in.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * @typedef {{ name: string; port: number | null; metricsPort: number; child: import("node:child_process").ChildProcess;
 *   exited: Promise<unknown> }} Member
 * @typedef {{ web?: number; workers?: number; port?: number; dir?: string; build?: boolean; testRoutes?: boolean; env?: Record<string, string> }} ClusterOptions
 */

/** Starts the whole cluster and resolves once the balancer answers through every web instance. */
export async function startCluster(/** @type {ClusterOptions} */ options = {}) {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl)
    throw new Error("The cluster needs PostgreSQL: run it as `npm run cluster` (scripts/with-postgres.sh sets DATABASE_URL).");
  const haproxy = ["/usr/sbin/haproxy", "/usr/bin/haproxy"].find((p) => existsSync(p));
  if (!haproxy) throw new Error("HAProxy is not installed: apt-get install haproxy (scripts/install-test-deps.sh does).");

  const dir = path.resolve(ROOT, options.dir ?? "data/cluster");
  const logs = path.join(dir, "logs");
  mkdirSync(logs, { recursive: true });
  const buildDir = path.join(dir, "build");
  if (options.build !== false || !existsSync(path.join(buildDir, "index.js"))) {
    const built = spawnSync(path.join(ROOT, "node_modules/.bin/remix"), ["build"], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
      // testRoutes: the fixtures route the tests set agencies up with (never in an operator's cluster).
      env: { ...process.env, NODE_ENV: "production", BUILD_DIR: buildDir, BUILD_TEST_ROUTES: options.testRoutes ? "true" : "false" },
    });
    if (built.status !== 0) throw new Error("remix build failed");
  }

  const s3Dir = path.join(dir, "s3");
  mkdirSync(s3Dir, { recursive: true });
  const s3 = await startS3StandInWithUploads("remarket", s3Dir);

  const port = options.port ?? (await freePort());
  const publicUrl = `http://localhost:${port}`;
  // Every instance must sign sessions and seal connector secrets with the same keys.
  /** @type {NodeJS.ProcessEnv} */
  const shared = {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    BUILD_DIR: buildDir,
    APP_URL: publicUrl,
    TRUST_PROXY: "true",
    SESSION_SECRET: randomBytes(32).toString("hex"),
    ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    S3_BUCKET: "remarket",
    S3_ENDPOINT: s3.options.endpoint,
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
    S3_FORCE_PATH_STYLE: "true",
    ACCESS_LOG: "false",
    ...options.env,
  };

  /** @type {Member[]} */
  const webs = [];
  /** @type {Member[]} */
  const workers = [];
  const webCount = options.web ?? 2;
  const workerCount = options.workers ?? 2;

  /** @param {string} name @param {number | null} webPort @param {number} metricsPort */
  const launch = (name, webPort, metricsPort) => {
    const log = openSync(path.join(logs, `${name}.log`), "a");
    /** @type {NodeJS.ProcessEnv} */
    const env = { ...shared, INSTANCE_ID: name, METRICS_PORT: String(metricsPort), DATA_DIR: path.join(dir, name) };
    const child =
      webPort === null
        ? spawn(process.execPath, ["server/worker.js"], { cwd: ROOT, env, stdio: ["ignore", log, log] })
        : spawn(process.execPath, ["server/index.js"], {
            cwd: ROOT,
            env: { ...env, PORT: String(webPort), HOST: "127.0.0.1", RUN_WORKER: "false", DRAIN_DELAY_MS: env.DRAIN_DELAY_MS ?? "3000" },
            stdio: ["ignore", log, log],
          });
    return { name, port: webPort, metricsPort, child, exited: once(child, "exit") };
  };

  for (let i = 1; i <= webCount; i++) webs.push(launch(`web-${i}`, await freePort(), await freePort()));
  // The first instance migrates under the advisory lock; the others wait for it (app/db/client.server.ts).
  await Promise.all(webs.map((w) => waitFor(`http://127.0.0.1:${w.port}/readyz`, w)));
  for (let i = 1; i <= workerCount; i++) workers.push(launch(`worker-${i}`, null, await freePort()));

  const haproxyConfig = path.join(dir, "haproxy.cfg");
  writeFileSync(haproxyConfig, haproxyConfigFor(port, webs));
  const balancerLog = openSync(path.join(logs, "haproxy.log"), "a");
  const balancer = spawn(haproxy, ["-f", haproxyConfig, "-db"], { stdio: ["ignore", balancerLog, balancerLog] });
  const balancerExited = once(balancer, "exit");
  await waitFor(`${publicUrl}/readyz`, { exited: balancerExited });
  // Every instance is in rotation once HAProxy's checks have passed twice (rise 2).
  await new Promise((r) => setTimeout(r, 2500));

  const pids = [balancer.pid, ...webs.map((w) => w.child.pid), ...workers.map((w) => w.child.pid)];
  writeFileSync(path.join(dir, "pids"), `${pids.join("\n")}\n`);

  return {
    url: publicUrl,
    dir,
    webs,
    workers,
    s3: { endpoint: shared.S3_ENDPOINT, bucket: "remarket" },
    /** Rolling restart of one web instance: SIGTERM (it drains), wait for its exit, start it again on its port, wait until ready. */
    async restartWeb(/** @type {number} */ index) {
      const old = webs[index];
      old.child.kill("SIGTERM");
      await old.exited;
      const next = launch(old.name, old.port, old.metricsPort);
      webs[index] = next;
      await waitFor(`http://127.0.0.1:${next.port}/readyz`, next);
      // Back in rotation after two passed checks.
      await new Promise((r) => setTimeout(r, 2500));
    },
    /** Starts a worker again after a test killed it. */
    restartWorker(/** @type {number} */ index) {
      const old = workers[index];
      workers[index] = launch(old.name, null, old.metricsPort);
    },
    async stop() {
      balancer.kill("SIGTERM");
      for (const m of [...webs, ...workers]) if (m.child.exitCode === null && m.child.signalCode === null) m.child.kill("SIGTERM");
      await Promise.all([balancerExited, ...webs.map((w) => w.exited), ...workers.map((w) => w.exited)]);
      await s3.close();
      rmSync(path.join(dir, "pids"), { force: true });
    },
  };
}

/** @param {number} port @param {Member[]} webs */
function haproxyConfigFor(port, webs) {
  return `# Written by scripts/cluster.js
global
  maxconn 4096

defaults
  mode http
  timeout connect 2s
  timeout client 70s
  timeout server 70s
  timeout http-keep-alive 60s
  # A request whose server closed or refused the connection (an instance stopping) goes to the other.
  option redispatch
  retries 3
  retry-on conn-failure empty-response

frontend remarket
  bind 127.0.0.1:${port}
  option forwardfor
  default_backend web

backend web
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
  # Checked every second, out after two failures: a drain (DRAIN_DELAY_MS 3000) outlasts that.
  timeout check 2s
  default-server inter 1s fall 2 rise 2
${webs.map((w) => `  server ${w.name} 127.0.0.1:${w.port} check`).join("\n")}
`;
}

/** Polls a URL until it answers 200; fails early when the process behind it exits. */
async function waitFor(/** @type {string} */ url, /** @type {{ exited: Promise<unknown> }} */ process_) {
  let dead = false;
  void process_.exited.then(() => (dead = true));
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (dead) throw new Error(`the process behind ${url} exited during start-up`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not become ready within 120 s`);
}

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function main() {
  const args = process.argv.slice(2);
  const option = (/** @type {string} */ name) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const dir = path.resolve(ROOT, option("--dir") ?? "data/cluster");
  if (args[0] === "stop") {
    const file = path.join(dir, "pids");
    if (!existsSync(file)) throw new Error(`No cluster is running from ${dir}.`);
    for (const pid of readFileSync(file, "utf8").split("\n").filter(Boolean)) {
      try {
        process.kill(Number(pid), "SIGTERM");
      } catch {
        // already gone
      }
    }
    rmSync(file, { force: true });
    console.info("Cluster stopped.");
    return;
  }
  const cluster = await startCluster({
    web: Number(option("--web") ?? 2),
    workers: Number(option("--workers") ?? 2),
    port: option("--port") ? Number(option("--port")) : 8080,
    dir,
    build: !args.includes("--no-build"),
  });
  writeFileSync(path.join(dir, "pids"), `${process.pid}\n${readFileSync(path.join(dir, "pids"), "utf8")}`);
  console.info(`Remarket cluster on ${cluster.url} (HAProxy, round-robin on /readyz)`);
  for (const w of cluster.webs) console.info(`  ${w.name}: http://127.0.0.1:${w.port}, metrics http://127.0.0.1:${w.metricsPort}/metrics`);
  for (const w of cluster.workers) console.info(`  ${w.name}: metrics http://127.0.0.1:${w.metricsPort}/metrics`);
  console.info(`  object storage (s3rver stand-in): ${cluster.s3.endpoint}, logs in ${path.join(cluster.dir, "logs")}`);
  console.info("Ctrl-C (or `node scripts/cluster.js stop`) stops it.");
  await new Promise((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  console.info("stopping…");
  await cluster.stop();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    () => process.exit(0),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
