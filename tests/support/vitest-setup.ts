import { beforeAll } from "vitest";
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

// Opening and migrating the worker's database takes seconds (more on a busy machine): do it under
// the hook timeout, not inside whichever test happens to run first.
beforeAll(async () => {
  const { getDb } = await import("~/db/client.server");
  await getDb();
});
