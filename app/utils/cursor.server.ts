import { sql, type AnyColumn } from "drizzle-orm";
import { z } from "zod";
import { ServiceError } from "~/services/platform/errors.server";

// Keyset pagination for API lists: `limit` + an opaque `cursor` (base64url of the last row's sort
// key and id), stable when rows are inserted before or after it, unlike page numbers.

/** Rows in a page when the caller names no `limit`, and the most it may ask for. */
export const LIST_LIMIT_DEFAULT = 25;
export const LIST_LIMIT_MAX = 100;

/** The query fields every paginated list takes (the same names and rules everywhere). */
export const cursorQuery = {
  limit: z.coerce
    .number({ error: "limit must be a number." })
    .int("limit must be a whole number.")
    .min(1, `limit must be 1 to ${LIST_LIMIT_MAX}.`)
    .max(LIST_LIMIT_MAX, `limit must be 1 to ${LIST_LIMIT_MAX}.`)
    .optional(),
  cursor: z.string().max(500, "cursor is not one this API gave.").optional(),
};

export type Cursor = { key: string; id: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The opaque cursor that continues after a row. */
export function encodeCursor(cursor: Cursor) {
  return Buffer.from(JSON.stringify([cursor.key, cursor.id])).toString("base64url");
}

/** The row a cursor continues after; anything this API did not give is a 400. */
export function decodeCursor(value: string): Cursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    // Every list is ordered last by a uuid id: anything else would reach the database as a 500.
    if (Array.isArray(parsed) && parsed.length === 2 && parsed.every((p) => typeof p === "string") && UUID.test(parsed[1] as string)) {
      return { key: parsed[0] as string, id: parsed[1] as string };
    }
  } catch {
    // Falls through to the 400 below.
  }
  throw new ServiceError("cursor is not one this API gave.", 400, "cursor");
}

/** Rows of one keyset page: the `size + 1`-th row fetched only tells that there is a next page. */
export function cursorPage<T>(rows: T[], size: number, cursorOf: (last: T) => Cursor) {
  const more = rows.length > size;
  const page = more ? rows.slice(0, size) : rows;
  const last = page.at(-1);
  return { rows: page, nextCursor: more && last ? encodeCursor(cursorOf(last)) : null };
}

/** A timestamp column as a cursor key, to the microsecond (a JS Date keeps only milliseconds). */
export const timestampKey = (column: AnyColumn) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The timestamp of a cursor key made by `timestampKey`, checked before it reaches the database. */
export function timestampFromKey(key: string) {
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/.test(key)) throw new ServiceError("cursor is not one this API gave.", 400, "cursor");
  return key;
}
