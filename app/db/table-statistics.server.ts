import { sql } from "drizzle-orm";
import { getEnv } from "~/env.server";
import { describeError } from "./errors.server";
import { log } from "~/services/platform/log.server";
import type { Db } from "./client.server";

/** Tables an import and a forecast computation rewrite in bulk. */
export const BOOK_TABLES = ["customers", "policies", "renewal_forecasts", "renewal_flags"] as const;

type Table = (typeof BOOK_TABLES)[number] | "files" | "notifications" | "audit_events";

/**
 * Brings the planner's statistics (and, on the embedded database, the visibility map) up to date
 * after bulk writes. A PostgreSQL server's autovacuum does this on its own, in its own time, so
 * there a plain ANALYZE makes the pages right after an import plan with the new row counts. The
 * embedded database runs single-user, with no autovacuum: without a VACUUM there, an index-only
 * count of 50,000 policies still reads each row from the table ("Heap Fetches: 46607", 377 ms on
 * /customers in bench/pages.js --explain) and plans rest on the statistics of the empty tables.
 * Not in a transaction (VACUUM cannot run in one).
 */
export async function refreshTableStatistics(db: Db, tables: readonly Table[] = BOOK_TABLES) {
  const list = tables.join(", ");
  try {
    await db.execute(sql.raw(getEnv().DATABASE_URL ? `analyze ${list}` : `vacuum (analyze) ${list}`));
  } catch (error) {
    // Only speed rests on it: the work that called it has been done and stays done.
    log.warn({ area: "db", tables, err: describeError(error) }, "could not refresh the tables' statistics");
  }
}
