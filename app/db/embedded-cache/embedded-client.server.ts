import type { Db } from "../client.server";
import { assertClockRuns, watchStatements, type ProtocolRunner, type StatementClock } from "./statement-clock.server";

/** The part of PGlite's client the cache uses: raw statements, and the clock that dates their results. */
export type EmbeddedClient = { exec(query: string): Promise<Array<{ rows: unknown[] }>>; clock: StatementClock };
/** What the cache needs of a freshly opened PGlite client. */
export type PGliteClient = ProtocolRunner & { exec(query: string): Promise<Array<{ rows: unknown[] }>> };

const embeddedClients = new WeakMap<Db, EmbeddedClient>();

/**
 * The PGlite client behind `db` when the embedded cache is on, or null: on a PostgreSQL server,
 * and on PGlite with EMBEDDED_READ_CACHE=false. Callers then run the statement through Drizzle.
 */
export function embeddedClientOf(db: Db): EmbeddedClient | null {
  return embeddedClients.get(db) ?? null;
}

/**
 * Start the statement clock on a PGlite client that has run nothing yet. Returns `attach`, to call
 * once the migrations have run: it fails start-up if the clock did not see them (a PGlite upgrade
 * that moved its protocol entry point) and turns the cache on for `db`.
 */
export function startEmbeddedCache(client: PGliteClient) {
  const clock = watchStatements(client);
  return function attach(db: Db) {
    assertClockRuns(clock);
    embeddedClients.set(db, { exec: (query) => client.exec(query), clock });
  };
}
