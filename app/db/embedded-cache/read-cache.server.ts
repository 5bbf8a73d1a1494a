import type { EmbeddedClient } from "./embedded-client.server";

/** Results kept per statement (one per parameter); the oldest goes first beyond this. */
const RESULTS_MAX = 1_000;

type Results<Row> = { at: number; byParam: Map<string, Row[]> };

/**
 * The results of one read statement on the embedded database, kept until the client's statement
 * clock moves (statement-clock.server.ts): any statement other than a cached read empties them.
 * Only for statements whose result depends on nothing but the data and the parameter (no `now()`).
 */
export function readCache<Row>() {
  const perClient = new WeakMap<EmbeddedClient, Results<Row>>();

  /** The results still current for `client`, emptied when any other statement has run since they were read. */
  function current(client: EmbeddedClient) {
    let results = perClient.get(client);
    if (!results) perClient.set(client, (results = { at: client.clock.count, byParam: new Map() }));
    if (results.at !== client.clock.count) {
      results.at = client.clock.count;
      results.byParam.clear();
    }
    return results;
  }

  return async function cachedRead(client: EmbeddedClient, param: string, read: () => Promise<Row[]>) {
    const hit = current(client).byParam.get(param);
    // Copies out, so no caller can change what the next one gets.
    if (hit) return copyRows(hit);
    const before = client.clock.count;
    const rows = await read();
    // Kept only when nothing else ran while it was read: then it is the data as it stands now.
    if (client.clock.count === before) {
      const { byParam } = current(client);
      if (byParam.size >= RESULTS_MAX) byParam.delete(byParam.keys().next().value as string);
      byParam.set(param, copyRows(rows));
    }
    return rows;
  };
}

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
