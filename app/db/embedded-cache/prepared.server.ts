import type { Db } from "../client.server";
import { embeddedClientOf, type EmbeddedClient } from "./embedded-client.server";
import { readCache } from "./read-cache.server";
import { sqlTextLiteral } from "./sql-literal.server";
import { registerCachedRead } from "./statement-clock.server";

/**
 * A statement that runs on every request (the session lookup, the dashboard's figures), parsed and
 * planned once.
 *
 * On PostgreSQL, drizzle's named prepared statement already is: node-postgres prepares it once per
 * pooled connection. PGlite ignores the name and parses and plans the text on every call, and on
 * the embedded database planning (which stats the relation files) cost more than running the
 * lookup. There the statement is PREPAREd in SQL once and EXECUTEd with its one parameter written
 * as a literal (`sqlTextLiteral`): PostgreSQL takes no bound parameters for EXECUTE, and only a
 * single simple-protocol message can count as a cached read (statement-clock.server.ts). Values
 * are also checked against `literalPattern` first.
 *
 * `cached: true` (for statements that only read, and whose result depends on nothing but the data
 * and the parameter: no `now()`) also keeps the embedded database's results in memory until any
 * other statement runs (read-cache.server.ts). A page that only reads them then costs no database
 * work; the first write anywhere makes the next call read again.
 *
 * With the cache off (EMBEDDED_READ_CACHE=false) or on PostgreSQL, `execute` answers null and the
 * caller runs the same statement through Drizzle with a bound parameter.
 */
export function embeddedPrepared<Row>(options: {
  name: string;
  /** The statement with `$1` (and no other parameter) for its value, from the same builder the Drizzle path uses. */
  statement: (db: Db) => { toSQL(): { sql: string } };
  paramType: "text";
  literalPattern: RegExp;
  cached?: boolean;
}) {
  if (!/^[a-z][a-z0-9_]*$/.test(options.name)) throw new Error(`${options.name}: the name must be a plain lower-case identifier`);
  const ready = new WeakMap<EmbeddedClient, Promise<void>>();
  const cachedRead = options.cached ? readCache<Row>() : null;
  if (options.cached) registerCachedRead(options.name);

  async function prepare(db: Db, client: EmbeddedClient) {
    const { sql: text } = options.statement(db).toSQL();
    const references = new Set(text.match(/\$\d+/g));
    if (references.size !== 1 || !references.has("$1"))
      throw new Error(`${options.name}: the statement must take exactly one parameter ($1)`);
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
    const [result] = await client.exec(`EXECUTE ${options.name}(${sqlTextLiteral(param)})`);
    return (result?.rows ?? []) as Row[];
  }

  /** Rows of the statement for `param`, or null without the embedded cache (then run it through Drizzle). */
  return async function execute(db: Db, param: string): Promise<Row[] | null> {
    if (!options.literalPattern.test(param)) throw new Error(`${options.name}: refused parameter`);
    const client = embeddedClientOf(db);
    if (!client) return null;
    return cachedRead ? cachedRead(client, param, () => run(db, client, param)) : run(db, client, param);
  };
}
