import { and, asc, desc, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { z } from "zod";
import { ServiceError } from "~/services/platform/errors.server";

// Keyset pagination and sorting for lists: `limit` + an opaque `cursor` (base64url of the sort it
// was made for and the last row's sort key, down to its id), stable when rows are inserted before
// or after it, unlike page numbers; `sort=<field>` or `sort=-<field>` (descending) the same on
// every list, each list declaring its fields (`listSort`).

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

/** What a sort key holds: how it is written into a cursor, and checked when it comes back. */
type KeyKind = "text" | "number" | "date" | "timestamp" | "uuid";

/** One column (or expression, never null) a list is ordered by, ascending unless `descending`. */
export type SortTerm = { expr: AnyColumn | SQL; kind: KeyKind; descending?: boolean };

/** A `sort` value: a field, descending with a leading "-". */
export type SortValue<F extends string> = F | `-${F}`;

const KEY_FORMATS: Record<KeyKind, RegExp> = {
  text: /^[\s\S]*$/,
  number: /^-?\d+(\.\d+)?$/,
  date: /^\d{4}-\d\d-\d\d$/,
  // Microseconds: a JS Date keeps only milliseconds, and rows of one millisecond must still part.
  timestamp: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
};

const CASTS: Record<KeyKind, SQL> = {
  text: sql.raw("text"),
  number: sql.raw("numeric"),
  date: sql.raw("date"),
  timestamp: sql.raw("timestamptz"),
  uuid: sql.raw("uuid"),
};

/** A term's value as the text a cursor carries. */
const keyText = (term: SortTerm) =>
  term.kind === "timestamp" ? sql`to_char(${term.expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')` : sql`(${term.expr})::text`;

const notGiven = () => new ServiceError("cursor is not one this API gave.", 400, "cursor");

/**
 * The orders a list offers: its `fields` (each a term, ascending), the `then` terms that break
 * ties whatever the field (ending with the row's id, so the order is total), the `default`, and
 * `aliases` a list took before (files' newest/oldest). A descending sort reverses its field only:
 * the ties keep their order.
 */
export function listSort<const F extends string, const A extends string = never>(spec: {
  fields: Record<F, SortTerm>;
  then: SortTerm[];
  default: NoInfer<SortValue<F>>;
  aliases?: Record<A, NoInfer<SortValue<F>>>;
}) {
  type Sort = SortValue<F> | A;
  const fields = Object.keys(spec.fields) as F[];
  const aliases = (spec.aliases ?? {}) as Record<A, SortValue<F>>;
  const values = [...fields.flatMap((f) => [f, `-${f}`] as SortValue<F>[]), ...(Object.keys(aliases) as A[])] as [Sort, ...Sort[]];

  /** The sort an alias stands for (cursors carry this one). */
  const canonical = (sort: Sort): SortValue<F> => (Object.hasOwn(aliases, sort) ? aliases[sort as A] : (sort as SortValue<F>));

  /** The terms of an order, first to last, with their directions. */
  function terms(sort: Sort): SortTerm[] {
    const value = canonical(sort);
    const descending = value.startsWith("-");
    const field = spec.fields[value.replace(/^-/, "") as F];
    return [{ ...field, descending }, ...spec.then.filter((t) => t.expr !== field.expr)];
  }

  return {
    fields,
    values,
    default: spec.default,
    /** The `sort` query field of an API list: an unknown value is a 400 naming the fields. */
    query: z
      .enum(values, {
        error: `sort is one of ${[...fields, ...Object.keys(aliases)].join(", ")} (a leading "-" sorts a field descending).`,
      })
      // The default is one of `values`; zod cannot see that through the generic.
      .default(spec.default as never)
      .meta({
        description:
          'The order: a field, descending with a leading "-"; ties break on the id. A cursor continues the sort it was made with.',
      }),
    /** The ORDER BY of a sort. */
    orderBy: (sort: Sort) => terms(sort).map((t) => (t.descending ? desc(t.expr) : asc(t.expr))),
    /** The column to select as `cursorKey`: the row's place in this order. */
    key: (sort: Sort) => sql<string>`json_build_array(${sql.join(terms(sort).map(keyText), sql`, `)})::text`,
    /**
     * The condition "after the cursor's row" in this order (undefined without a cursor). A cursor
     * made for another sort, or not by this API, is a 400 before anything reaches the database.
     */
    after(sort: Sort, cursor: string | undefined): SQL | undefined {
      if (!cursor) return undefined;
      const order = terms(sort);
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
      } catch {
        throw notGiven();
      }
      if (!Array.isArray(parsed) || !parsed.every((p) => typeof p === "string")) throw notGiven();
      const [madeFor, ...keys] = parsed as string[];
      if (madeFor !== canonical(sort) && (values as string[]).includes(madeFor)) {
        throw new ServiceError(`cursor was made for sort=${madeFor}: send that sort, or start again without a cursor.`, 400, "cursor");
      }
      if (madeFor !== canonical(sort) || keys.length !== order.length || order.some((t, i) => !KEY_FORMATS[t.kind].test(keys[i]!))) {
        throw notGiven();
      }
      const value = (i: number) => sql`${keys[i]}::${CASTS[order[i]!.kind]}`;
      const beyond = (descending?: boolean) => sql.raw(descending ? "<" : ">");
      const columns = sql.join(
        order.map((t) => t.expr),
        sql`, `,
      );
      const keyed = sql.join(
        order.map((_, i) => value(i)),
        sql`, `,
      );
      // All one way: a row comparison, which an index on the terms answers as a range.
      if (order.every((t) => !t.descending === !order[0]!.descending)) return sql`(${columns}) ${beyond(order[0]!.descending)} (${keyed})`;
      // Mixed: a beyond x, or a = x and b beyond y, …; the first term's bound (inclusive) leads, for its index.
      return and(
        sql`${order[0]!.expr} ${sql.raw(order[0]!.descending ? "<=" : ">=")} ${value(0)}`,
        or(
          ...order.map((term, i) =>
            and(...order.slice(0, i).map((t, j) => sql`${t.expr} = ${value(j)}`), sql`${term.expr} ${beyond(term.descending)} ${value(i)}`),
          ),
        ),
      );
    },
    /** Rows of one keyset page (the `size + 1`-th fetched only tells there is more) and the cursor of the next. */
    page<T extends { cursorKey: string }>(rows: T[], size: number, sort: Sort) {
      const more = rows.length > size;
      const page = (more ? rows.slice(0, size) : rows).map(({ cursorKey, ...row }) => ({ row, cursorKey }));
      const last = page.at(-1);
      const keys = last ? (JSON.parse(last.cursorKey) as string[]) : [];
      return {
        rows: page.map((p) => p.row),
        nextCursor: more && last ? Buffer.from(JSON.stringify([canonical(sort), ...keys])).toString("base64url") : null,
      };
    },
  };
}

/** The `sort` values a list takes. */
export type SortOf<L extends { values: readonly string[] }> = L["values"][number];
