import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

// The Playwright fixtures route and the benchmark's hello-world page are mounted only when the
// build is made with BUILD_TEST_ROUTES=true (remix.config.js). Two real builds, read back the way
// the server reads them: the production one must not hold them at all, the test one must.

// Inside the checkout (under data/, ignored by git) so the builds resolve node_modules.
mkdirSync(path.resolve("data"), { recursive: true });
const work = mkdtempSync(path.resolve("data", "build-manifest-"));

type Manifest = { server: { id: string; path: string | null }[]; browser: { id: string; path: string | null }[] };

function build(dir: string, testRoutes: boolean) {
  const env: NodeJS.ProcessEnv = { ...process.env, BUILD_DIR: dir, NODE_ENV: "production" };
  delete env.BUILD_TEST_ROUTES;
  if (testRoutes) env.BUILD_TEST_ROUTES = "true";
  execFileSync("npx", ["remix", "build"], { env, stdio: "ignore" });
}

/** The built server's route table and the browser manifest, read in a child process as the server loads them. */
function manifestOf(dir: string): Manifest {
  const script = `
    const build = await import(${JSON.stringify(pathToFileURL(path.join(dir, "index.js")).href)});
    const pick = (routes) => Object.values(routes).map((r) => ({ id: r.id, path: r.path ?? null }));
    console.log(JSON.stringify({ server: pick(build.routes), browser: pick(build.assets.routes) }));`;
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }));
}

const TEST_ONLY_PATHS = ["api/test-fixtures", "bench/hello"];
const pathsOf = (routes: Manifest["server"]) => routes.map((r) => r.path);

let production: Manifest;
let testBuild: Manifest;

beforeAll(() => {
  build(path.join(work, "production"), false);
  production = manifestOf(path.join(work, "production"));
  build(path.join(work, "test"), true);
  testBuild = manifestOf(path.join(work, "test"));
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("test-only routes and the production build", () => {
  test("a production build (npm run build) has neither route, on the server or in the browser manifest", () => {
    expect(pathsOf(production.server)).toContain("api/auth/login");
    for (const testOnly of TEST_ONLY_PATHS) {
      expect(pathsOf(production.server)).not.toContain(testOnly);
      expect(pathsOf(production.browser)).not.toContain(testOnly);
    }
    expect(production.server.map((r) => r.id).filter((id) => id.startsWith("test-routes/"))).toEqual([]);
  });

  test("a build with BUILD_TEST_ROUTES=true mounts both", () => {
    for (const testOnly of TEST_ONLY_PATHS) {
      expect(pathsOf(testBuild.server)).toContain(testOnly);
      expect(pathsOf(testBuild.browser)).toContain(testOnly);
    }
    expect(testBuild.server.length).toBe(production.server.length + TEST_ONLY_PATHS.length);
  });
});
