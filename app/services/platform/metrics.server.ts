import http from "node:http";
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import { sql } from "drizzle-orm";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { Db } from "~/db/client.server";
import { log } from "~/services/platform/log.server";

// What an operator scrapes (Prometheus text format) from each instance on its own metrics port:
// requests by route pattern and status class, latency, the job queue, import throughput, the
// database pool and the process (event-loop lag, memory, CPU). Labels never carry ids, tenants,
// users or query strings, so the series stay few and hold no personal data.

const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: "remarket_" });

const requests = new Counter({
  name: "remarket_http_requests_total",
  help: "HTTP requests answered, by method, route pattern and status class",
  labelNames: ["method", "route", "status"] as const,
  registers: [registry],
});

const latency = new Histogram({
  name: "remarket_http_request_duration_seconds",
  help: "Time from the request's arrival to the end of its answer, by route pattern",
  labelNames: ["method", "route"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

const ID_SEGMENT = /\/(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+)(?=\/|$)/gi;
// Answered by server/index.js itself, before the app's routes.
const SERVER_PATHS = new Set(["/readyz"]);

type ManifestRoute = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean };
let routeTree: AgnosticRouteObject[] | null = null;

/** The app's routes (the server build's manifest), so requests are labelled by the route that answers them. */
export function learnRoutes(manifest: Record<string, ManifestRoute>) {
  const children = (parentId: string | undefined): AgnosticRouteObject[] =>
    Object.values(manifest)
      .filter((route) => route.parentId === parentId)
      .map((route) =>
        route.index
          ? { id: route.id, path: route.path, index: true }
          : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: children(route.id) },
      );
  routeTree = children(undefined);
}

/**
 * The route pattern of a request, as the app's routes spell it ("/customers/:id", "/*" for the
 * catch-all): one series per route, never one per id or per guessed path. A single-fetch `.data`
 * request counts under its page; a 404 is "(unmatched)".
 */
export function routePattern(path: string, status: number) {
  if (status === 404) return "(unmatched)";
  if (path.startsWith("/build/")) return "/build/*";
  if (SERVER_PATHS.has(path)) return path;
  if (!routeTree) return "(unknown)";
  // Ids become one placeholder first, so the router's match cache serves every customer's page from one entry.
  const pathname = path === "/_root.data" ? "/" : path.replace(/\.data$/, "").replace(ID_SEGMENT, "/_");
  const matches = matchRoutes(routeTree, pathname);
  if (!matches) return "(unmatched)";
  const pattern = matches
    .map((m) => m.route.path ?? "")
    .filter(Boolean)
    .join("/");
  return `/${pattern}`;
}

export function observeRequest(method: string, path: string, status: number, seconds: number) {
  const route = routePattern(path, status);
  requests.inc({ method, route, status: `${Math.floor(status / 100)}xx` });
  latency.observe({ method, route }, seconds);
}

type PoolStats = { totalCount: number; idleCount: number; waitingCount: number };
type Sources = { db: () => Promise<Db>; pool: () => PoolStats | null };
let sources: Sources | null = null;

/** Where the gauges read from at scrape time: the database (queue, imports) and the driver's pool. */
export function registerMetricSources(next: Sources) {
  sources = next;
}

new Gauge({
  name: "remarket_jobs_queued",
  help: "Jobs waiting to run (due now or later)",
  registers: [registry],
  async collect() {
    this.set((await queueFigures())?.queued ?? 0);
  },
});
new Gauge({
  name: "remarket_jobs_running",
  help: "Jobs claimed by a worker and not finished",
  registers: [registry],
  async collect() {
    this.set((await queueFigures())?.running ?? 0);
  },
});
new Gauge({
  name: "remarket_jobs_oldest_due_age_seconds",
  help: "How long the oldest job that is due has waited to be claimed (0 when none waits)",
  registers: [registry],
  async collect() {
    this.set((await queueFigures())?.oldestDueAgeSeconds ?? 0);
  },
});
new Gauge({
  name: "remarket_jobs_failed",
  help: "Jobs that failed for good (every attempt used); rises when work is lost",
  registers: [registry],
  async collect() {
    this.set((await queueFigures())?.failed ?? 0);
  },
});
new Gauge({
  name: "remarket_import_rows_imported",
  help: "Rows imported by finished import runs, all agencies; rate() of it is import rows per second",
  registers: [registry],
  async collect() {
    this.set((await queueFigures())?.rowsImported ?? 0);
  },
});
new Gauge({
  name: "remarket_db_pool_connections",
  help: "PostgreSQL pool connections by state (absent on the embedded database)",
  labelNames: ["state"] as const,
  registers: [registry],
  collect() {
    const pool = sources?.pool();
    if (!pool) return;
    this.set({ state: "total" }, pool.totalCount);
    this.set({ state: "idle" }, pool.idleCount);
    this.set({ state: "waiting" }, pool.waitingCount);
  },
});

type QueueFigures = { queued: number; running: number; failed: number; oldestDueAgeSeconds: number; rowsImported: number };
// One statement per scrape, shared by the gauges above (each gauge's collect asks for it).
let pending: Promise<QueueFigures | null> | null = null;

function queueFigures() {
  pending ??= readQueueFigures().finally(() => setTimeout(() => (pending = null), 0));
  return pending;
}

async function readQueueFigures(): Promise<QueueFigures | null> {
  if (!sources) return null;
  try {
    const db = await sources.db();
    // cross-tenant: the operator's view of the whole queue and all imports; only counts leave the database.
    const result = (await db.execute(sql`
      select
        (select count(*) from jobs where status = 'queued') as queued,
        (select count(*) from jobs where status = 'running') as running,
        (select count(*) from jobs where status = 'failed') as failed,
        (select extract(epoch from now() - min(run_at)) from jobs where status = 'queued' and run_at <= now()) as oldest_due_age_seconds,
        (select sum(rows_imported) from import_runs where status = 'succeeded') as rows_imported`)) as unknown as {
      rows: { queued: string; running: string; failed: string; oldest_due_age_seconds: string | null; rows_imported: string | null }[];
    };
    const row = result.rows[0];
    return {
      queued: Number(row.queued),
      running: Number(row.running),
      failed: Number(row.failed),
      oldestDueAgeSeconds: Math.max(0, Number(row.oldest_due_age_seconds ?? 0)),
      rowsImported: Number(row.rows_imported ?? 0),
    };
  } catch {
    // A scrape while the database is away shows the process metrics; the queue gauges read 0 and
    // remarket_database_up says why.
    return null;
  }
}

new Gauge({
  name: "remarket_database_up",
  help: "1 when the last scrape could read the database, else 0",
  registers: [registry],
  async collect() {
    this.set((await queueFigures()) ? 1 : 0);
  },
});

/** GET /metrics on its own listener (web servers and workers alike); resolves to a function that closes it. */
export function serveMetrics(port: number, host: string) {
  const server = http.createServer((req, res) => {
    if (req.method !== "GET" || req.url !== "/metrics") return void res.writeHead(404).end();
    registry.metrics().then(
      (body) => res.writeHead(200, { "Content-Type": registry.contentType }).end(body),
      (error: unknown) => {
        log.error({ area: "metrics", err: error }, "could not render the metrics");
        res.writeHead(500).end();
      },
    );
  });
  server.listen(port, host, () => log.info({ area: "metrics" }, `Metrics on http://${host}:${port}/metrics`));
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
