import { defineConfig } from "@playwright/test";

// Ports can be moved so two suites (or two checkouts) can run side by side.
const PORT = Number(process.env.E2E_PORT ?? 3100);
const OIDC_PORT = Number(process.env.E2E_OIDC_PORT ?? 3901);
const DATA_DIR = process.env.E2E_DATA_DIR ?? `./data/e2e-${PORT}`;
// The suite builds the app itself, with the test-only routes (BUILD_TEST_ROUTES), beside the
// production build: `npm run build` never contains the fixtures the suite posts to.
export const E2E_BUILD_DIR = process.env.E2E_BUILD_DIR ?? `./data/e2e-build-${PORT}`;
export const BASE_URL = `http://localhost:${PORT}`;

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: process.env.PLAYWRIGHT_JSON ?? "reports/playwright.json" }]],
  use: {
    baseURL: BASE_URL,
    trace: "retain-on-failure",
    launchOptions: chromium,
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    // Specs named *.js-only.spec.ts test JavaScript enhancements that have no no-JS form (the inactivity modal).
    { name: "no-js", use: { javaScriptEnabled: false }, testIgnore: /\.js-only\.spec\.ts$/ },
  ],
  webServer: [
    {
      command: `node tests/support/oidc-server.js`,
      url: `http://localhost:${OIDC_PORT}/.well-known/openid-configuration`,
      env: { OIDC_PORT: String(OIDC_PORT), APP_URL: BASE_URL },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      // A fresh build of this checkout, and a fresh data directory per run: the suite never
      // depends on an earlier run's build or rows.
      command: `node_modules/.bin/remix build && rm -rf ${DATA_DIR} && node server/index.js`,
      url: `${BASE_URL}/healthz`,
      reuseExistingServer: false,
      timeout: 300_000,
      env: {
        NODE_ENV: "production",
        BUILD_DIR: E2E_BUILD_DIR,
        BUILD_TEST_ROUTES: "true",
        PORT: String(PORT),
        APP_URL: BASE_URL,
        DATA_DIR,
        ENABLE_TEST_FIXTURES: "true",
        ACCESS_LOG: "false",
        DEV_OUTBOX: "true",
        STAFF_EMAILS: " Staff.Person@Example.test ,other@example.test",
        OIDC_PROVIDERS: "testidp",
        OIDC_TESTIDP_LABEL: "Test IdP",
        OIDC_TESTIDP_ISSUER: `http://localhost:${OIDC_PORT}`,
        OIDC_TESTIDP_CLIENT_ID: "remarket-e2e",
        OIDC_TESTIDP_CLIENT_SECRET: "remarket-e2e-secret",
        RATE_LIMIT_LOGIN_PER_IP: "1000",
        RATE_LIMIT_CODE_PER_IP: "1000",
        ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
      },
    },
  ],
});
