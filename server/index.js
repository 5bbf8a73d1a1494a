// The production server: security headers, compression, access log, static assets, Remix,
// background workers, graceful shutdown. Plain JavaScript so it runs without a build step.
// Logs are the app's structured JSON lines (app/services/platform/log.server.ts), one per line on stdout.
import { randomBytes, randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

const MODE = process.env.NODE_ENV ?? "production";
const PORT = Number(process.env.PORT ?? 3000);
const HOST = process.env.HOST ?? "0.0.0.0";
const BUILD_DIR = path.resolve(process.env.BUILD_DIR ?? "build");
const ASSETS_DIR = process.env.BUILD_DIR ? path.join(BUILD_DIR, "assets") : path.resolve("public/build");
const TRUST_PROXY = process.env.TRUST_PROXY === "true" || process.env.TRUST_PROXY === "1";
const ACCESS_LOG = process.env.ACCESS_LOG !== "false" && process.env.ACCESS_LOG !== "0";
const APP_URL = process.env.APP_URL ?? `http://localhost:${PORT}`;
const HTTPS = APP_URL.startsWith("https://");
// After SIGTERM, /readyz answers 503 for this long while requests are still served, so a balancer
// that checks every few seconds has stopped sending here before the server stops accepting.
const DRAIN_DELAY_MS = Number(process.env.DRAIN_DELAY_MS ?? 0);
// Prometheus metrics on their own port (never the public one); unset: no metrics endpoint.
const METRICS_PORT = process.env.METRICS_PORT ? Number(process.env.METRICS_PORT) : null;
const METRICS_HOST = process.env.METRICS_HOST || "127.0.0.1";
// Sign-in forms redirect to the identity provider, which form-action also governs.
const FORM_ACTION = ["'self'", ...ssoOrigins()].join(" ");

/** @returns {Promise<import("@remix-run/node").ServerBuild>} */
async function loadBuild() {
  return import(pathToFileURL(path.join(BUILD_DIR, "index.js")).href);
}

const build = await loadBuild();
/**
 * What the app's entry module offers the server (app/entry.server.tsx).
 * @type {{
 *   serverLimits: () => import("../app/utils/http-limits.server").HttpLimits;
 *   startBackground?: (o: { worker: boolean }) => Promise<() => Promise<void>>;
 *   readiness: () => Promise<{ ready: boolean; reason?: string }>;
 *   learnRoutes: (routes: import("@remix-run/node").ServerBuild["routes"]) => void;
 *   observeRequest: (method: string, path: string, status: number, seconds: number) => void;
 *   serveMetrics: (port: number, host: string) => () => Promise<void>;
 *   routePattern: (path: string, status: number) => string;
 *   log: import("pino").Logger;
 *   instanceId: string;
 *   withLogScope: <T>(scope: import("../app/services/platform/log.server").LogScope, fn: () => T) => T;
 * }}
 */
const entry = /** @type {any} */ (build.entry.module);
const limits = entry.serverLimits();
const log = entry.log;
// Which instance answered (X-Remarket-Instance): behind a balancer, logs and tests can tell them apart.
const INSTANCE_ID = entry.instanceId;
entry.learnRoutes(build.routes);
let draining = false;
// Routes that stream multipart uploads themselves, capped at UPLOAD_MAX_BYTES by app/utils/multipart.server.ts
// (answering in their own format); a multipart body anywhere else gets the small cap like any form.
const UPLOAD_PATHS =
  /^\/(files|resources\/files\/upload|create-connection(\/[^/]+)?|api\/connections\/ezlynx\/upload-csv|api\/files)(\.data)?\/?$/;
const app = express();
app.disable("x-powered-by");
if (TRUST_PROXY) app.set("trust proxy", true);

// Request id, client address and access log first, so every later failure is attributable.
app.use((req, res, next) => {
  const started = process.hrtime.bigint();
  const requestId = req.get("x-request-id")?.slice(0, 64) || randomUUID();
  res.locals.requestId = requestId;
  res.setHeader("X-Request-Id", requestId);
  res.setHeader("X-Remarket-Instance", INSTANCE_ID);
  // While draining, every answer closes its connection so keep-alive clients reconnect elsewhere.
  if (draining) res.setHeader("Connection", "close");
  // Services read the client address from this header; overwrite whatever the client sent.
  req.headers["x-remarket-client-ip"] = req.ip ?? "unknown";
  // The request's log scope: every line logged while it runs carries these ids, and the session
  // lookup adds the tenant and user to it (noteSignedIn), so the access line names them too.
  /** @type {import("../app/services/platform/log.server").LogScope} */
  const scope = { requestId };
  res.on("finish", () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    entry.observeRequest(req.method, req.path, res.statusCode, ms / 1000);
    // The path without its query: queries carry search words and one-time tokens.
    if (ACCESS_LOG) {
      log.info(
        {
          ...scope,
          method: req.method,
          path: req.path,
          route: entry.routePattern(req.path, res.statusCode),
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
          bytes: Number(res.getHeader("content-length") ?? 0) || undefined,
        },
        "request",
      );
    }
  });
  entry.withLogScope(scope, next);
});

