#!/usr/bin/env bash
# `npm test`: installs what the tests need and runs every check on the embedded database:
# typecheck, lint, unit and service tests (vitest), build, end-to-end flows (Playwright, with
# and without JavaScript). .ci/run adds the same suites against a real PostgreSQL server.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-test-deps.sh
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi

step() { printf '\n=== %s\n' "$*"; }
step "typecheck" && npm run -s typecheck
step "lint" && npm run -s lint
rm -rf reports
step "unit and service tests (PGlite)" && VITEST_JSON=reports/vitest-pglite.json npx vitest run
step "build" && npm run -s build
step "end-to-end (PGlite)" && PLAYWRIGHT_JSON=reports/e2e-pglite.json npx playwright test
[ -n "${CI:-}" ] || node scripts/summarize-tests.js reports/*.json
