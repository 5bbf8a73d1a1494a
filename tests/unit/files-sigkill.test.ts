import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { appendFileSync, createWriteStream, mkdirSync, mkdtempSync, openAsBlob, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";

// Kill the real server with SIGKILL while it profiles a large file, start it again on the same
// database, and check that the job completes once: the file reaches Ready, nothing duplicated.

// A free port picked by the OS, so a busy machine's other servers never answer our health check.
let PORT = Number(process.env.SIGKILL_TEST_PORT ?? 0);
let BASE = "";
// Inside the checkout (under data/, ignored by git) so the build resolves node_modules.
mkdirSync(path.resolve("data"), { recursive: true });
const work = mkdtempSync(path.resolve("data", "sigkill-"));
const buildDir = path.join(work, "build");
const dataDir = path.join(work, "data");
const ROWS = 1_200_000;
let server: ChildProcess | null = null;
// On PostgreSQL the server gets a database of its own: the other test files' workers share the suite's
// database and would claim this file's job (without its upload folder), adding failed attempts.
let databaseUrl = "";
const privateDatabase = `sigkill_${process.pid}_${Date.now()}`;

async function onSuiteServer(statement: string) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function startServer() {
  const child = spawn(process.execPath, ["server/index.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(PORT),
      APP_URL: BASE,
      BUILD_DIR: buildDir,
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      PGLITE_DIR: databaseUrl ? "" : path.join(dataDir, "db"),
      ENABLE_TEST_FIXTURES: "true",
      ACCESS_LOG: process.env.DEBUG_SIGKILL ? "true" : "false",
      JOB_LEASE_MS: "15000",
      UPLOAD_MAX_BYTES: String(200 * 1024 * 1024),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // DEBUG_SIGKILL=1 keeps the server's output in data/sigkill-server.log.
  const log = (d: Buffer) => process.env.DEBUG_SIGKILL && appendFileSync(path.resolve("data/sigkill-server.log"), d);
  child.stdout?.on("data", log);
  child.stderr?.on("data", log);
  return child;
}

async function waitUntil<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      if (/server exited/.test(String(error))) throw error;
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const healthy = () =>
  waitUntil(
    async () => {
      if (server?.exitCode !== null) throw new Error(`the server exited with ${server?.exitCode}`);
      return (await fetch(`${BASE}/healthz`)).ok;
    },
    120_000,
    "the server",
  );

async function generateCsv(file: string) {
  const out = createWriteStream(file);
  out.write("policy_id,customer,state,premium,effective_date\n");
  let chunk = "";
  for (let i = 0; i < ROWS; i++) {
    chunk += `${100000 + i},Customer ${i % 5000},${["CA", "TX", "NY"][i % 3]},${(300 + (i % 4000) * 1.25).toFixed(2)},2025-${String(1 + (i % 12)).padStart(2, "0")}-15\n`;
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, "drain");
      chunk = "";
    }
  }
  out.end(chunk);
  await once(out, "finish");
}

async function freePort() {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeAll(async () => {
  if (process.env.DATABASE_URL) {
    await onSuiteServer(`create database ${privateDatabase}`);
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${privateDatabase}`;
    databaseUrl = url.toString();
  }
  PORT ||= await freePort();
  BASE = `http://localhost:${PORT}`;
  execFileSync("npx", ["remix", "build"], {
    env: { ...process.env, BUILD_DIR: buildDir, BUILD_TEST_ROUTES: "true", NODE_ENV: "production" },
    stdio: "ignore",
  });
}, 180_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill("SIGTERM");
    await once(server, "exit");
  }
  rmSync(work, { recursive: true, force: true });
  if (databaseUrl) await onSuiteServer(`drop database if exists ${privateDatabase} with (force)`);
});

test("SIGKILL during processing: after a restart the file reaches Ready once", async () => {
  server = startServer();
  await healthy();
  const fixture = await fetch(`${BASE}/api/test-fixtures`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: `sigkill-${Date.now()}@example.test`, password: "secret-pass" }),
  });
  const { sessionCookie } = (await fixture.json()) as { sessionCookie: string };
  const cookie = `__session=${sessionCookie}`;

  const csv = path.join(work, "large.csv");
  await generateCsv(csv);
  const form = new FormData();
  form.append("domain", "policies");
  form.append("file", await openAsBlob(csv), "large-book.csv");
  const uploaded = await fetch(`${BASE}/resources/files/upload`, { method: "POST", body: form, headers: { Cookie: cookie, Origin: BASE } });
  expect(uploaded.status).toBe(200);
  const { fileId } = (await uploaded.json()) as { fileId: string };
  type Status = {
    status: string;
    history: { status: string }[];
    job: { attempts: number; status: string; progress: { rows?: number } | null };
    hasReport: boolean;
  };
  const status = async () =>
    (await (await fetch(`${BASE}/resources/files/${fileId}/status`, { headers: { Cookie: cookie } })).json()) as Status;

  // Mid-processing: the worker has read some rows (progress recorded) but not finished.
  const mid = await waitUntil(
    async () => {
      const s = await status();
      return s.status === "Progress" && (s.job.progress?.rows ?? 0) > 0 ? s : null;
    },
    120_000,
    "processing to start",
  );
  expect(mid.job.attempts).toBe(1);
  server.kill("SIGKILL");
  await once(server, "exit");

  server = startServer();
  await healthy();
  const done = await waitUntil(
    async () => {
      const s = await status();
      return s.status === "Ready" || s.status === "Failed" ? s : null;
    },
    180_000,
    "the file to finish",
  );
  expect(done.status).toBe("Ready");
  expect(done.history.map((h) => h.status)).toEqual(["Uploaded", "Progress", "Processed", "Ready"]);
  expect(done.job).toMatchObject({ status: "succeeded", attempts: 2 });
  expect(done.hasReport).toBe(true);

  const report = await (await fetch(`${BASE}/files/${fileId}/report`, { headers: { Cookie: cookie } })).text();
  expect(report).toContain(`data-testid="report-rows">${ROWS.toLocaleString("en-US")}<`);
  const notifications = await (await fetch(`${BASE}/notifications`, { headers: { Cookie: cookie } })).text();
  expect(notifications.match(/large-book\.csv<\/a>/g)).toHaveLength(1);
}, 600_000);
