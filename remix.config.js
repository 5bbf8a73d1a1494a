// BUILD_DIR lets a second checkout or a benchmark build beside the default without clashing.
const buildDir = process.env.BUILD_DIR;

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  serverModuleFormat: "esm",
  serverBuildPath: buildDir ? `${buildDir}/index.js` : "build/index.js",
  assetsBuildDirectory: buildDir ? `${buildDir}/assets` : "public/build",
  publicPath: "/build/",
  tailwind: true,
  postcss: true,
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}", "**/__*"],
  // Routes that only test and benchmark builds mount (BUILD_TEST_ROUTES=true when building): the
  // Playwright fixtures and the hello-world baseline of bench/ssr.js. A production build has no
  // module for them at all (tests/unit/production-build.test.ts checks the built manifest).
  routes: async (defineRoutes) =>
    process.env.BUILD_TEST_ROUTES === "true"
      ? defineRoutes((route) => {
          route("api/test-fixtures", "test-routes/api.test-fixtures.ts");
          route("bench/hello", "test-routes/bench.hello.tsx");
        })
      : {},
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
