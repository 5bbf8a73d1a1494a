import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildApp, freePort, startServer, type RunningServer } from "../support/real-server";

// Issue 18 §2 and §4 against the real server (server/index.js): readiness for a load balancer,
// the drain after SIGTERM, the instance id on every answer, and Prometheus metrics on their own port.

let build: ReturnType<typeof buildApp>;
let server: RunningServer;
let metricsPort: number;

beforeAll(async () => {
  build = buildApp();
  metricsPort = await freePort();
  server = await startServer(build, { INSTANCE_ID: "web-a", METRICS_PORT: String(metricsPort) });
}, 240_000);

afterAll(async () => {
  await server?.stop();
  build?.remove();
});

const metricsText = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();

describe("readiness", () => {
  test("/readyz is 200 once the database answers with every migration applied, and says which instance answered", async () => {
    const response = await fetch(`${server.base}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("ready");
    expect(response.headers.get("x-remarket-instance")).toBe("web-a");
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  test("after SIGTERM /readyz turns 503 at once while pages are still served, each answer closing its connection; then the server exits", async () => {
    const draining = await startServer(build, { DRAIN_DELAY_MS: "2500" });
    const exited = once(draining.child, "exit");
    expect((await fetch(`${draining.base}/readyz`)).status).toBe(200);
    draining.child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));

    const ready = await fetch(`${draining.base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.text()).toBe("draining");
    const page = await fetch(`${draining.base}/auth/login`);
    expect(page.status).toBe(200);
    expect(page.headers.get("connection")).toBe("close");

    const [code] = await exited;
    expect(code).toBe(0);
    expect(draining.log()).toContain("draining: /readyz answers 503; still serving for 2500 ms");
  }, 60_000);
});

describe("metrics", () => {
  test("are not served on the public port", async () => {
    const response = await fetch(`${server.base}/metrics`, { redirect: "manual" });
    expect(response.status).not.toBe(200);
    expect(await response.text()).not.toContain("remarket_http_requests_total");
  });

  test("the metrics port counts requests by route pattern and status class, with latency, queue, database and event-loop figures", async () => {
    const id = "3f2b6c1e-8a4d-4c2b-9e7f-1a2b3c4d5e6f";
    await fetch(`${server.base}/readyz`);
    await fetch(`${server.base}/files/${id}`, { redirect: "manual" });
    await fetch(`${server.base}/no-such-page-${Date.now()}`, { redirect: "manual" });
    const text = await metricsText();

    expect(text).toMatch(/remarket_http_requests_total\{method="GET",route="\/readyz",status="2xx"\} [1-9]/);
    // The id is folded into the pattern: one series per route, never one per record.
    expect(text).toMatch(/remarket_http_requests_total\{method="GET",route="\/files\/:fileId",status="3xx"\} 1/);
    expect(text).not.toContain(id);
    expect(text).toMatch(/remarket_http_request_duration_seconds_bucket\{le="0\.05",method="GET",route="\/readyz"\} [1-9]/);
    expect(text).toMatch(/^remarket_jobs_queued \d+$/m);
    expect(text).toMatch(/^remarket_jobs_running \d+$/m);
    expect(text).toMatch(/^remarket_jobs_failed \d+$/m);
    expect(text).toMatch(/^remarket_jobs_oldest_due_age_seconds \d+(\.\d+)?$/m);
    expect(text).toMatch(/^remarket_import_rows_imported \d+$/m);
    expect(text).toMatch(/^remarket_database_up 1$/m);
    expect(text).toMatch(/^remarket_nodejs_eventloop_lag_seconds \d/m);
    // The pool exists only on PostgreSQL (.ci/run's second pass); the embedded database has none.
    if (process.env.DATABASE_URL) expect(text).toMatch(/^remarket_db_pool_connections\{state="total"\} [1-9]/m);
    else expect(text).not.toContain("remarket_db_pool_connections{");
    // A guessed path (sent to sign in by the catch-all route) shares the catch-all's one series.
    expect(text).toMatch(/remarket_http_requests_total\{method="GET",route="\/\*",status="3xx"\} [1-9]/);
    expect(text).not.toContain("no-such-page");
  });

  test("the metrics port answers nothing but GET /metrics", async () => {
    expect((await fetch(`http://127.0.0.1:${metricsPort}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { method: "POST" })).status).toBe(404);
  });
});

describe("structured logs", () => {
  test("each request is one JSON line with its request id, route and status, and the tenant and user once signed in; no secret, query or address", async () => {
    const logged = await startServer(build, { ACCESS_LOG: "true", INSTANCE_ID: "web-log" });
    try {
      const demo = await fetch(`${logged.base}/api/auth/demo-user`, {
        method: "POST",
        headers: { "X-Request-Id": "req-demo", "Content-Type": "application/json" },
        body: "{}",
      });
      const demoBody = (await demo.json()) as { access_token: string };
      expect(demo.status, JSON.stringify(demoBody)).toBe(201);
      const token = demoBody.access_token;
      const me = await fetch(`${logged.base}/api/auth/user?q=ann%40agency.test`, {
        headers: { Authorization: `Bearer ${token}`, "X-Request-Id": "req-me" },
      });
      const user = (await me.json()) as { id: string; email: string; tenant: { id: string } };
      expect(me.status, JSON.stringify(user)).toBe(200);
      await fetch(`${logged.base}/auth/login`, { headers: { "X-Request-Id": "req-page" } });

      const lines = await waitForLines(logged, (all) => all.some((l) => l.requestId === "req-page"));
      const line = (id: string) => lines.find((l) => l.msg === "request" && l.requestId === id);
      expect(line("req-me")).toMatchObject({
        level: "info",
        instance: "web-log",
        method: "GET",
        path: "/api/auth/user",
        status: 200,
        tenantId: user.tenant.id,
        userId: user.id,
      });
      expect(line("req-me")?.ms).toEqual(expect.any(Number));
      expect(line("req-page")).toMatchObject({ path: "/auth/login", route: "/auth/login", status: 200 });
      expect(line("req-page")).not.toHaveProperty("userId");
      expect(line("req-demo")).toMatchObject({ method: "POST", status: 201 });

      const text = logged.log();
      for (const secret of [token, user.email, "ann%40agency.test", "127.0.0.1:"]) expect(text).not.toContain(secret);
      // Every line on stdout is JSON (a collector reads them one by one).
      expect(lines.length).toBe(text.trim().split("\n").length);
    } finally {
      await logged.stop();
    }
  }, 60_000);
});

async function waitForLines(server: RunningServer, done: (lines: Record<string, unknown>[]) => boolean) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const lines = server
      .log()
      .trim()
      .split("\n")
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as Record<string, unknown>];
        } catch {
          return [];
        }
      });
    if (done(lines) || Date.now() > deadline) return lines;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
