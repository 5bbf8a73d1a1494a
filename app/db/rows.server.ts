import type { SQL } from "drizzle-orm";
import type { DbOrTx } from "./client.server";

/** Rows of a raw SQL query, typed by the caller (both drivers return `{ rows }`). */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