// Readiness for a load balancer (/healthz stays liveness): 503 from the moment a drain starts, and
// until the database answers with every migration applied.
app.get("/readyz", async (_req, res) => {
  res.set("Cache-Control", "no-store").type("text/plain");
  if (draining) return void res.status(503).send("draining");
  const { ready, reason } = await entry.readiness();
  res.status(ready ? 200 : 503).send(ready ? "ready" : `not ready: ${reason}`);
});

// A slow body is cut off at its own deadline (a base plus its size at the slowest rate we wait for),
// so a 100 MB upload on a slow line completes while a trickle of a few bytes a second does not.
app.use((req, res, next) => {
  if (!hasBody(req)) return next();
  const declared = Number(req.headers["content-length"]);
  const timer = setTimeout(
    () => {
      if (req.complete) return;
      if (res.headersSent) return void req.socket.destroy();
      res.writeHead(408, { "Content-Type": "text/plain; charset=utf-8", Connection: "close" });
      res.end("The request body arrived too slowly.", () => req.socket.destroy());
    },
    limits.bodyDeadlineMs(Number.isFinite(declared) ? declared : limits.uploadBodyMaxBytes),
  );
  timer.unref();
  res.on("close", () => clearTimeout(timer));
  next();
});

// Bodies are capped before anything parses them: JSON, forms and other bodies at REQUEST_BODY_MAX_BYTES by
// their declared length (413), and they must declare it (411); upload routes stream and count their own.
app.use((req, res, next) => {
  if (!hasBody(req)) return next();
  const multipart = (req.headers["content-type"] ?? "").toLowerCase().startsWith("multipart/form-data");
  if (multipart && UPLOAD_PATHS.test(req.path)) return next();
  const length = req.headers["content-length"];
  if (length === undefined) return refuseBody(req, res, 411, "Send the request body with a Content-Length.");
  if (Number(length) > limits.requestBodyMaxBytes) {
    return refuseBody(req, res, 413, `The request body is larger than ${formatMegabytes(limits.requestBodyMaxBytes)}.`);
  }
  next();
});

app.use((req, res, next) => {
  const nonce = randomBytes(16).toString("base64");
  res.locals.cspNonce = nonce;
  res.setHeader(
    "Content-Security-Policy",
    [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}'`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      "connect-src 'self'",
      `form-action ${FORM_ACTION}`,
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "object-src 'none'",
    ].join("; "),
  );
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  if (HTTPS) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  next();
});

// Cross-site request forgery: SameSite=Lax cookies plus a same-origin check on every write.
// API routes use bearer tokens (no ambient cookies) and webhooks are signed, so they are exempt.
app.use((req, res, next) => {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
  if (req.path.startsWith("/api/") || req.path.startsWith("/webhooks/")) return next();
  const source = req.get("origin") ?? req.get("referer");
  const host = TRUST_PROXY ? (req.get("x-forwarded-host") ?? req.get("host")) : req.get("host");
  let sameOrigin = false;
  try {
    sameOrigin = !!source && source !== "null" && new URL(source).host === host;
  } catch {
    sameOrigin = false;
  }
  if (!sameOrigin) {
    res.status(403).type("text/plain").send("Cross-site form submission refused.");
    return;
  }
  next();
});

