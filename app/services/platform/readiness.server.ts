import { readFile } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { describeError } from "~/db/errors.server";

// /readyz: may a load balancer send this instance requests? Only when the database answers and
// every migration this code knows is applied. While another instance holds the migration lock
// the database is still opening here, so the check answers "not ready" instead of waiting.

const CHECK_TIMEOUT_MS = 2_000;
let expectedMigrations: Promise<number> | undefined;

export type Readiness = { ready: true } | { ready: false; reason: string };

export async function readiness(): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Readiness>((resolve) => {
    timer = setTimeout(() => resolve({ ready: false, reason: "the database did not answer within 2 s" }), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function check(): Promise<Readiness> {
  try {
    const db = await getDb();
    const result = (await db.execute(sql`select count(*) as applied from drizzle.__drizzle_migrations`)) as unknown as {
      rows: { applied: string }[];
    };
    const applied = Number(result.rows[0]?.applied ?? 0);
    const expected = await (expectedMigrations ??= countJournalEntries());
    if (applied < expected) return { ready: false, reason: `${applied} of ${expected} migrations applied` };
    return { ready: true };
  } catch (error) {
    return { ready: false, reason: `database unavailable: ${describeError(error)}` };
  }
}

async function countJournalEntries() {
  const journal = JSON.parse(await readFile(path.resolve("app/db/migrations/meta/_journal.json"), "utf8")) as { entries: unknown[] };
  return journal.entries.length;
}
