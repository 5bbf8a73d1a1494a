// The cluster (scripts/cluster.js) under load, on PostgreSQL (issue 18): the signed-in dashboard's
// req/s and p99 through HAProxy with two web instances and then with one (the second stopped), in
// the same run; and the job queue's import throughput with two workers and then with one, on
// imports queued at once (each worker runs one job at a time here: JOB_CONCURRENCY=1).
//
// Usage: bash scripts/with-postgres.sh bench_cluster node bench/cluster.js [--duration 10] [--connections 16]
//          [--policies 100000] [--imports 2]
import { cpus, loadavg } from "node:os";
import autocannon from "autocannon";
import { agencyReadyToImport, finished, formToken, pressTryTheDemo, startImport, waitForImport } from "../scripts/cluster-client.js";
import { startCluster } from "../scripts/cluster.js";
import { run, sleep } from "./lib/server.js";

const args = process.argv.slice(2);
const option = (/** @type {string} */ name, /** @type {number} */ fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? Number(args[i + 1]) : fallback;
};
const DURATION = option("--duration", 10);
const CONNECTIONS = option("--connections", 16);
const POLICIES = option("--policies", 100_000);
const IMPORTS = option("--imports", 2);

async function main() {
  if (!process.env.DATABASE_URL) throw new Error("run it under scripts/with-postgres.sh (it needs DATABASE_URL)");
  const cluster = await startCluster({
    web: 2,
    workers: 2,
    dir: `data/cluster-bench-${process.pid}`,
    testRoutes: true,
    env: { ENABLE_TEST_FIXTURES: "true", JOB_CONCURRENCY: "1" },
  });
  try {
    const cookie = await pressTryTheDemo(cluster.url, await formToken(cluster.url));
    const measure = async () => {
      await autocannon({ url: `${cluster.url}/`, connections: CONNECTIONS, duration: 2, headers: { cookie } });
      const result = await autocannon({ url: `${cluster.url}/`, connections: CONNECTIONS, duration: DURATION, headers: { cookie } });
      return { rps: result.requests.total / result.duration, p99: result.latency.p99, non2xx: result.non2xx + result.errors };
    };

    const two = await measure();
    // Out of rotation: SIGTERM drains it (HAProxy sees /readyz 503), then it exits.
    cluster.webs[1].child.kill("SIGTERM");
    await cluster.webs[1].exited;
    await sleep(2_000);
    const one = await measure();

    console.info(
      `\ncluster benchmark: PostgreSQL, HAProxy round-robin, dashboard (signed in, demo agency), ${CONNECTIONS} connections, ${DURATION} s`,
    );
    console.info(`two web instances: ${two.rps.toFixed(0)} req/s, p99 ${two.p99} ms, failed ${two.non2xx}`);
    console.info(`one web instance:  ${one.rps.toFixed(0)} req/s, p99 ${one.p99} ms, failed ${one.non2xx}`);
    console.info(`ratio two / one: ${(two.rps / one.rps).toFixed(2)}`);
    console.info(
      `load average after: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")} on ${cpus().length} CPUs`,
    );

    const throughput = async (/** @type {string} */ label) => {
      const agencies = [];
      for (let i = 0; i < IMPORTS; i++) agencies.push(await agencyReadyToImport(cluster.url, `bench-${label}-${i}`, POLICIES));
      const started = Date.now();
      await Promise.all(agencies.map((a) => startImport(cluster.url, a)));
      const states = await Promise.all(agencies.map((a) => waitForImport(cluster.url, a, finished)));
      const seconds = (Date.now() - started) / 1000;
      const rows = states.reduce((sum, s) => sum + (s.run?.rowsRead ?? 0), 0);
      const failed = states.filter((s) => s.run?.status !== "succeeded").length;
      return { seconds, rows, rps: rows / seconds, failed };
    };
    const twoWorkers = await throughput("two");
    cluster.workers[1].child.kill("SIGTERM");
    await cluster.workers[1].exited;
    const oneWorker = await throughput("one");
    console.info(`\nimport queue: ${IMPORTS} imports of ${POLICIES.toLocaleString("en-US")} policies queued at once, JOB_CONCURRENCY=1`);
    console.info(
      `two workers: ${twoWorkers.rows} rows in ${twoWorkers.seconds.toFixed(1)} s = ${twoWorkers.rps.toFixed(0)} rows/s (${twoWorkers.failed} failed)`,
    );
    console.info(
      `one worker:  ${oneWorker.rows} rows in ${oneWorker.seconds.toFixed(1)} s = ${oneWorker.rps.toFixed(0)} rows/s (${oneWorker.failed} failed)`,
    );
    console.info(`ratio two / one: ${(twoWorkers.rps / oneWorker.rps).toFixed(2)}`);
    console.info(
      `\nOn ${cpus().length} cores the load generator, HAProxy, PostgreSQL and every instance share the CPUs: a second instance or worker`,
    );
    console.info("can only help while one process leaves a core idle. Scaling shows when each instance has cores of its own.");
  } finally {
    await cluster.stop();
  }
}

run(main);
