import autocannon, { type Result } from "autocannon";
import pg from "pg";
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { agencyReadyToImport, finished, formToken, pressTryTheDemo, startImport, waitForImport } from "../../scripts/cluster-client.js";
import { startCluster } from "../../scripts/cluster.js";

// Issue 18: two web instances and two workers on one PostgreSQL database and the S3 stand-in,
// behind HAProxy (scripts/cluster.js), proven together. Runs in .ci/run's PostgreSQL part
// (vitest.cluster.config.ts), alone: it starts and stops processes and loads the machine.

type Cluster = Awaited<ReturnType<typeof startCluster>>;
let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster({
    web: 2,
    workers: 2,
    dir: `data/cluster-test-${process.pid}`,
    testRoutes: true,
    // Fixtures for the import test; a short lease so the surviving worker reclaims a killed one's job
    // within seconds, and small batches so the kill lands between checkpoints.
    env: { ENABLE_TEST_FIXTURES: "true", JOB_LEASE_MS: "3000", IMPORT_BATCH_SIZE: "200" },
  });
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
  // Each process's log stays in <dir>/logs when a test failed, to read; a passing run leaves nothing.
  if (cluster && !failed) rmSync(cluster.dir, { recursive: true, force: true });
}, 60_000);

let failed = false;
afterEach((context) => {
  if (context.task.result?.state === "fail") failed = true;
});

/** Stops or starts the PostgreSQL server DATABASE_URL points at (Debian's cluster, as scripts/with-postgres.sh runs it). */
async function postgres(action: "stop" | "start") {
  const port = new URL(process.env.DATABASE_URL!).port || "5432";
  const clusters = execFileSync("pg_lsclusters", ["-h"], { encoding: "utf8" });
  const line = clusters.split("\n").find((l) => l.split(/\s+/)[2] === port);
  if (!line) throw new Error(`no PostgreSQL cluster on port ${port}:\n${clusters}`);
  const [version, name] = line.split(/\s+/);
  execFileSync("pg_ctlcluster", [version, name, action, ...(action === "stop" ? ["-m", "fast"] : [])], { stdio: "inherit" });
}

const direct = (index: number) => `http://127.0.0.1:${cluster.webs[index].port}`;

async function signedInEmail(base: string, cookie: string) {
  const page = (await (await fetch(`${base}/settings/account`, { headers: { cookie } })).text()).replaceAll("<!-- -->", "");
  return /Signed in as ([^<\s]+@[^<\s]+?)\.</.exec(page)?.[1] ?? null;
}

async function apiToken(base: string) {
  const response = await fetch(`${base}/api/auth/demo-user`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: "{}",
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { access_token: string }).access_token;
}

