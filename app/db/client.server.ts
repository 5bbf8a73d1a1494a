import path from "node:path";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { getEnv } from "~/env.server";
import { lockDataDir } from "./data-dir-lock.server";
import * as schema from "./schema";
import { sqlFileLogger } from "./sql-log.server";
import { startEmbeddedCache, type PGliteClient } from "./embedded-cache/embedded-client.server";
import { log } from "~/services/platform/log.server";

export type Schema = typeof schema;
/** One type for both drivers: PGlite (embedded) and node-postgres share Drizzle's Postgres core. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either the database or an open transaction: services accept both so they compose. */
export type DbOrTx = Db | Tx;

type PoolStats = { totalCount: number; idleCount: number; waitingCount: number };
type Opened = { db: Db; close: () => Promise<void>; driver: "pglite" | "postgres"; pool?: PoolStats };

const MIGRATIONS_FOLDER = path.resolve("app/db/migrations");
// A stable lock id so concurrent app instances on one PostgreSQL migrate one at a time.
const MIGRATION_LOCK_ID = 4_715_001;

let opening: Promise<Opened> | undefined;
let openedNow: Opened | undefined;

/** The process-wide database, opened and migrated on first use. */
export async function getDb(): Promise<Db> {
  return (await openOnce()).db;
}

export async function getDriver() {
  return (await openOnce()).driver;
}

/** The PostgreSQL pool's connection counts for the metrics, or null (embedded database, or not open yet). */
export function poolStats(): PoolStats | null {
  const pool = openedNow?.pool;
  return pool ? { totalCount: pool.totalCount, idleCount: pool.idleCount, waitingCount: pool.waitingCount } : null;
}

export async function closeDb() {
  if (!opening) return;
  const opened = await opening;
  opening = undefined;
  openedNow = undefined;
  await opened.close();
}

function openOnce() {
  opening ??= open().then(
    (opened) => (openedNow = opened),
    (error) => {
      opening = undefined;
      throw error;
    },
  );
  return opening;
}

async function open(): Promise<Opened> {
  const env = getEnv();
  if (env.DATABASE_URL) return openPostgres(env.DATABASE_URL);
  return openPglite(env.pgliteDir);
}

async function openPostgres(url: string): Promise<Opened> {
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.PG_POOL_MAX ?? 10) });
  // An idle connection dropped by the server (a restart, a failover) is reported here; unheard, the
  // event would end the process. The pool replaces the connection on the next query.
  pool.on("error", (error) => log.error({ area: "db", err: error.message }, "an idle PostgreSQL connection failed"));
  const db = drizzle(pool, { schema, logger: sqlFileLogger(getEnv().SQL_LOG_FILE) });
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    await migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
    client.release();
  }
  return { db: db as unknown as Db, close: () => pool.end(), driver: "postgres", pool };
}

async function openPglite(dir: string): Promise<Opened> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const { mkdir } = await import("node:fs/promises");
  let release = async () => {};
  if (!dir.startsWith("memory://")) {
    await mkdir(dir, { recursive: true });
    release = await lockDataDir(dir);
  }
  const client = await PGlite.create(dir);
  // The embedded read cache (app/db/embedded-cache) watches every statement from the first one on.
  const attachCache = getEnv().EMBEDDED_READ_CACHE ? startEmbeddedCache(client as unknown as PGliteClient) : null;
  const db = drizzle(client, { schema, logger: sqlFileLogger(getEnv().SQL_LOG_FILE) });
  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  attachCache?.(db as unknown as Db);
  // Closing moves the clock too, so a cached read asked of a closed database fails as any read does.
  const close = async () => {
    await client.close();
    await release();
  };
  return { db: db as unknown as Db, close, driver: "pglite" };
}
