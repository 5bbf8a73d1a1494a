import { embeddedClientOf, type Db, type EmbeddedClient } from "./client.server";
import { registerCachedRead } from "./statement-clock.server";

/** Results kept per cached statement (per parameter); the oldest goes first beyond this. */
export const CACHED_RESULTS_MAX = 1_000;

type Cache<Row> = { at: number; results: Map<string, Row[]> };

/**
 * A deep copy of result rows: what PGlite returns is plain objects, arrays, dates, bytes and scalars.
 * (structuredClone does the same through the worker serializer, several times slower per page.)
 */
export function copyRows<T>(value: T): T {
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (value instanceof Uint8Array) return value.slice() as T;
  if (Array.isArray(value)) return value.map(copyRows) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = copyRows((value as Record<string, unknown>)[key]);
  return copy as T;
}

/**
 * A statement that runs on every request (the session lookup, the dashboard's figures), parsed and
 * planned once.
 *
 * On PostgreSQL, drizzle's named prepared statement already is: node-postgres prepares it once per
 * pooled connection. PGlite ignores the name and parses and plans the text on every call, and on
 * the embedded database planning (which stats the relation files) cost more than running the
 * lookup. There the statement is PREPAREd in SQL once and EXECUTEd with its one parameter as a
 * literal: only for values the caller has checked against `literalPattern`.
 *
 * `cached: true` (for statements that only read, and whose result depends on nothing but the data
 * and the parameter: no `now()`) also keeps the embedded database's results in memory until any
 * other statement runs (see statement-clock.server.ts). A page that only reads them then costs no
 * database work; the first write anywhere makes the next call read again.
 */
export function embeddedPrepared<Row>(options: {
  name: string;
  /** The statement with `$1` for its parameter, from the same query builder the server path uses. */
  statement: (db: Db) => { toSQL(): { sql: string; params: unknown[] } };
  paramType: "text";
  literalPattern: RegExp;
  cached?: boolean;
}) {
  const ready = new WeakMap<EmbeddedClient, Promise<void>>();
  const caches = new WeakMap<EmbeddedClient, Cache<Row>>();
  if (options.cached) registerCachedRead(options.name);

  async function prepare(db: Db, client: EmbeddedClient) {
    const { sql: text, params } = options.statement(db).toSQL();
    if (params.length !== 1) throw new Error(`${options.name}: the statement must take exactly one parameter ($1)`);
    try {
      await client.exec(`PREPARE ${options.name} (${options.paramType}) AS ${text}`);
    } catch (error) {
      // Already prepared on this connection (a second module instance in development): reuse it.
      if ((error as { code?: string }).code !== "42P05") throw error;
    }
  }

  async function run(db: Db, client: EmbeddedClient, param: string) {
    let prepared = ready.get(client);
    if (!prepared) {
      prepared = prepare(db, client);
      ready.set(client, prepared);
      prepared.catch(() => ready.delete(client));
    }
    await prepared;
    const [result] = await client.exec(`EXECUTE ${options.name}('${param}')`);
    return (result?.rows ?? []) as Row[];
  }

  /** The results still current for `client`, emptied when any other statement has run since they were read. */
  function currentCache(client: EmbeddedClient) {
    let cache = caches.get(client);
    if (!cache) caches.set(client, (cache = { at: client.clock.count, results: new Map() }));
    if (cache.at !== client.clock.count) {
      cache.at = client.clock.count;
      cache.results.clear();
    }
    return cache;
  }

  async function runCached(db: Db, client: EmbeddedClient, param: string) {
    const hit = currentCache(client).results.get(param);
    // Copies out, so no caller can change what the next one gets.
    if (hit) return copyRows(hit);
    const before = client.clock.count;
    const rows = await run(db, client, param);
    // Kept only when nothing else ran while it was read: then it is the data as it stands now.
    if (client.clock.count === before) {
      const { results } = currentCache(client);
      if (results.size >= CACHED_RESULTS_MAX) results.delete(results.keys().next().value as string);
      results.set(param, copyRows(rows));
    }
    return rows;
  }

  /** Rows of the statement for `param`, or null when `db` is not embedded (use the drizzle path). */
  return async function execute(db: Db, param: string): Promise<Row[] | null> {
    if (!options.literalPattern.test(param)) throw new Error(`${options.name}: refused parameter`);
    const client = embeddedClientOf(db);
    if (!client) return null;
    return options.cached ? runCached(db, client, param) : run(db, client, param);
  };
}
