/**
 * A count of the statements the embedded database has run, apart from the reads registered here as
 * cacheable. A cached result of one of those reads, tagged with the count it was read at, is current
 * for as long as the count has not moved.
 *
 * Why that holds: PGlite runs inside this process and executes one protocol message at a time,
 * synchronously, in `execProtocolRawSync`. Nothing changes its data without a message passing
 * there: writes, transactions (their COMMIT and ROLLBACK too), migrations, the job worker, the demo
 * cleanup. No other process can open the same data directory while this one has it: PGlite itself
 * would let it, so data-dir-lock.server.ts refuses the second process. So every
 * message that is not a registered read moves the count, and a cached read is dropped by the first
 * statement of any kind that runs after it, whether or not that statement wrote anything.
 *
 * Not used on PostgreSQL: other processes (another app instance, psql) can write there unseen.
 */

/** The one method of PGlite's client every statement goes through (protocol bytes in, bytes out). */
export type ProtocolRunner = { execProtocolRawSync(message: Uint8Array): Uint8Array };
export type StatementClock = { readonly count: number };

const cachedReadNames = new Set<string>();

/** Mark `EXECUTE name(…)` as a read that leaves the clock alone (the name of a statement that only reads). */
export function registerCachedRead(name: string) {
  if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`cached read ${name}: the name must be a plain lower-case identifier`);
  cachedReadNames.add(name);
}

const QUERY = 0x51; // 'Q': a simple-protocol query, the way prepared.server.ts sends EXECUTE
const QUOTE = 0x27;
const EXECUTE = new TextEncoder().encode("EXECUTE ");
const decoder = new TextDecoder();

/**
 * The name in a single simple-protocol message that is exactly `EXECUTE name('literal')`, or null
 * for any other message: anything after the literal (`; UPDATE …`) or a quote inside it disqualifies.
 */
export function executedStatementName(message: Uint8Array): string | null {
  // Layout: 'Q', an int32 length (itself included), the query text, a NUL.
  if (message[0] !== QUERY || message.length < 5 + EXECUTE.length) return null;
  const length = ((message[1] << 24) | (message[2] << 16) | (message[3] << 8) | message[4]) >>> 0;
  if (length + 1 !== message.length) return null; // more than one message: not ours
  for (let i = 0; i < EXECUTE.length; i++) if (message[5 + i] !== EXECUTE[i]) return null;
  const start = 5 + EXECUTE.length;
  const open = message.indexOf(0x28 /* ( */, start);
  if (open < 0 || message[open + 1] !== QUOTE) return null;
  const close = message.indexOf(QUOTE, open + 2);
  // After the literal's closing quote: ")" and the NUL, and nothing else.
  if (close < 0 || close + 3 !== message.length || message[close + 1] !== 0x29 /* ) */ || message[close + 2] !== 0) return null;
  return decoder.decode(message.subarray(start, open));
}

const SYNC = [0x53, 0, 0, 0, 4]; // 'S' and its length: the Sync PGlite sends after each query

function isSync(message: Uint8Array) {
  return message.length === SYNC.length && SYNC.every((byte, i) => message[i] === byte);
}

/**
 * Fail at start-up if statements do not pass where the clock looks (a PGlite upgrade that moved its
 * protocol entry point): call after the client has run something, such as the migrations.
 */
export function assertClockRuns(clock: StatementClock) {
  if (clock.count === 0)
    throw new Error(
      "PGlite ran statements the statement clock did not see: cached reads would go stale (see app/db/embedded-cache/statement-clock.server.ts)",
    );
}

/** Start counting the statements `client` runs. Call once, right after opening it. */
export function watchStatements(client: ProtocolRunner): StatementClock {
  const clock = { count: 0 };
  const run = client.execProtocolRawSync.bind(client);
  let afterCachedRead = false;
  client.execProtocolRawSync = (message: Uint8Array) => {
    const name = executedStatementName(message);
    const cachedRead = name !== null && cachedReadNames.has(name);
    // The Sync that closes a cached read is part of it; any other Sync may commit a write.
    if (!cachedRead && !(afterCachedRead && isSync(message))) clock.count++;
    afterCachedRead = cachedRead;
    return run(message);
  };
  return clock;
}
