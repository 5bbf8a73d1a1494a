// Where a server's CPU goes, by area: its V8 CPU profile's self time, sample by sample, put into
// the parts of the stack a page's time can be spent in. Used by bench/pages.js --profile (a table
// per page) and bench/cpu-profile-summary.js --by area.

/** @typedef {{ nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]; samples: number[]; timeDeltas: number[]; startTime: number }} CpuProfile */

export const AREAS = ["render", "data", "forms", "database", "framework", "app", "node", "gc"];
export const AREA_LABELS = {
  render: "React render",
  data: "loader data to HTML (turbo-stream)",
  forms: "conform (forms)",
  database: "database (PGlite + WASM, or driver) and Drizzle",
  framework: "Remix server runtime, router, Express",
  app: "our code (build/, server/)",
  node: "Node: HTTP, streams, crypto, JSON, encoding",
  gc: "garbage collector",
};

/** The area of one sampled frame, from its script's URL and name. */
export function areaOf(/** @type {string} */ url, /** @type {string} */ functionName) {
  if (functionName === "(garbage collector)") return "gc";
  if (functionName === "(idle)") return null;
  const lib = url.includes("node_modules/") ? url.replace(/^.*node_modules\//, "") : "";
  if (url.startsWith("wasm://") || /^(@electric-sql\/|drizzle-orm\/|pg\/|pg-protocol\/|pg-pool\/|pg-types\/|postgres-)/.test(lib))
    return "database";
  if (
    lib.startsWith("react-dom/") ||
    lib.startsWith("react/") ||
    lib.startsWith("react-router") ||
    lib.startsWith("@remix-run/react/dist/components")
  )
    return "render";
  if (lib.startsWith("turbo-stream/") || lib.includes("/single-fetch")) return "data";
  if (lib.startsWith("@conform-to/")) return "forms";
  if (lib.startsWith("@remix-run/") || lib.startsWith("express/") || lib.startsWith("router/")) return "framework";
  if (!lib && /\/(build|server|app)\//.test(url)) return "app";
  return "node";
}

/**
 * Milliseconds of CPU per area between two moments (µs on the monotonic clock V8's profiler and
 * process.hrtime share on Linux), and the total.
 * @param {CpuProfile} profile @param {number} from @param {number} to
 */
export function cpuByArea(profile, from = -Infinity, to = Infinity) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  /** @type {Record<string, number>} */
  const ms = Object.fromEntries(AREAS.map((a) => [a, 0]));
  let at = profile.startTime;
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < from || at > to) return;
    const frame = nodes.get(id);
    const area = frame ? areaOf(frame.url, frame.functionName) : null;
    if (!area) return;
    ms[area] += delta / 1000;
    total += delta / 1000;
  });
  return { ms, total };
}

/** Now on the monotonic clock, in µs (what a CPU profile's timestamps count). */
export const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);
