import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";

export const LOCK_FILE = "remarket.lock";

/**
 * Take the embedded database's directory for this process, or fail with a clear message when a
 * live process already has it. PGlite opens a directory another process has open without a word;
 * the two then keep their own buffers and overwrite each other's pages, and this process's cached
 * reads (embedded-cache/statement-clock.server.ts) rest on its being the only one that writes. A lock left by a
 * process that is gone (a crash, a kill -9) is taken over. Returns the release.
 */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const file = path.join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await writeFile(file, String(process.pid), { flag: "wx" });
      return () => rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = Number((await readFile(file, "utf8").catch(() => "")).trim());
    if (holder && holder !== process.pid && isRunning(holder)) {
      throw new Error(
        `The embedded database in ${dir} is open in another process (pid ${holder}). Stop that process first, or set DATABASE_URL so that several processes share a PostgreSQL server. If no such process is running, delete ${file}.`,
      );
    }
    await rm(file, { force: true });
  }
  throw new Error(`Could not take ${file}: another process keeps taking it`);
}

function isRunning(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
