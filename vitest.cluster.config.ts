import path from "node:path";
import { defineConfig } from "vitest/config";

// The cluster test (tests/cluster): processes, a balancer and load, so it runs on its own, one file
// at a time, in .ci/run's PostgreSQL part (it needs DATABASE_URL).
export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["tests/cluster/**/*.test.ts"],
    pool: "forks",
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 300_000,
    reporters: ["default", "json"],
    outputFile: { json: process.env.VITEST_JSON ?? "reports/vitest-cluster.json" },
  },
});
