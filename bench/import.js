// Import benchmark (issue 4): generate a 100 000-policy export (~40 000 customers), import it
// through the ETL into PostgreSQL, load the same rows with COPY into the same tables, and print
// rows/s for both, the ratio (target ≥ 0.25) and the ETL's peak RSS (target ≤ 200 MB); then the
// ETL on the embedded database (PGlite).
//
//   node bench/import.js [--policies 100000] [--skip-pglite]
//   DATABASE_URL=postgres://… (default: the local remarket_conn database)
//
// BENCH_NODE_ARGS="--max-old-space-size=1024" passes flags to the ETL children's node (as bench/ssr does):
// by default they run with node's defaults, as `npm start` runs the server.
//
// Looking into memory (the child's output goes to stderr):
//   BENCH_TRACE=1    heap spaces every 10 batches;  BENCH_TRACE=gc (with node --expose-gc) the same after a full GC
//   BENCH_ALLOC=file a sampling allocation profile of the child (setup + import; open it in Chrome DevTools);
//                    with BENCH_PROMOTED=1 only what outlived the young generation (promoted garbage).
//
// Each ETL runs in its own child process, so its peak RSS is the import's alone.
import { execFileSync, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT = path.join(ROOT, "bench/out");
const BUNDLE = path.join(OUT, "import-entry.mjs");
const DATA_DIR = path.join(OUT, "data");
const args = process.argv.slice(2);
const arg = (/** @type {string} */ name, /** @type {string} */ fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const POLICIES = Number(arg("policies", "100000"));
const ROUNDS = Number(arg("rounds", "2"));
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
const DATABASE_URL = process.env.DATABASE_URL ?? "postgres://remarket:remarket@localhost:5432/remarket_conn";
/** @type {NodeJS.ProcessEnv} */
const ENV = {
  NODE_ENV: "production",
  DATA_DIR,
  ENCRYPTION_KEY: "1".repeat(64),
  SESSION_SECRET: "bench-session-secret-0123456789-0123456789",
};

/** @returns {Promise<any>} the app modules the benchmark uses */
async function app() {
  return import(pathToFileURL(BUNDLE).href);
}

async function bundle() {
  const esbuild = await import("esbuild");
  await esbuild.build({
    entryPoints: [path.join(ROOT, "bench/import-entry.ts")],
    outfile: BUNDLE,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    alias: { "~": path.join(ROOT, "app") },
    logLevel: "error",
  });
}

/** Child: run one ETL (the database comes from the environment) and report on stdout. */
async function child() {
  const m = await app();
  /** @type {import("node:inspector/promises").Session | null} */
  let session = null;
  if (process.env.BENCH_ALLOC) {
    const inspector = await import("node:inspector/promises");
    session = new inspector.Session();
    session.connect();
    await session.post("HeapProfiler.startSampling", {
      samplingInterval: 32768,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: !process.env.BENCH_PROMOTED,
    });
  }
  const db = await m.getDb();
  const tenant = await m.createTenant(db, { name: `Bench ${randomUUID().slice(0, 6)}` });
  const ctx = { db, tenantId: tenant.id, userId: "", role: "admin" };
  // The export is generated once; each tenant gets its own copy under a tenant-scoped key.
  const key = m.uploadKeyFor(tenant.id, "bench-export.csv");
  const { bytes } = await m.getStorage().write(key, await m.getStorage().read(arg("key", "")));
  const file = { key, name: "bench-export.csv", bytes };
  const connection = await m.createReadyFileConnection(ctx, { integrationId: "ezlynx", name: "Bench", file });
  const runId = await m.startImport(ctx, connection.id);
  const setupPeakRssMb = process.resourceUsage().maxRSS / 1024;
  if (process.env.BENCH_TRACE === "gc") globalThis.gc?.();
  if (process.env.BENCH_TRACE)
    console.error(
      `setup done: rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB, max ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
    );
  const started = process.hrtime.bigint();
  let batches = 0;
  const mb = (/** @type {number} */ n) => (n / 1e6).toFixed(0);
  const trace = process.env.BENCH_TRACE
    ? async () => {
        if (++batches % 10 === 0) {
          if (process.env.BENCH_TRACE === "gc") globalThis.gc?.();
          const u = process.memoryUsage();
          const spaces = (await import("node:v8"))
            .getHeapSpaceStatistics()
            .map((x) => `${x.space_name.replace("_space", "")} ${mb(x.space_used_size)}/${mb(x.space_size)}`);
          console.error(
            `batch ${batches}: rss ${mb(u.rss)} heap ${mb(u.heapUsed)}/${mb(u.heapTotal)} external ${mb(u.external)} | ${spaces.join(", ")}`,
          );
        }
      }
    : undefined;
  await m.runImport(db, runId, { ...(args.includes("--batch") ? { batchSize: Number(arg("batch", "")) } : {}), progress: trace });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (session && process.env.BENCH_ALLOC) {
    const { profile } = await session.post("HeapProfiler.stopSampling");
    (await import("node:fs")).writeFileSync(process.env.BENCH_ALLOC, JSON.stringify(profile));
  }
  const counts = await m.importedCounts(db, tenant.id, connection.id);
  const rss = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(
    `${JSON.stringify({ seconds, counts, peakRssMb: rss, setupPeakRssMb, driver: await m.getDriver(), tenantId: tenant.id })}\n`,
  );
  await m.closeDb();
}

/** @param {NodeJS.ProcessEnv} env */
function runChild(env, /** @type {string[]} */ extra) {
  const result = spawnSync(process.execPath, [...NODE_ARGS, fileURLToPath(import.meta.url), "--child", ...extra], {
    env: { ...process.env, ...ENV, ...env },
    encoding: "utf8",
    maxBuffer: 10 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`ETL child failed:\n${result.stdout}\n${result.stderr}`);
  const line = result.stdout.trim().split("\n").pop() ?? "{}";
  return JSON.parse(line);
}

/** COPY the same rows (mapped with the same code, outside the timing) into customers and policies. */
async function copyLoad(/** @type {any} */ m, /** @type {{ key: string }} */ file) {
  const { default: pg } = await import("pg");
  const { from: copyFrom } = await import("pg-copy-streams");
  const db = await m.getDb();
  const tenant = await m.createTenant(db, { name: `Bench COPY ${randomUUID().slice(0, 6)}` });
  const connector = m.createFileConnector({ open: () => m.getStorage().read(file.key), format: "csv", fileName: "bench-export.csv" });
  const mapping = await m.defaultMapping(connector, { preset: "ezlynx" });
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  const carriers = new Map((await client.query("select id, lower(name) as key from carriers")).rows.map((r) => [r.key, r.id]));
  const esc = (/** @type {unknown} */ v) =>
    v === null || v === undefined
      ? "\\N"
      : String(v).replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r");
  /** @type {Map<string, string[]>} */
  const customers = new Map();
  /** @type {string[]} */
  const policies = [];
  const ids = new Map();
  const seen = new Set();
  for await (const page of connector.readRecords(mapping.object, { pageSize: 5000 })) {
    for (const row of page) {
      const t = m.transformRow(row, mapping);
      if (!t.ok || seen.has(t.policy.sourceKey)) continue;
      seen.add(t.policy.sourceKey);
      const c = t.customer;
      if (!ids.has(c.sourceKey)) ids.set(c.sourceKey, randomUUID());
      const cid = ids.get(c.sourceKey);
      customers.set(
        c.sourceKey,
        [
          cid,
          tenant.id,
          c.sourceKey,
          c.customerType,
          c.firstName,
          c.lastName,
          c.businessName,
          c.name,
          c.email,
          c.phone,
          c.address1,
          c.address2,
          c.city,
          c.state,
          c.zip,
          c.producer,
          c.csr,
        ].map(esc),
      );
      const p = t.policy;
      policies.push(
        [
          randomUUID(),
          tenant.id,
          cid,
          p.sourceKey,
          p.policyNumber,
          p.lineOfBusiness,
          p.lineOfBusinessRaw,
          carriers.get(p.carrierName.toLowerCase()) ?? null,
          p.carrierName,
          p.status,
          p.inceptionDate,
          p.effectiveDate,
          p.expirationDate,
          p.termMonths,
          p.premium,
          p.priorPremium,
          p.renewalPremium,
          p.riskState,
          p.producer,
          p.csr,
          p.claims3y,
          p.lastModifiedAt,
        ]
          .map(esc)
          .join("\t"),
      );
    }
  }
  const customerLines = [...customers.values()].map((c) => c.join("\t"));
  const lines = (/** @type {string[]} */ list) =>
    Readable.from(
      (function* () {
        for (let i = 0; i < list.length; i += 1000) yield list.slice(i, i + 1000).join("\n") + "\n";
      })(),
    );
  const started = process.hrtime.bigint();
  await client.query("begin");
  await pipeline(
    lines(customerLines),
    client.query(
      copyFrom(
        "copy customers (id, tenant_id, source_key, customer_type, first_name, last_name, business_name, name, email, phone, address1, address2, city, state, zip, producer, csr) from stdin",
      ),
    ),
  );
  await pipeline(
    lines(policies),
    client.query(
      copyFrom(
        "copy policies (id, tenant_id, customer_id, source_key, policy_number, line_of_business, line_of_business_raw, carrier_id, carrier_name, status, inception_date, effective_date, expiration_date, term_months, premium, prior_premium, renewal_premium, risk_state, producer, csr, claims_3y, last_modified_at) from stdin",
      ),
    ),
  );
  await client.query("commit");
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await client.end();
  return { seconds, customers: customerLines.length, policies: policies.length };
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  rmSync(DATA_DIR, { recursive: true, force: true });
  await bundle();
  process.env.DATABASE_URL = DATABASE_URL;
  Object.assign(process.env, ENV);
  const m = await app();

  console.log(`Generating an EZLynx-style export with ${POLICIES.toLocaleString("en-US")} policy rows…`);
  const file = await m.storeSampleExport("bench", { policies: POLICIES, seed: 4242 }, "bench-export.csv");
  console.log(`  ${(file.bytes / 1024 / 1024).toFixed(1)} MB at ${file.key}`);
  const fileArgs = ["--key", file.key, ...(args.includes("--batch") ? ["--batch", arg("batch", "")] : [])];

  // The machine may be shared: run each load ROUNDS times, interleaved, and keep the best run of each.
  /** @type {any[]} */
  const etls = [];
  /** @type {any[]} */
  const copies = [];
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`Round ${round}/${ROUNDS}: ETL → PostgreSQL (child process)…`);
    etls.push(runChild({ ...ENV, DATABASE_URL }, fileArgs));
    console.log(
      `  ${etls.at(-1).seconds.toFixed(2)} s, peak RSS ${etls.at(-1).peakRssMb.toFixed(0)} MB (${etls.at(-1).setupPeakRssMb.toFixed(0)} MB by the end of the setup: connection, mapping, scan)`,
    );
    console.log(`Round ${round}/${ROUNDS}: COPY → PostgreSQL…`);
    copies.push(await copyLoad(m, file));
    console.log(`  ${copies.at(-1).seconds.toFixed(2)} s`);
  }
  const etl = etls.reduce((a, b) => (b.seconds < a.seconds ? b : a));
  const copy = copies.reduce((a, b) => (b.seconds < a.seconds ? b : a));
  const peakRss = Math.max(...etls.map((e) => e.peakRssMb));
  await m.closeDb();

  let pglite = null;
  if (!args.includes("--skip-pglite")) {
    console.log("ETL → PGlite (embedded, child process)…");
    const dir = path.join(OUT, `pglite-${Date.now()}`);
    /** @type {NodeJS.ProcessEnv} */
    const env = { ...process.env, ...ENV, PGLITE_DIR: dir };
    delete env.DATABASE_URL;
    const result = spawnSync(process.execPath, [...NODE_ARGS, fileURLToPath(import.meta.url), "--child", ...fileArgs], {
      env,
      encoding: "utf8",
      maxBuffer: 10 * 1024 * 1024,
    });
    if (result.status !== 0) throw new Error(`PGlite child failed:\n${result.stderr}`);
    pglite = JSON.parse(result.stdout.trim().split("\n").pop() ?? "{}");
    rmSync(dir, { recursive: true, force: true });
  }

  const etlRate = POLICIES / etl.seconds;
  const copyRate = POLICIES / copy.seconds;
  const ratio = etlRate / copyRate;
  const pg = execFileSync("psql", [DATABASE_URL, "-Atc", "show server_version"], { encoding: "utf8" }).trim();
  console.log("");
  console.log(
    `Import benchmark: ${POLICIES.toLocaleString("en-US")} policy rows, PostgreSQL ${pg}, Node ${process.version}${NODE_ARGS.length ? ` ${NODE_ARGS.join(" ")}` : ""}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  console.log(
    `  (best of ${ROUNDS} runs each: ETL ${etls.map((e) => e.seconds.toFixed(1)).join(" / ")} s, COPY ${copies.map((c) => c.seconds.toFixed(1)).join(" / ")} s)`,
  );
  console.log(
    `  ETL  → PostgreSQL: ${etl.seconds.toFixed(2)} s, ${Math.round(etlRate).toLocaleString("en-US")} rows/s (${etl.counts.customers} customers, ${etl.counts.policies} policies)`,
  );
  console.log(
    `  COPY → PostgreSQL: ${copy.seconds.toFixed(2)} s, ${Math.round(copyRate).toLocaleString("en-US")} rows/s (${copy.customers} customers, ${copy.policies} policies)`,
  );
  console.log(`  ratio ETL / COPY : ${ratio.toFixed(2)} (target ≥ 0.25) ${ratio >= 0.25 ? "OK" : "BELOW TARGET"}`);
  console.log(
    `  ETL peak RSS     : ${peakRss.toFixed(0)} MB, highest of ${ROUNDS} runs (${etls.map((e) => e.peakRssMb.toFixed(0)).join(" / ")} MB; the child process whole, setup included) (target ≤ 200 MB) ${peakRss <= 200 ? "OK" : "ABOVE TARGET"}`,
  );
  if (pglite) {
    console.log(
      `  ETL  → PGlite    : ${pglite.seconds.toFixed(2)} s, ${Math.round(POLICIES / pglite.seconds).toLocaleString("en-US")} rows/s, peak RSS ${pglite.peakRssMb.toFixed(0)} MB`,
    );
  }
  // Leave the benchmark tenants out of the developer's database.
  const { default: pgmod } = await import("pg");
  const cleanup = new pgmod.Client({ connectionString: DATABASE_URL });
  await cleanup.connect();
  await cleanup.query("delete from tenants where name like 'Bench %'");
  await cleanup.end();
}

if (args.includes("--child")) await child();
else await main();
