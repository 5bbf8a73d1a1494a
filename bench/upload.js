// bench/upload: a 500 MB multipart upload through the real server (built, started here), streamed
// from this process without holding it in memory. Prints throughput and the server's peak RSS
// growth while receiving it. Target: growth ≤ 64 MB.  Usage: node bench/upload.js [megabytes]
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync, rmSync } from "node:fs";
import http from "node:http";
import path from "node:path";

const MB = Number(process.argv[2] ?? 500);
const PORT = Number(process.env.BENCH_PORT ?? 3140);
const BASE = `http://localhost:${PORT}`;
// Outputs (generated input, bundles, builds) live under data/, which git and tsc ignore.
const OUT = path.resolve("data/bench");
const buildDir = path.join(OUT, "build");
const dataDir = path.join(OUT, "upload-data");

console.log("building…");
execFileSync("npx", ["remix", "build"], {
  env: { ...process.env, BUILD_DIR: buildDir, BUILD_TEST_ROUTES: "true", NODE_ENV: "production" },
  stdio: "ignore",
});
rmSync(dataDir, { recursive: true, force: true });
const server = spawn(process.execPath, ["server/index.js"], {
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(PORT),
    BUILD_DIR: buildDir,
    DATA_DIR: dataDir,
    ENABLE_TEST_FIXTURES: "true",
    ACCESS_LOG: "false",
    RUN_WORKER: "false", // measure receiving the upload, not processing it
    UPLOAD_MAX_BYTES: String((MB + 10) * 1024 * 1024),
  },
  stdio: ["ignore", "ignore", "inherit"],
});
const rss = () => {
  const status = readFileSync(`/proc/${server.pid}/status`, "utf8");
  const kb = (/** @type {RegExp} */ re) => Number(re.exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb(/VmRSS:\s+(\d+)/), hwm: kb(/VmHWM:\s+(\d+)/) };
};

try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${BASE}/healthz`)).ok) break;
    } catch {
      // starting
    }
    if (i > 600) throw new Error("server did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
  const fixture = await fetch(`${BASE}/api/test-fixtures`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: `bench-${Date.now()}@example.test`, password: "secret-pass" }),
  });
  const cookie = `__session=${(await fixture.json()).sessionCookie}`;
  // Warm up (routes, database, storage) with a small upload, then take the baseline.
  await upload(cookie, 1);
  global.gc?.();
  await new Promise((r) => setTimeout(r, 500));
  const before = rss();
  let peak = before.rss;
  const sampler = setInterval(() => (peak = Math.max(peak, rss().rss)), 10);
  const started = performance.now();
  const result = await upload(cookie, MB);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const after = rss();
  peak = Math.max(peak, after.rss);
  console.log(`upload:          ${MB} MB in ${seconds.toFixed(2)} s → ${(MB / seconds).toFixed(1)} MB/s (HTTP ${result.status})`);
  console.log(`server RSS:      ${(before.rss / 1048576).toFixed(0)} MB before, peak ${(peak / 1048576).toFixed(0)} MB while receiving`);
  console.log(
    `peak RSS growth: ${((peak - before.rss) / 1048576).toFixed(1)} MB (target ≤ 64 MB); VmHWM growth ${((after.hwm - before.hwm) / 1048576).toFixed(1)} MB`,
  );
} finally {
  server.kill("SIGTERM");
  await once(server, "exit");
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * POST a generated CSV of `mb` megabytes as multipart/form-data, streamed with backpressure.
 * @param {string} cookie
 * @param {number} mb
 * @returns {Promise<{ status: number | undefined; body: string }>}
 */
async function upload(cookie, mb) {
  const boundary = `----remarket-bench-${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="domain"\r\n\r\npolicies\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench-${mb}mb.csv"\r\nContent-Type: text/csv\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const line = "1001,Avery Brooks,CA,PAUTO,Travelers,2026-01-15,1200.50\n";
  const chunk = Buffer.from(line.repeat(Math.floor(65536 / line.length)));
  const total = mb * 1024 * 1024;
  const req = http.request(`${BASE}/resources/files/upload`, {
    method: "POST",
    headers: {
      Cookie: cookie,
      Origin: BASE,
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
      "Content-Length": String(head.length + total + tail.length),
    },
  });
  /** @type {Promise<{ status: number | undefined; body: string }>} */
  const response = new Promise((resolve, reject) => {
    req.on("response", (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode, body }));
    });
    req.on("error", reject);
  });
  req.write(head);
  let sent = 0;
  while (sent < total) {
    const piece = total - sent >= chunk.length ? chunk : chunk.subarray(0, total - sent);
    sent += piece.length;
    if (!req.write(piece)) await once(req, "drain");
  }
  req.end(tail);
  const result = await response;
  if (result.status !== 200) throw new Error(`upload failed: ${result.status} ${result.body}`);
  return result;
}
