import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

// Without DATABASE_URL the suite runs on an in-memory PGlite per worker; .ci/run also runs it
// against a real PostgreSQL server by setting DATABASE_URL.
process.env.NODE_ENV = "test";
process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "remarket-test-"));
if (!process.env.DATABASE_URL) process.env.PGLITE_DIR ??= "memory://";
process.env.SESSION_SECRET ??= "test-session-secret-that-is-long-enough-0123456789";
process.env.ENCRYPTION_KEY ??= "0".repeat(64);
process.env.DEV_OUTBOX ??= "true";

// Open (and migrate) the worker's database before the first test, outside any test's time-out:
// on a loaded machine the first open can take tens of seconds.
const { beforeAll } = await import("vitest");
beforeAll(async () => {
  const { getDb } = await import("~/db/client.server");
  await getDb();
}, 180_000);