app.use(compression());
app.use("/build", express.static(ASSETS_DIR, { immutable: true, maxAge: "1y" }));
// Only paths under public/'s own entries reach the disk: a page request costs no stat calls.
const PUBLIC_ENTRIES = new Set(readdirSync("public").filter((name) => name !== "build"));
const servePublic = express.static("public", { maxAge: "1h", index: false });
app.use((req, res, next) => (PUBLIC_ENTRIES.has(req.path.split("/")[1] ?? "") ? servePublic(req, res, next) : next()));

const remix = createRequestHandler({
  build,
  mode: MODE,
  // Called once per request; Remix hands this object to every loader and action of the request.
  // `memo` is what the loaders share (app/utils/request-scope.server.ts): a new one each time.
  // socketAddress is the TCP peer, never X-Forwarded-For: the development outbox trusts only it.
  getLoadContext: (req, res) => ({
    requestId: res.locals.requestId,
    cspNonce: res.locals.cspNonce,
    socketAddress: req.socket.remoteAddress,
    memo: new Map(),
  }),
});
app.all("*", remix);

const stopBackground = entry.startBackground
  ? await entry.startBackground({ worker: process.env.RUN_WORKER !== "false" && process.env.RUN_WORKER !== "0" })
  : async () => {};

// Slow clients: headers must arrive within HEADERS_TIMEOUT_MS (checked every second, not Node's 30 s);
// requestTimeout only backs up the per-body deadlines above; idle keep-alive connections outlive a load
// balancer's own idle time-out (KEEP_ALIVE_TIMEOUT_MS), so it is the balancer that closes them.
const server = http.createServer(
  {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.bodyDeadlineMs(limits.uploadBodyMaxBytes) + 60_000,
    connectionsCheckingInterval: 1_000,
  },
  app,
);
server.keepAliveTimeout = limits.keepAliveTimeoutMs;
server.listen(PORT, HOST, () => {
  log.info({ url: APP_URL, port: PORT, mode: MODE }, `Remarket listening on ${APP_URL}`);
});

const stopMetrics = METRICS_PORT === null ? null : entry.serveMetrics(METRICS_PORT, METRICS_HOST);

let shuttingDown = false;
/** @param {string} signal */
async function shutdown(signal) {
  if (shuttingDown) return;
  shuttingDown = true;
  draining = true;
  log.info({ signal }, `${signal} received: finishing requests and jobs in hand`);
  const force = setTimeout(() => process.exit(1), 15_000 + DRAIN_DELAY_MS);
  force.unref();
  if (DRAIN_DELAY_MS > 0) {
    log.info({ drainDelayMs: DRAIN_DELAY_MS }, `draining: /readyz answers 503; still serving for ${DRAIN_DELAY_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, DRAIN_DELAY_MS));
  }
  server.close();
  void stopMetrics?.();
  server.closeIdleConnections?.();
  try {
    await stopBackground();
  } finally {
    process.exit(0);
  }
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));

/** @param {import("express").Request} req */
function hasBody(req) {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

/**
 * Answer without reading the body; the connection closes after the answer.
 * @param {import("express").Request} req @param {import("express").Response} res @param {number} status @param {string} message
 */
function refuseBody(req, res, status, message) {
  res.status(status).set("Connection", "close");
  // /api/* answers RFC 9457 problem+json, as every other API failure (app/utils/problem.server.ts).
  if (req.path.startsWith("/api/")) {
    res
      .type("application/problem+json")
      .send(JSON.stringify({ type: "about:blank", title: REASONS[status] ?? "Error", status, detail: message }));
  } else res.type("text/plain").send(message);
}

/** @type {Record<number, string>} */
const REASONS = { 408: "Request Timeout", 411: "Length Required", 413: "Content Too Large" };

/** @param {number} bytes */
function formatMegabytes(bytes) {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

function ssoOrigins() {
  const ids = (process.env.OIDC_PROVIDERS ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const origins = [];
  for (const id of ids) {
    const issuer = process.env[`OIDC_${id.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_ISSUER`];
    try {
      if (issuer) origins.push(new URL(issuer).origin);
    } catch {
      // env.server.ts reports a bad issuer at start-up
    }
  }
  return origins;
}
