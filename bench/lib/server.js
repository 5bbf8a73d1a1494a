// What every HTTP benchmark needs around the server it measures: a free port, a wait for
// health, the server's CPU time, and one way to end the script.
import { readFileSync } from "node:fs";
import net from "node:net";

export const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

export async function waitForHealth(/** @type {string} */ base, /** @type {Promise<unknown>} */ exited) {
  let dead = false;
  void exited.then(() => (dead = true));
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (dead) throw new Error("the server exited during start-up");
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error("the server did not become healthy within 120 s");
}

/** @returns {Promise<number>} */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** The process's CPU time so far in ms, or null when it cannot be read (not Linux, or gone). */
export function serverCpuMs(/** @type {number | undefined} */ pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** Runs a benchmark's main and exits with its outcome (open sockets must not keep it alive). */
export function run(/** @type {() => Promise<unknown>} */ main) {
  main().then(
    () => process.exit(0),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
