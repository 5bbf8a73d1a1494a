import { once } from "node:events";
import { readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildApp, lanAddress, rawExchange, startServer, type RunningServer } from "../support/real-server";

// Issue 12, the parts that live in the HTTP server (server/index.js), tested against the real
// thing: the outbox's socket check (§1), body caps before parsing (§3), time-outs for slow
// clients and keep-alive (§5), the warning when mail reaches only the log (§1), and temporary
// upload files left by a crash (§5).

const LAN = lanAddress();
let build: ReturnType<typeof buildApp>;
let server: RunningServer;

// Short time-outs so the test runs in seconds; the defaults are checked in http-limits.server.test.ts.
const FAST = {
  HEADERS_TIMEOUT_MS: "1500",
  REQUEST_TIMEOUT_MS: "1500",
  UPLOAD_MIN_BYTES_PER_SECOND: "1000000",
  KEEP_ALIVE_TIMEOUT_MS: "8000",
};

beforeAll(async () => {
  build = buildApp();
  server = await startServer(build, { ...FAST, TRUST_PROXY: "true" });
}, 240_000);

afterAll(async () => {
  await server?.stop();
  build?.remove();
});

async function signedInCookie(base: string) {
  const response = await fetch(`${base}/api/test-fixtures`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: `http-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`, password: "secret-pass" }),
  });
  return `__session=${((await response.json()) as { sessionCookie: string }).sessionCookie}`;
}

const statusLine = (response: string) => Number(response.match(/^HTTP\/1\.1 (\d{3})/)?.[1] ?? 0);

describe("the development outbox (§1)", () => {
  test("answers a browser on this machine, and 404 to any other socket, whatever X-Forwarded-For says", async () => {
    expect((await fetch(`http://127.0.0.1:${server.port}/dev/outbox`)).status).toBe(200);
    expect((await fetch(`http://${LAN}:${server.port}/dev/outbox`)).status).toBe(404);
    expect((await fetch(`http://${LAN}:${server.port}/dev/outbox`, { headers: { "X-Forwarded-For": "127.0.0.1" } })).status).toBe(404);
    expect((await fetch(`http://${LAN}:${server.port}/dev/outbox.data`)).status).toBe(404);
    // Through a proxy on this machine: a loopback socket, but a forwarded request.
    expect((await fetch(`http://127.0.0.1:${server.port}/dev/outbox`, { headers: { "X-Forwarded-For": "198.51.100.7" } })).status).toBe(
      404,
    );
    expect((await fetch(`http://${LAN}:${server.port}/DEV/OUTBOX`)).status).toBe(404);
  });

  test("with a public APP_URL and no mail server: one warning at start-up, no outbox, the pages say to ask the administrator", async () => {
    const publicServer = await startServer(build, (port) => ({ APP_URL: `http://${LAN}:${port}` }));
    try {
      const warnings = publicServer.log().match(/\[mail\] SMTP_URL is not set and APP_URL .* is not a loopback address/g) ?? [];
      expect(warnings).toHaveLength(1);
      expect((await fetch(`http://127.0.0.1:${publicServer.port}/dev/outbox`)).status).toBe(404);
      const page = await (await fetch(`http://127.0.0.1:${publicServer.port}/auth/confirm-signup?email=a%40example.test`)).text();
      expect(page).toContain("ask your administrator for the code");
      expect(page).not.toContain('href="/dev/outbox"');
    } finally {
      await publicServer.stop();
    }
  }, 120_000);
});

