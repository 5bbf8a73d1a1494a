// bench/eda: profile a generated 1,000,000-row, 12-column CSV and compare with parsing it with
// csv-parse alone, in the same run. Targets: profile/parse ≤ 2.0×, peak RSS ≤ 200 MB.
// Usage: node bench/eda.js [rows]   (the profiler is bundled from app/ with esbuild first)
import { createReadStream, createWriteStream, existsSync, mkdirSync, statSync } from "node:fs";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { once } from "node:events";
import path from "node:path";
import { build } from "esbuild";
import { parse } from "csv-parse";

const ROWS = Number(process.argv[2] ?? 1_000_000);
// Outputs (generated input, bundles, builds) live under data/, which git and tsc ignore.
const OUT = path.resolve("data/bench");
mkdirSync(OUT, { recursive: true });
const csvPath = path.join(OUT, `eda-${ROWS}.csv`);

await build({
  entryPoints: ["app/services/files/eda/csv.server.ts"],
  bundle: true,
  platform: "node",
  format: "esm",
  packages: "external",
  outfile: path.join(OUT, "eda-profiler.mjs"),
  logLevel: "warning",
});
const { profileCsv } = await import(path.join(OUT, "eda-profiler.mjs"));

if (!existsSync(csvPath)) await generate(csvPath, ROWS);
console.log(`input: ${csvPath} (${(statSync(csvPath).size / 1e6).toFixed(1)} MB, ${ROWS.toLocaleString("en-US")} rows × 12 columns)`);

let peakRss = process.memoryUsage.rss();
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 20);

// Each measured twice, alternating (parse, profile, parse, profile); the best of each is
// compared, so a busy machine's hiccups do not decide the ratio.
const parseTimes = [];
const profileTimes = [];
const parseCpu = [];
const profileCpu = [];
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
let records = 0;
/** @type {any} */
let result;
for (let round = 0; round < 2; round++) {
  // 1. csv-parse alone (same options the profiler uses), counting records.
  let t = performance.now();
  let c = cpu();
  records = 0;
  await pipeline(
    createReadStream(csvPath),
    parse({
      delimiter: ",",
      relax_quotes: false,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: 8 * 1024 * 1024,
      encoding: "utf8",
    }),
    new Writable({
      objectMode: true,
      highWaterMark: 64,
      write(_r, _e, done) {
        records++;
        done();
      },
    }),
  );
  parseTimes.push(performance.now() - t);
  parseCpu.push(cpu() - c);

  // 2. The full profile: encoding check, parse, type inference, statistics, sketches.
  t = performance.now();
  c = cpu();
  result = await profileCsv(async () => createReadStream(csvPath), {
    name: "bench.csv",
    delimiter: "auto",
    headerRow: 1,
    dateOrder: "auto",
    encoding: "auto",
    maxColumns: 2000,
    maxRowBytes: 8 * 1024 * 1024,
  });
  profileTimes.push(performance.now() - t);
  profileCpu.push(cpu() - c);
}
const parseMs = Math.min(...parseTimes);
const profileMs = Math.min(...profileTimes);
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage.rss());

const sheet = result.sheet;
console.log(
  `csv-parse only: ${(parseMs / 1000).toFixed(2)} s best of ${parseTimes.map((t) => (t / 1000).toFixed(2)).join(", ")} (${(records - 1).toLocaleString("en-US")} rows)`,
);
console.log(
  `profile:        ${(profileMs / 1000).toFixed(2)} s best of ${profileTimes.map((t) => (t / 1000).toFixed(2)).join(", ")} (${sheet.rows.toLocaleString("en-US")} rows, ${sheet.columns} columns, ${sheet.duplicateRows} duplicate rows)`,
);
console.log(`ratio:          ${(profileMs / parseMs).toFixed(2)}× wall clock (target ≤ 2.0×)`);
// CPU time (this process's user + system) is what the work costs; wall clock also counts
// waiting for the other processes on a shared machine.
console.log(
  `CPU time:       parse ${(Math.min(...parseCpu) / 1000).toFixed(2)} s, profile ${(Math.min(...profileCpu) / 1000).toFixed(2)} s → ratio ${(Math.min(...profileCpu) / Math.min(...parseCpu)).toFixed(2)}×`,
);
console.log(`peak RSS:       ${(peakRss / 1024 / 1024).toFixed(0)} MB (target ≤ 200 MB)`);
console.log(`types:          ${sheet.profiles.map((/** @type {any} */ p) => `${p.name}=${p.type}`).join(" ")}`);

/** @param {string} file @param {number} rows */
async function generate(file, rows) {
  const out = createWriteStream(file);
  const states = ["CA", "TX", "NY", "FL", "WA", "OR", "NV", "AZ", "IL", "OH"];
  const lines = ["PAUTO", "HOME", "DFIRE", "UMBRP", "BOP", "CGL", "WC", "CAUTO"];
  const carriers = ["Progressive", "Travelers", "Safeco", "Hartford", "Nationwide", "Allstate"];
  let seed = 42;
  const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
  out.write("policy_id,customer,email,phone,state,line,carrier,effective_date,premium,prior_premium,active,notes\n");
  let buffer = "";
  for (let i = 1; i <= rows; i++) {
    const premium = (300 + rand() * 4000).toFixed(2);
    const month = String(1 + Math.floor(rand() * 12)).padStart(2, "0");
    const day = String(1 + Math.floor(rand() * 28)).padStart(2, "0");
    buffer +=
      `${100000 + i},"Customer ${Math.floor(rand() * 200000)}",user${i % 50000}@example.com,(555) ${String(100 + (i % 900))}-${String(1000 + (i % 9000))},` +
      `${states[i % states.length]},${lines[Math.floor(rand() * lines.length)]},${carriers[i % carriers.length]},2025-${month}-${day},` +
      `${premium},$${(Number(premium) * (0.8 + rand() * 0.4)).toFixed(2)},${rand() < 0.9 ? "true" : "false"},${rand() < 0.7 ? "" : "renewal review"}\n`;
    if (buffer.length > 1 << 16) {
      if (!out.write(buffer)) await once(out, "drain");
      buffer = "";
    }
  }
  out.write(buffer);
  out.end();
  await once(out, "finish");
}
