// Summarises a V8 CPU profile (node --cpu-prof) by self time: where the server spends its CPU.
// Usage: node bench/cpu-profile-summary.js bench/out/prof/<file>.cpuprofile [--top 40] [--by file|function|area] [--last 10]
// --by area: React render, loader data, forms, database, framework, our code, Node, GC (bench/lib/cpu-areas.js).
// --last N keeps only the profile's last N seconds (the measured run, without start-up and warm-up).
import { readFileSync } from "node:fs";
import { areaOf } from "./lib/cpu-areas.js";

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith("--"));
if (!file) {
  console.error("usage: node bench/cpu-profile-summary.js <profile.cpuprofile> [--top 40] [--by file|function]");
  process.exit(2);
}
const option = (/** @type {string} */ name, /** @type {string} */ fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const top = Number(option("--top", "40"));
const by = option("--by", "function");
const lastSeconds = Number(option("--last", "0"));

/** @type {{ nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[]; samples: number[]; timeDeltas: number[] }} */
const profile = JSON.parse(readFileSync(file, "utf8"));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
/** @type {Map<string, number>} */
const self = new Map();
let total = 0;
const end = profile.timeDeltas.reduce((sum, d) => sum + d, 0);
const from = lastSeconds > 0 ? end - lastSeconds * 1_000_000 : -Infinity;
let at = 0;
profile.samples.forEach((id, i) => {
  const node = nodes.get(id);
  const delta = profile.timeDeltas[i] ?? 0;
  at += delta;
  if (!node || at < from) return;
  total += delta;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*?\/(build|app|server)\//, "$1/");
  const key =
    by === "area"
      ? (areaOf(url, functionName) ?? "idle")
      : by === "file"
        ? where || "(native)"
        : `${functionName || "(anonymous)"}  ${where}:${lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + delta);
});
const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
console.info(`total sampled: ${(total / 1000).toFixed(0)} ms`);
for (const [key, us] of rows)
  console.info(`${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`);
