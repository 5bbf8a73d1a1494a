import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { networkInterfaces } from "node:os";
import path from "node:path";

// The production server (server/index.js) in a child process, for behaviour that lives in the
// HTTP layer: socket addresses, time-outs, body caps, start-up work. One build per test file.

/** A port the OS says is free now. */
export async function freePort() {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** This machine's first non-loopback IPv4 address: how another machine on the network reaches it. */
export function lanAddress() {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const a of addresses ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
  }
  throw new Error("This machine has no non-loopback IPv4 address to play another machine from.");
}

/** A build of the app in a throw-away folder under data/ (inside the checkout, so node_modules resolve). */
export function buildApp() {
  mkdirSync(path.resolve("data"), { recursive: true });
  const work = mkdtempSync(path.resolve("data", "http-"));
  const buildDir = path.join(work, "build");
  execFileSync("npx", ["remix", "build"], {
    env: { ...process.env, BUILD_DIR: buildDir, BUILD_TEST_ROUTES: "true", NODE_ENV: "production" },
    stdio: "ignore",
  });
  return { work, buildDir, remove: () => rmSync(work, { recursive: true, force: true }) };
}

export type RunningServer = {
  child: ChildProcess;
  base: string;
  port: number;
  dataDir: string;
  log: () => string;
  stop: () => Promise<void>;
};

/** Start server/index.js with `env` on a free port and wait for /healthz. */
export async function startServer(
  build: { work: string; buildDir: string },
  env: Record<string, string | undefined> | ((port: number) => Record<string, string | undefined>) = {},
  dataDir?: string,
): Promise<RunningServer> {
  const port = await freePort();
  const extra = typeof env === "function" ? env(port) : env;
  const dir = dataDir ?? mkdtempSync(path.join(build.work, "data-"));
  const child = spawn(process.execPath, ["server/index.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      APP_URL: `http://localhost:${port}`,
      BUILD_DIR: build.buildDir,
      DATA_DIR: dir,
      PGLITE_DIR: process.env.DATABASE_URL ? "" : path.join(dir, "db"),
      ENABLE_TEST_FIXTURES: "true",
      ACCESS_LOG: "false",
      DEV_OUTBOX: undefined,
      SMTP_URL: undefined,
      ...extra,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d));
  child.stderr?.on("data", (d: Buffer) => (output += d));
  const base = `http://localhost:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server/index.js exited with ${child.exitCode}:\n${output}`);
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`server/index.js did not become healthy:\n${output}`);
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    child,
    base,
    port,
    dataDir: dir,
    log: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/** Write raw bytes on a fresh TCP connection; resolves with what came back once the server closed it (or `waitMs` passed). */
export function rawExchange(host: string, port: number, write: (socket: net.Socket) => void | Promise<void>, waitMs = 10_000) {
  return new Promise<{ response: string; closedAfterMs: number | null }>((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, host);
    let response = "";
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ response, closedAfterMs: closed ? Date.now() - started : null });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on("data", (d) => (response += d.toString("latin1")));
    socket.on("close", () => finish(true));
    socket.on("error", () => finish(true));
    socket.on("connect", () => void Promise.resolve(write(socket)).catch(() => finish(true)));
  });
}
