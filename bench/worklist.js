// Worklist benchmark (issue 5): 1,000,000 policies for one tenant plus 10 other tenants' noise in
// PostgreSQL, the forecast recomputed through the real route (and its job), then the worklist's
// first page with filters timed through the real route (p50/p95 over 200 requests), and EXPLAIN
// of its queries to show the indexes are used.
//
// Usage: BUILD_TEST_ROUTES=true BUILD_DIR=bench/out/build npx remix build && node bench/worklist.js [--policies 1000000] [--requests 200] [--keep [--no-recompute]]
// Database: BENCH_DATABASE_URL, else DATABASE_URL, else the renewals helper's own database.
// --keep reuses the data of the previous run (no generation); --no-recompute also skips the forecast.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import pg from "pg";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BUILD_DIR = path.join(ROOT, "bench/out/build");
const args = process.argv.slice(2);
const option = (/** @type {string} */ name, /** @type {number} */ fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? Number(args[i + 1]) : fallback;
};
const KEEP = args.includes("--keep");
const POLICIES = option("--policies", 1_000_000);
const REQUESTS = option("--requests", 200);
const NOISE_TENANTS = 10;
const NOISE_POLICIES = option("--noise", 20_000);
const PORT = option("--port", 3145);
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://remarket:remarket@localhost:5432/remarket_renew";
const BASE = `http://localhost:${PORT}`;
const MAIN_NAME = "Bench Agency (1M)";
const TARGET_P95_MS = 50;

const LINES = ["PAUTO", "HOME", "DFIRE", "UMBRP", "BOP", "CGL", "WC", "CAUTO"];
const LINE_WEIGHTS = [0.34, 0.26, 0.05, 0.07, 0.1, 0.07, 0.06, 0.05];
const CARRIERS = [
  "Travelers",
  "Progressive",
  "Safeco",
  "Nationwide",
  "The Hartford",
  "Chubb",
  "Auto-Owners Insurance",
  "Cincinnati Insurance",
  "Kemper",
  "Liberty Mutual",
  "Erie Insurance",
  "Foremost",
];
const STATES = ["TX", "OK", "LA", "AR", "NM", "FL", "GA", "AL", "MS", "TN"];
const PRODUCERS = ["Maria Lopez", "James Carter", "Dana Whitfield", "Priya Shah", "Tom Becker", "Ana Ruiz", "Sam Okafor", "Lee Chen"];
const FIRST = [
  "Olivia",
  "Liam",
  "Emma",
  "Noah",
  "Ava",
  "Elijah",
  "Sophia",
  "James",
  "Isabella",
  "Lucas",
  "Mia",
  "Mason",
  "Amelia",
  "Ethan",
  "Harper",
  "Logan",
];
const LAST = [
  "Nguyen",
  "Garcia",
  "Johnson",
  "Patel",
  "Martinez",
  "Thompson",
  "Robinson",
  "Walker",
  "Hernandez",
  "Young",
  "King",
  "Wright",
  "Lopez",
  "Hill",
];