describe("a cluster behind HAProxy", () => {
  test("one session browses pages answered by both web instances", async () => {
    const cookie = await pressTryTheDemo(cluster.url, await formToken(cluster.url));
    const answeredBy = new Set<string>();
    for (const page of ["/", "/remarket", "/customers", "/files", "/notifications", "/billing"]) {
      const response = await fetch(`${cluster.url}${page}`, { headers: { cookie }, redirect: "manual" });
      expect(response.status, page).toBe(200);
      answeredBy.add(response.headers.get("x-remarket-instance") ?? "?");
    }
    expect([...answeredBy].sort()).toEqual(["web-1", "web-2"]);
  });

  test("a file uploaded through one instance is processed by a worker and its report served by the other", async () => {
    const token = await apiToken(cluster.url);
    const auth = { Authorization: `Bearer ${token}` };
    const csv = ["policy_number,premium,state", ...Array.from({ length: 200 }, (_, i) => `P${1000 + i},${500 + i},IL`)].join("\n");
    const form = new FormData();
    form.set("domain", "policies");
    form.set("file", new Blob([csv], { type: "text/csv" }), "cluster-upload.csv");
    const uploaded = await fetch(`${direct(0)}/api/files`, { method: "POST", headers: auth, body: form });
    expect(uploaded.status).toBe(201);
    expect(uploaded.headers.get("x-remarket-instance")).toBe("web-1");
    const { fileId } = ((await uploaded.json()) as { data: { fileId: string } }).data;

    let report = null as { data?: { report?: unknown } } | null;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const answer = await fetch(`${direct(1)}/api/files/eda-report?fileId=${fileId}`, { headers: auth });
      expect(answer.headers.get("x-remarket-instance")).toBe("web-2");
      if (answer.status === 200) {
        report = (await answer.json()) as typeof report;
        if (report?.data?.report) break;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(report?.data?.report, "the report, made by a worker, read through the other instance").toBeTruthy();
    // 200 data rows under the header, as uploaded.
    expect(JSON.stringify(report)).toContain('"rows":200');
  }, 90_000);

  test("the sign-in limit counts attempts made at either instance", async () => {
    const email = `cluster-limit-${Date.now()}@example.test`;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const response = await fetch(`${direct(attempt % 2)}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email, password: "not-the-password" }),
      });
      statuses.push(response.status);
    }
    // Five refusals shared by the two instances (RATE_LIMIT_LOGIN_PER_EMAIL_IP), then the limit.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  }, 90_000);

  test("a one-time form token replayed against the other instance applies once", async () => {
    const token = await formToken(direct(0));
    const first = await pressTryTheDemo(direct(0), token);
    const replay = await pressTryTheDemo(direct(1), token);
    const [firstEmail, replayEmail] = [await signedInEmail(direct(0), first), await signedInEmail(direct(1), replay)];
    expect(firstEmail).toMatch(/@demo\.remarket\.test$/);
    // The replay signed into the demo agency the first press made, instead of making a second one.
    expect(replayEmail).toBe(firstEmail);
  });

  test("kill -9 of the worker running an import: the other worker resumes it after the lease, and the result equals one clean run", async () => {
    const POLICIES = 12_000;
    const crashed = await agencyReadyToImport(cluster.url, "crashed", POLICIES);
    const clean = await agencyReadyToImport(cluster.url, "clean", POLICIES);

    await startImport(cluster.url, crashed);
    const midway = await waitForImport(cluster.url, crashed, (s) => s.run?.status === "running" && s.run.checkpoint > 0);
    expect(midway.run!.checkpoint).toBeLessThan(POLICIES);
    // The worker holding the import's job: its id starts with its process id (app/services/platform/jobs.server.ts).
    const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    const held = await db.query<{ locked_by: string }>("select locked_by from jobs where status = 'running' and tenant_id = $1", [
      crashed.tenantId,
    ]);
    await db.end();
    const holder = cluster.workers.findIndex((w) => held.rows.some((r) => r.locked_by.startsWith(`worker-${w.child.pid}-`)));
    expect(holder, `a worker of the cluster holds the job (${JSON.stringify(held.rows)})`).toBeGreaterThanOrEqual(0);
    cluster.workers[holder].child.kill("SIGKILL");
    await cluster.workers[holder].exited;

    const resumed = await waitForImport(cluster.url, crashed, finished);
    expect(resumed.run!.status).toBe("succeeded");
    cluster.restartWorker(holder);

    await startImport(cluster.url, clean);
    const reference = await waitForImport(cluster.url, clean, finished);
    expect(reference.run!.status).toBe("succeeded");
    expect(resumed.counts).toEqual(reference.counts);
    expect(resumed.digest).toBe(reference.digest);
    for (const k of ["rowsRead", "rowsImported", "rowsRejected", "rowsFiltered"] as const) expect(resumed.run![k]).toBe(reference.run![k]);
    expect(resumed.run!.rowsRead).toBe(POLICIES);
  }, 240_000);

  test("PostgreSQL stopped for 10 s under load: calm 503s and /readyz 503, no crash, and everything recovers by itself with no lost job", async () => {
    const cookie = await pressTryTheDemo(cluster.url, await formToken(cluster.url));
    const token = await apiToken(cluster.url);
    // A job in the queue as the database goes: a file to profile.
    const form = new FormData();
    form.set("domain", "customers");
    form.set(
      "file",
      new Blob([["name,state", ...Array.from({ length: 50 }, (_, i) => `Customer ${i},IL`)].join("\n")], { type: "text/csv" }),
      "outage.csv",
    );
    const uploaded = await fetch(`${direct(0)}/api/files`, { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
    expect(uploaded.status).toBe(201);
    const { fileId } = ((await uploaded.json()) as { data: { fileId: string } }).data;

    const seen = new Map<string, number>();
    const note = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        for (const i of [0, 1]) {
          const page = await fetch(`${direct(i)}/`, { headers: { cookie }, redirect: "manual" }).catch(() => null);
          if (!page) note("page: no answer");
          else {
            const body = await page.text();
            note(`page: ${page.status}`);
            if (page.status === 503 && body.includes("Remarket is briefly unavailable")) note("page: calm 503");
          }
          const ready = await fetch(`${direct(i)}/readyz`).catch(() => null);
          note(`readyz: ${ready?.status ?? "no answer"}`);
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    const load = autocannon({ url: `${direct(0)}/`, connections: 8, duration: 30, headers: { cookie } }, () => {});

    await postgres("stop");
    await new Promise((r) => setTimeout(r, 10_000));
    const outage = new Map(seen);
    seen.clear();
    await postgres("start");

    // Recovery by itself: both instances ready and serving again within 30 s.
    const deadline = Date.now() + 30_000;
    let recovered = false;
    while (!recovered && Date.now() < deadline) {
      const answers = await Promise.all(
        [0, 1].map((i) =>
          fetch(`${direct(i)}/`, { headers: { cookie }, redirect: "manual" }).then(
            (r) => r.status,
            () => 0,
          ),
        ),
      );
      const ready = await Promise.all(
        [0, 1].map((i) =>
          fetch(`${direct(i)}/readyz`).then(
            (r) => r.status,
            () => 0,
          ),
        ),
      );
      recovered = [...answers, ...ready].every((status) => status === 200);
      if (!recovered) await new Promise((r) => setTimeout(r, 500));
    }
    sampling = false;
    await sampler;
    load.stop();
    console.info(`while PostgreSQL was stopped: ${JSON.stringify(Object.fromEntries(outage))}`);

    expect(recovered, "both instances ready and serving within 30 s of PostgreSQL's return").toBe(true);
    expect(outage.get("page: calm 503") ?? 0, "the calm 503 page while the database was away").toBeGreaterThan(0);
    expect(outage.get("readyz: 503") ?? 0).toBeGreaterThan(0);
    expect(outage.get("page: 500") ?? 0, "no 500 page").toBe(0);
    expect(outage.get("page: no answer") ?? 0, "no dropped connection").toBe(0);
    for (const member of [...cluster.webs, ...cluster.workers]) expect(member.child.exitCode, `${member.name} is still running`).toBeNull();

    // No lost job: the file queued as the database went is profiled, and no job failed for good.
    let profiled = false;
    for (const until = Date.now() + 60_000; !profiled && Date.now() < until;) {
      const answer = await fetch(`${direct(1)}/api/files/eda-report?fileId=${fileId}`, { headers: { Authorization: `Bearer ${token}` } });
      profiled = answer.status === 200 && Boolean(((await answer.json()) as { data?: { report?: unknown } }).data?.report);
      if (!profiled) await new Promise((r) => setTimeout(r, 500));
    }
    expect(profiled, "the file queued before the outage was profiled").toBe(true);
    const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    const failed = await db.query("select type, last_error from jobs where status = 'failed'");
    await db.end();
    expect(failed.rows).toEqual([]);
  }, 180_000);

  test("a rolling restart of both web instances under steady load fails no request", async () => {
    const cookie = await pressTryTheDemo(cluster.url, await formToken(cluster.url));
    let finished: (result: Result) => void = () => {};
    const done = new Promise<Result>((resolve) => (finished = resolve));
    const load = autocannon({ url: `${cluster.url}/`, connections: 16, duration: 1_000, headers: { cookie } }, (error, result) => {
      if (error) throw error;
      finished(result);
    });
    await new Promise((r) => setTimeout(r, 2_000));
    await cluster.restartWeb(0);
    await cluster.restartWeb(1);
    await new Promise((r) => setTimeout(r, 1_000));
    load.stop();
    const result = await done;
    console.info(
      `rolling restart under load: ${result.requests.total} requests, ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} time-outs, p99 ${result.latency.p99} ms`,
    );
    expect(result.requests.total).toBeGreaterThan(100);
    expect(result.errors + result.timeouts).toBe(0);
    expect(result.non2xx).toBe(0);
  }, 180_000);
});
