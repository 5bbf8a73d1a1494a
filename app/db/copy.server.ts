import { once } from "node:events";
import type { Writable } from "node:stream";
import type { DbOrTx } from "./client.server";

/** A COPY … FROM STDIN in progress: write text-format lines, then end (resolves when the server has them all). */
export type CopyStream = { write: (chunk: string) => Promise<void>; end: () => Promise<void> };

/**
 * Open `COPY … FROM STDIN` on the connection of a node-postgres transaction; null on the embedded
 * database (PGlite has no COPY FROM STDIN), so callers fall back to multi-row inserts. It runs on
 * the transaction's own connection, so it commits or rolls back with it.
 */
export async function openCopy(tx: DbOrTx, statement: string): Promise<CopyStream | null> {
  const client = (tx as unknown as { session?: { client?: { query?: unknown; release?: unknown } } }).session?.client;
  if (!client || typeof client.release !== "function" || typeof client.query !== "function") return null;
  const { from } = await import("pg-copy-streams");
  const stream: Writable = (client.query as (s: unknown) => Writable)(from(statement));
  let failed: Error | null = null;
  stream.on("error", (error: Error) => {
    failed = error;
  });
  // events.once rejects on 'error': a failed COPY surfaces at the next write or at end.
  const finished = once(stream, "finish");
  finished.catch(() => {});
  return {
    async write(chunk) {
      if (failed) throw failed;
      if (chunk && !stream.write(chunk)) await once(stream, "drain");
    },
    async end() {
      if (failed) throw failed;
      stream.end();
      await finished;
    },
  };
}
