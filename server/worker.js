// `npm run worker`: background jobs only, for scale-out beside web instances on one PostgreSQL.
// On the embedded database the web server runs the jobs itself; a worker started beside it is
// refused (the data directory is one process's at a time: app/db/data-dir-lock.server.ts).
import path from "node:path";
import { pathToFileURL } from "node:url";

const BUILD_DIR = path.resolve(process.env.BUILD_DIR ?? "build");
/** @type {any} */
const build = await import(pathToFileURL(path.join(BUILD_DIR, "index.js")).href);
const stop = await build.entry.module.startBackground({ worker: true });
// Prometheus metrics (the queue, the process) on their own port, as the web server offers them.
const stopMetrics = process.env.METRICS_PORT
  ? build.entry.module.serveMetrics(Number(process.env.METRICS_PORT), process.env.METRICS_HOST || "127.0.0.1")
  : null;
build.entry.module.log.info("Remarket worker running");
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, async () => {
    await stopMetrics?.();
    await stop();
    process.exit(0);
  });
}
