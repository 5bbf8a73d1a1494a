import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "tests/unit/**/*.test.ts"],
    setupFiles: ["tests/support/vitest-setup.ts"],
    pool: "forks",
    // One database per worker: opening PGlite costs seconds, so modules (and the open
    // database) are shared by the test files of a worker; each test makes its own tenant.
    isolate: false,
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // The JSON report feeds the one-line total printed by scripts/summarize-tests.js.
    reporters: ["default", "json"],
    outputFile: { json: process.env.VITEST_JSON ?? "reports/vitest.json" },
  },
});
