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
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