/** Deterministic PRNG (mulberry32), so every run generates the same book. */
function seeded(/** @type {number} */ seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const day = (/** @type {Date} */ d) => d.toISOString().slice(0, 10);
const addDays = (/** @type {Date} */ d, /** @type {number} */ n) => new Date(d.getTime() + n * 86_400_000);

async function main() {
  // A benchmark build (with /bench/hello and the fixtures route), as bench/ssr.js makes it.
  if (!existsSync(path.join(BUILD_DIR, "index.js")))
    throw new Error("no benchmark build: run `BUILD_TEST_ROUTES=true BUILD_DIR=bench/out/build npx remix build` first");
  mkdirSync(path.join(ROOT, "bench/out"), { recursive: true });
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 4 });
  console.info(`database ${DATABASE_URL.replace(/:[^:@/]*@/, ":***@")}`);

  const server = await startServer();
  try {
    /** @type {{ tenantId: string; cookie: string }} */
    let main;
    if (KEEP) {
      main = await reuseMain(pool);
      if (!args.includes("--no-recompute")) await timedRecompute(pool, main);
    } else {
      await removePreviousRun(pool);
      main = await fixtureUser(MAIN_NAME);
      const noise = [];
      for (let i = 0; i < NOISE_TENANTS; i++) noise.push(await fixtureUser(`Bench noise ${i + 1}`));
      const t0 = performance.now();
      await generateBook(pool, main.tenantId, POLICIES, 1);
      for (const [i, n] of noise.entries()) await generateBook(pool, n.tenantId, NOISE_POLICIES, 100 + i);
      await pool.query("analyze customers; analyze policies");
      console.info(
        `generated ${fmt(POLICIES)} + ${NOISE_TENANTS} × ${fmt(NOISE_POLICIES)} policies in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );

      for (const n of noise) await recompute(pool, n, false);
      await timedRecompute(pool, main);
    }
    await reportSizes(pool, main.tenantId);

    const carrier = await mostFlagged(pool, main.tenantId, "carrier_name");
    const scenarios = [
      { name: "open, no filter", query: "status=open" },
      { name: "open + carrier + line", query: `status=open&carrier=${encodeURIComponent(carrier)}&line=PAUTO` },
      {
        name: "open + carrier + line + state + producer",
        query: `status=open&carrier=${encodeURIComponent(carrier)}&line=HOME&state=TX&producer=${encodeURIComponent(PRODUCERS[0])}`,
      },
      { name: "open + search customer", query: "status=open&q=garcia" },
    ];
    console.info(`\nworklist first page through the real route, ${REQUESTS} sequential requests each (after 20 warm-up);`);
    console.info(
      `machine: ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" / ")} (other processes share the cores: wall times include waiting for a core;`,
    );
    console.info('"cpu ms" is the app server\'s own CPU time per request, which is what a request costs on an idle core)');
    console.info("scenario                                   | kind     | p50 ms | p95 ms | max ms | cpu ms | rows");
    /** @type {number[]} */
    const headline = [];
    for (const s of scenarios) {
      for (const kind of /** @type {const} */ (["document", "data"])) {
        const url = kind === "document" ? `${BASE}/remarket?${s.query}` : `${BASE}/remarket.data?${s.query}`;
        const cpu0 = serverCpuMs(server.pid);
        const t = await timeRequests(url, main.cookie, REQUESTS);
        const cpu = (serverCpuMs(server.pid) - cpu0) / (REQUESTS + 20);
        if (s.name === "open + carrier + line") headline.push(t.p50, t.p95);
        console.info(
          `${s.name.padEnd(42)} | ${kind.padEnd(8)} | ${t.p50.toFixed(1).padStart(6)} | ${t.p95.toFixed(1).padStart(6)} | ${t.max.toFixed(1).padStart(6)} | ${cpu.toFixed(1).padStart(6)} | ${kind === "document" ? t.rows : ""}`,
        );
      }
    }
    // The same server's cheapest pages, for scale: what every document costs before the worklist's own work.
    for (const [name, url] of [
      ["baseline: /bench/hello (no loader data)", `${BASE}/bench/hello`],
      ["baseline: /settings/account (shell)", `${BASE}/settings/account`],
    ]) {
      const cpu0 = serverCpuMs(server.pid);
      const t = await timeRequests(url, main.cookie, REQUESTS);
      const cpu = (serverCpuMs(server.pid) - cpu0) / (REQUESTS + 20);
      console.info(
        `${name.padEnd(42)} | document | ${t.p50.toFixed(1).padStart(6)} | ${t.p95.toFixed(1).padStart(6)} | ${t.max.toFixed(1).padStart(6)} | ${cpu.toFixed(1).padStart(6)} |`,
      );
    }
    console.info(
      `\nheadline (open + carrier + line): HTML page p50 ${headline[0].toFixed(1)} ms, p95 ${headline[1].toFixed(1)} ms; data request p50 ${headline[2].toFixed(1)} ms, p95 ${headline[3].toFixed(1)} ms`,
    );
    console.info(
      `target p95 ≤ ${TARGET_P95_MS} ms: HTML page ${headline[1] <= TARGET_P95_MS ? "met" : "NOT met"}, data request ${headline[3] <= TARGET_P95_MS ? "met" : "NOT met"} (load average now ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`,
    );

    await explain(pool, main.tenantId, carrier);
  } finally {
    server.kill("SIGTERM");
    await pool.end();
  }
}

/** User + system CPU milliseconds a process has used (Linux /proc; 0 elsewhere). */
function serverCpuMs(/** @type {number | undefined} */ pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks, USER_HZ = 100
  } catch {
    return 0;
  }
}

function fmt(/** @type {number} */ n) {
  return n.toLocaleString("en-US");
}

/** The production server on the bench database (it migrates on start; the job worker runs in it). */
async function startServer() {
  const child = spawn(process.execPath, ["server/index.js"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      BUILD_DIR,
      PORT: String(PORT),
      APP_URL: BASE,
      DATABASE_URL,
      DATA_DIR: path.join(ROOT, "bench/out/worklist-data"),
      ENABLE_TEST_FIXTURES: "true",
      BENCH_ROUTES: "true",
      ACCESS_LOG: "false",
      RUN_WORKER: "true",
      PG_POOL_MAX: "10",
    },
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      if ((await fetch(`${BASE}/healthz`)).ok) return child;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error("server did not start");
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** A tenant and a signed-in admin through the test-fixture route (the server's own services). */
async function fixtureUser(/** @type {string} */ agencyName) {
  const email = `bench-${Math.random().toString(36).slice(2, 10)}@bench.test`;
  const res = await fetch(`${BASE}/api/test-fixtures`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: "bench-password-1", agencyName }),
  });
  if (!res.ok) throw new Error(`fixture failed: ${res.status} ${await res.text()}`);
  const body = /** @type {{ tenantId: string; sessionCookie: string }} */ (await res.json());
  return { tenantId: body.tenantId, cookie: `__session=${body.sessionCookie}` };
}

async function reuseMain(/** @type {pg.Pool} */ pool) {
  const { rows } = await pool.query("select id from tenants where name = $1 order by created_at desc limit 1", [MAIN_NAME]);
  if (!rows[0]) throw new Error("--keep: no previous bench tenant");
  // A fresh session for the existing tenant's admin: add a user to it through the fixture route.
  const email = `bench-${Math.random().toString(36).slice(2, 10)}@bench.test`;
  const res = await fetch(`${BASE}/api/test-fixtures`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: "bench-password-1", tenantId: rows[0].id }),
  });
  const body = /** @type {{ tenantId: string; sessionCookie: string }} */ (await res.json());
  return { tenantId: body.tenantId, cookie: `__session=${body.sessionCookie}` };
}

async function removePreviousRun(/** @type {pg.Pool} */ pool) {
  const t0 = performance.now();
  const { rowCount } = await pool.query("delete from tenants where name like 'Bench %'");
  if (rowCount) console.info(`removed ${rowCount} tenant(s) of a previous run in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

/**
 * One tenant's book with large multi-row inserts: column arrays through unnest(), 10,000 rows a
 * statement. About 2.5 policies per customer; expirations spread over the past month and the
 * next year; prior premiums give a year of renewal history; 15 % have the carrier's offer.
 */
async function generateBook(
  /** @type {pg.Pool} */ pool,
  /** @type {string} */ tenantId,
  /** @type {number} */ count,
  /** @type {number} */ seed,
) {
  const rand = seeded(seed);
  const pick = (/** @type {string[]} */ list) => list[Math.floor(rand() * list.length)];
  const today = new Date(`${day(new Date())}T00:00:00Z`);
  const customerCount = Math.ceil(count / 2.5);
  const customerIds = [];
  const CHUNK = 10_000;
  for (let start = 0; start < customerCount; start += CHUNK) {
    const n = Math.min(CHUNK, customerCount - start);
    const cols = {
      id: /** @type {string[]} */ ([]),
      key: /** @type {string[]} */ ([]),
      name: /** @type {string[]} */ ([]),
      email: /** @type {string[]} */ ([]),
      state: /** @type {string[]} */ ([]),
      producer: /** @type {string[]} */ ([]),
    };
    for (let i = 0; i < n; i++) {
      const id = crypto.randomUUID();
      const name = `${pick(FIRST)} ${pick(LAST)} ${start + i}`;
      customerIds.push(id);
      cols.id.push(id);
      cols.key.push(`C${start + i}`);
      cols.name.push(name);
      cols.email.push(`${name.toLowerCase().replace(/\s+/g, ".")}@example.com`);
      cols.state.push(pick(STATES));
      cols.producer.push(pick(PRODUCERS));
    }
    await pool.query(
      `insert into customers (id, tenant_id, source_key, name, email, state, producer)
       select id, $1, k, n, e, s, p from unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) as t(id, k, n, e, s, p)`,
      [tenantId, cols.id, cols.key, cols.name, cols.email, cols.state, cols.producer],
    );
  }
  for (let start = 0; start < count; start += CHUNK) {
    const n = Math.min(CHUNK, count - start);
    /** @type {Record<string, unknown[]>} */
    const c = {
      customer: [],
      key: [],
      number: [],
      line: [],
      carrier: [],
      status: [],
      inception: [],
      effective: [],
      expiration: [],
      premium: [],
      prior: [],
      renewal: [],
      state: [],
      producer: [],
    };
    for (let i = 0; i < n; i++) {
      const seq = start + i;
      let r = rand();
      let line = LINES[0];
      for (let k = 0; k < LINES.length; k++) {
        if (r < LINE_WEIGHTS[k]) {
          line = LINES[k];
          break;
        }
        r -= LINE_WEIGHTS[k];
      }
      const expiration = addDays(today, Math.floor(rand() * 395) - 30);
      const effective = addDays(expiration, -365);
      const firstTerm = rand() < 0.08;
      const premium = Math.round((400 + rand() * rand() * 9000) * 100) / 100;
      const lastRate = 0.06 + (rand() - 0.5) * 0.1;
      const nextRate = 0.07 + (rand() - 0.4) * 0.2;
      const daysOut = Math.round((expiration.getTime() - today.getTime()) / 86_400_000);
      c.customer.push(customerIds[Math.floor(rand() * customerIds.length)]);
      c.key.push(`P${seq}`);
      c.number.push(`${line.slice(0, 1)}${String(10_000_000 + seq)}`);
      c.line.push(line);
      c.carrier.push(pick(CARRIERS));
      c.status.push(rand() < 0.93 ? "active" : pick(["cancelled", "expired", "non_renewed"]));
      c.inception.push(day(firstTerm ? effective : addDays(effective, -365 * (1 + Math.floor(rand() * 6)))));
      c.effective.push(day(effective));
      c.expiration.push(day(expiration));
      c.premium.push(rand() < 0.005 ? 0 : premium);
      c.prior.push(firstTerm ? null : Math.round((premium / (1 + lastRate)) * 100) / 100);
      c.renewal.push(daysOut >= 0 && daysOut <= 45 && rand() < 0.6 ? Math.round(premium * (1 + nextRate) * 100) / 100 : null);
      c.state.push(pick(STATES));
      c.producer.push(pick(PRODUCERS));
    }
    await pool.query(
      `insert into policies (tenant_id, customer_id, source_key, policy_number, line_of_business, carrier_name, status,
         inception_date, effective_date, expiration_date, term_months, premium, prior_premium, renewal_premium, risk_state, producer)
       select $1, cu, k, nu, l, ca, st, i, ef, ex, 12, pr, pp, rp, rs, pd
       from unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::date[], $9::date[], $10::date[],
         $11::numeric[], $12::numeric[], $13::numeric[], $14::text[], $15::text[]) as t(cu, k, nu, l, ca, st, i, ef, ex, pr, pp, rp, rs, pd)`,
      [
        tenantId,
        c.customer,
        c.key,
        c.number,
        c.line,
        c.carrier,
        c.status,
        c.inception,
        c.effective,
        c.expiration,
        c.premium,
        c.prior,
        c.renewal,
        c.state,
        c.producer,
      ],
    );
  }
}

async function timedRecompute(/** @type {pg.Pool} */ pool, /** @type {{ tenantId: string; cookie: string }} */ main) {
  const r = await recompute(pool, main, true);
  console.info(
    `forecast recompute for ${fmt(r.evaluated)} renewals of the ${fmt(POLICIES)}-policy tenant: ${(r.durationMs / 1000).toFixed(1)} s in the job (${fmt(Math.round(r.evaluated / (r.durationMs / 1000)))} renewals/s), ${(r.wallMs / 1000).toFixed(1)} s from the request until done; ${fmt(r.flagged)} flagged`,
  );
  console.info(`  phases (ms): ${JSON.stringify(r.phases)}`);
  await pool.query("analyze renewal_flags; analyze renewal_forecasts; analyze remarkets");
}

/**
 * POST /forecast intent=recompute like the page's button (Origin header: the server's CSRF
 * check); a large book is computed by the `forecast.recompute` job, so wait for its run row.
 */
async function recompute(
  /** @type {pg.Pool} */ pool,
  /** @type {{ tenantId: string; cookie: string }} */ who,
  /** @type {boolean} */ verbose,
) {
  const before = await pool.query("select computed_at from forecast_runs where tenant_id = $1", [who.tenantId]);
  const t0 = performance.now();
  const res = await fetch(`${BASE}/forecast`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: who.cookie, Origin: BASE, "Content-Type": "application/x-www-form-urlencoded" },
    body: "intent=recompute",
  });
  if (res.status !== 302 && res.status !== 303 && res.status !== 204) throw new Error(`recompute request failed: ${res.status}`);
  if (verbose)
    console.info(`POST /forecast answered ${res.status} in ${(performance.now() - t0).toFixed(0)} ms; waiting for the computation…`);
  for (;;) {
    const { rows } = await pool.query(
      "select computed_at, evaluated, flagged, duration_ms, phases from forecast_runs where tenant_id = $1",
      [who.tenantId],
    );
    const run = rows[0];
    if (run && (!before.rows[0] || run.computed_at.getTime() !== before.rows[0].computed_at.getTime())) {
      return {
        evaluated: Number(run.evaluated),
        flagged: Number(run.flagged),
        durationMs: Number(run.duration_ms),
        wallMs: performance.now() - t0,
        phases: run.phases,
      };
    }
    const { rows: failed } = await pool.query(
      "select last_error from jobs where tenant_id = $1 and type = 'forecast.recompute' and status = 'failed'",
      [who.tenantId],
    );
    if (failed[0]) throw new Error(`recompute job failed: ${failed[0].last_error}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function reportSizes(/** @type {pg.Pool} */ pool, /** @type {string} */ tenantId) {
  const { rows } = await pool.query(
    `select (select count(*) from policies) as policies, (select count(*) from policies where tenant_id = $1) as mine,
       (select count(*) from renewal_forecasts where tenant_id = $1) as forecasts, (select count(*) from renewal_flags where tenant_id = $1) as flags,
       (select count(*) from renewal_flags where tenant_id = $1 and status = 'open') as open`,
    [tenantId],
  );
  const r = rows[0];
  console.info(
    `rows: ${fmt(Number(r.policies))} policies in the database (${fmt(Number(r.mine))} for the bench tenant), ${fmt(Number(r.forecasts))} forecast rows, ${fmt(Number(r.flags))} flags (${fmt(Number(r.open))} open)`,
  );
}

async function mostFlagged(/** @type {pg.Pool} */ pool, /** @type {string} */ tenantId, /** @type {string} */ column) {
  const { rows } = await pool.query(
    `select ${column} as v, count(*) from renewal_flags where tenant_id = $1 and status = 'open' group by 1 order by 2 desc limit 1`,
    [tenantId],
  );
  return String(rows[0]?.v ?? "Travelers");
}

/** Sequential GETs with the session cookie; the loader's own row count is read from the page. */
async function timeRequests(/** @type {string} */ url, /** @type {string} */ cookie, /** @type {number} */ n) {
  /** @type {number[]} */
  const times = [];
  let rows = 0;
  for (let i = 0; i < n + 20; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { Cookie: cookie, Accept: "text/html" } });
    const body = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    if (i >= 20) times.push(ms);
    if (i === 0) rows = (body.match(/data-testid="worklist-row"/g) ?? []).length;
  }
  times.sort((a, b) => a - b);
  const q = (/** @type {number} */ p) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)];
  return { p50: q(0.5), p95: q(0.95), max: times[times.length - 1], rows };
}

/** EXPLAIN ANALYZE of the worklist's page and count queries (the SQL listWorklist sends). */
async function explain(/** @type {pg.Pool} */ pool, /** @type {string} */ tenantId, /** @type {string} */ carrier) {
  const where = `rf.tenant_id = $1 and rf.status = 'open' and rf.carrier_name = $2 and rf.line_of_business = 'PAUTO'`;
  const page = `select rf.id, rf.policy_id, rf.customer_name, rf.policy_number, rf.expiration_date, rf.change_pct, rf.why, r.id as remarket_id
    from renewal_flags rf left join remarkets r on r.tenant_id = rf.tenant_id and r.policy_id = rf.policy_id
    where ${where} order by rf.expiration_date, rf.id limit 25 offset 0`;
  const count = `select (select count(*) from (select 1 from renewal_flags rf where ${where} limit 1001) capped) as n, r.filter_options, r.computed_at
    from (select 1) one left join forecast_runs r on r.tenant_id = $1`;
  for (const [name, sql] of [
    ["page", page],
    ["count + forecast run", count],
  ]) {
    const { rows } = await pool.query(`explain (analyze, buffers, costs off) ${sql}`, [tenantId, carrier]);
    console.info(`\nEXPLAIN ANALYZE worklist ${name} query (open + carrier=${carrier} + line=PAUTO):`);
    for (const r of rows) console.info(`  ${r["QUERY PLAN"]}`);
  }
  // The dashboard's one statement (app/services/renewals/dashboard.server.ts) for the same tenant.
  const dashboard = `select
      (select count(*) from (select 1 from renewal_flags where tenant_id = $1 and status = 'open'
        and expiration_date >= current_date and expiration_date <= current_date + 30 limit 1001) d) as due_soon,
      (select count(*) from (select 1 from renewal_flags where tenant_id = $1 and status = 'open' limit 1001) o) as open_flags,
      (select computed_at from forecast_runs where tenant_id = $1) as computed_at,
      (select used from remarket_usage where tenant_id = $1 and quota_year = extract(year from current_date)::int) as used,
      b.annual_quota_override, b.subscription_id, b.subscription_status, b.plan, c.total, c.in_error, c.last_sync_at,
      (select expiration_date from policies where tenant_id = $1 order by expiration_date limit 1) is not null as has_book
    from (select 1) one
      left join billing_accounts b on b.tenant_id = $1
      left join lateral (
        select count(*) as total, count(*) filter (where status = 'error' or invalid_credentials) as in_error, max(last_sync_at) as last_sync_at
        from connections where tenant_id = $1 and status <> 'disconnected'
      ) c on true`;
  const { rows: plan } = await pool.query(`explain (analyze, buffers, costs off) ${dashboard}`, [tenantId]);
  console.info("\nEXPLAIN ANALYZE dashboard statement (the same tenant):");
  for (const r of plan) console.info(`  ${r["QUERY PLAN"]}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