describe("request bodies are capped before they are read (§3)", () => {
  test("a 30 MB JSON body is refused with 413 before a byte of it is sent", async () => {
    const { response, closedAfterMs } = await rawExchange(
      "127.0.0.1",
      server.port,
      (socket) => {
        socket.write(
          `POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${30 * 1024 * 1024}\r\n\r\n`,
        );
      },
      5_000,
    );
    expect(statusLine(response)).toBe(413);
    expect(response).toMatch(/content-type: application\/problem\+json/i);
    expect(response).toMatch(/"status":413,"detail":"The request body is larger than 1 MB/);
    expect(closedAfterMs).not.toBeNull();
  });

  test("a form body over the cap is a 413; a JSON body without a length (chunked) is a 411", async () => {
    const big = await fetch(`${server.base}/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.base },
      body: `email=a%40example.test&password=${"x".repeat(2 * 1024 * 1024)}`,
    });
    expect(big.status).toBe(413);
    const { response } = await rawExchange(
      "127.0.0.1",
      server.port,
      (socket) => {
        socket.write(
          'POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\n',
        );
      },
      5_000,
    );
    expect(statusLine(response)).toBe(411);
  });

  test("multipart is capped at the upload limit only where uploads are taken", async () => {
    const cookie = await signedInCookie(server.base);
    const form = () => {
      const f = new FormData();
      f.append("domain", "policies");
      f.append("file", new File([`a,b\n${"1,2\n".repeat(500_000)}`], "two-megabytes.csv"));
      return f;
    };
    const elsewhere = await rawExchange(
      "127.0.0.1",
      server.port,
      (socket) => {
        socket.write(
          `POST /auth/login HTTP/1.1\r\nHost: localhost\r\nOrigin: ${server.base}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n`,
        );
      },
      5_000,
    );
    expect(statusLine(elsewhere.response)).toBe(413);
    const upload = await fetch(`${server.base}/resources/files/upload`, {
      method: "POST",
      body: form(),
      headers: { Cookie: cookie, Origin: server.base },
    });
    expect(upload.status).toBe(200);
  });
});

describe("slow clients (§5)", () => {
  test("sockets that trickle their headers are closed soon after the headers time-out", async () => {
    const sockets = Array.from({ length: 40 }, () =>
      rawExchange(
        "127.0.0.1",
        server.port,
        async (socket) => {
          socket.write("GET / HTTP/1.1\r\nHost: localhost\r\n");
          for (let i = 0; i < 40 && !socket.destroyed; i++) {
            await new Promise((r) => setTimeout(r, 250));
            if (!socket.destroyed) socket.write("X");
          }
        },
        9_000,
      ),
    );
    const results = await Promise.all(sockets);
    for (const r of results) {
      expect(r.closedAfterMs).not.toBeNull();
      expect(r.closedAfterMs!).toBeLessThan(6_000);
    }
  }, 30_000);

  test("a body that trickles is cut off by its deadline; a large body sent steadily completes", async () => {
    const cookie = await signedInCookie(server.base);
    const declared = 1_000_000; // deadline: 1.5 s + 1 MB at 1 MB/s = 2.5 s
    const slow = await rawExchange(
      "127.0.0.1",
      server.port,
      async (socket) => {
        socket.write(
          `POST /resources/files/upload HTTP/1.1\r\nHost: localhost:${server.port}\r\nOrigin: ${server.base}\r\nCookie: ${cookie}\r\n` +
            `Content-Type: multipart/form-data; boundary=b\r\nContent-Length: ${declared}\r\n\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="slow.csv"\r\n\r\n`,
        );
        for (let i = 0; i < 100 && !socket.destroyed; i++) {
          await new Promise((r) => setTimeout(r, 100));
          if (!socket.destroyed) socket.write("a,b\n");
        }
      },
      12_000,
    );
    expect(slow.closedAfterMs).not.toBeNull();
    expect(slow.closedAfterMs!).toBeGreaterThan(2_000);
    expect(slow.closedAfterMs!).toBeLessThan(7_000);
    expect([0, 408]).toContain(statusLine(slow.response));

    // 3 MB at about 1.5 MB/s: two seconds, past the 1.5 s base but well inside 1.5 s + 3 s.
    const chunk = Buffer.alloc(150_000, "1,2\n");
    const paced = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(
          new TextEncoder().encode(
            '--b\r\nContent-Disposition: form-data; name="domain"\r\n\r\npolicies\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="steady.csv"\r\n\r\na,b\n',
          ),
        );
        for (let i = 0; i < 20; i++) {
          controller.enqueue(chunk);
          await new Promise((r) => setTimeout(r, 100));
        }
        controller.enqueue(new TextEncoder().encode("\r\n--b--\r\n"));
        controller.close();
      },
    });
    const length =
      Buffer.byteLength(
        '--b\r\nContent-Disposition: form-data; name="domain"\r\n\r\npolicies\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="steady.csv"\r\n\r\na,b\n',
      ) +
      20 * chunk.length +
      Buffer.byteLength("\r\n--b--\r\n");
    const steady = await fetch(`${server.base}/resources/files/upload`, {
      method: "POST",
      body: paced,
      duplex: "half",
      headers: { Cookie: cookie, Origin: server.base, "Content-Type": "multipart/form-data; boundary=b", "Content-Length": String(length) },
    } as RequestInit);
    expect(steady.status).toBe(200);
  }, 30_000);

  test("an idle keep-alive connection outlives Node's 5 s default (a load balancer closes it first)", async () => {
    const socket = net.connect(server.port, "127.0.0.1");
    await once(socket, "connect");
    let closedAt: number | null = null;
    const started = Date.now();
    socket.on("close", () => (closedAt = Date.now() - started));
    socket.on("data", () => {});
    socket.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n");
    await new Promise((r) => setTimeout(r, 6_500));
    expect(closedAt).toBeNull();
    socket.destroy();
  }, 15_000);
});

describe("temporary upload files left by a crash (§5)", () => {
  test("kill -9 mid-upload leaves a .part file; the next start removes it once it is an hour old", async () => {
    const crashing = await startServer(build, FAST);
    const cookie = await signedInCookie(crashing.base);
    const uploads = path.join(crashing.dataDir, "uploads");
    const parts = () => {
      const found: string[] = [];
      const walk = (dir: string) => {
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
          const full = path.join(dir, entry.name);
          if (entry.isDirectory()) walk(full);
          else if (/\.part-[0-9a-f-]{36}$/.test(entry.name)) found.push(full);
        }
      };
      try {
        walk(uploads);
      } catch {
        // no uploads folder yet
      }
      return found;
    };

    const socket = net.connect(crashing.port, "127.0.0.1");
    await once(socket, "connect");
    socket.on("error", () => {});
    socket.write(
      `POST /resources/files/upload HTTP/1.1\r\nHost: localhost:${crashing.port}\r\nOrigin: ${crashing.base}\r\nCookie: ${cookie}\r\n` +
        `Content-Type: multipart/form-data; boundary=b\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n` +
        `--b\r\nContent-Disposition: form-data; name="domain"\r\n\r\npolicies\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\n\r\na,b\n`,
    );
    const block = Buffer.alloc(256 * 1024, "1,2\n");
    const written = () => parts().some((file) => statSync(file, { throwIfNoEntry: false })?.size);
    for (let i = 0; i < 80 && !written(); i++) {
      socket.write(block);
      await new Promise((r) => setTimeout(r, 50));
    }
    const [leftover] = parts();
    expect(leftover).toBeDefined();
    crashing.child.kill("SIGKILL");
    await once(crashing.child, "exit");
    socket.destroy();
    expect(statSync(leftover).size).toBeGreaterThan(0);

    // An hour later (the file's clock moved back), plus a fresh one another process may still be writing.
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(leftover, twoHoursAgo, twoHoursAgo);
    const fresh = path.join(path.dirname(leftover), "fresh.csv.part-00000000-0000-4000-8000-000000000000");
    writeFileSync(fresh, "a,b\n");

    const restarted = await startServer(build, FAST, crashing.dataDir);
    try {
      expect(parts()).toEqual([fresh]);
    } finally {
      await restarted.stop();
    }
  }, 180_000);
});
