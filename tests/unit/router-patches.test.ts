import { createRequire } from "node:module";
import type * as RemixRouter from "@remix-run/router";
import type * as ReactRouterDomServer from "react-router-dom/server";
import { describe, expect, it } from "vitest";

// The patches under patches/ cache route trees and matches (decision record 004). The server loads
// these packages' CommonJS builds, so that is what is tested here.
const require = createRequire(import.meta.url);
const router = require("@remix-run/router") as typeof RemixRouter;
const { createEntryRouteModules } = require("@remix-run/server-runtime/dist/entry.js") as {
  createEntryRouteModules: (manifest: Record<string, { module: unknown }>) => Record<string, unknown>;
};
const { createStaticRouter } = require("react-router-dom/server.js") as typeof ReactRouterDomServer;

const routes = [
  {
    id: "root",
    path: "/",
    children: [
      { id: "home", index: true },
      { id: "customer", path: "customers/:customerId" },
      { id: "files", path: "files/*" },
    ],
  },
];

describe("route matching with the cache patch", () => {
  it("matches each pathname to the same routes and params on every call", () => {
    for (let round = 0; round < 3; round++) {
      expect(router.matchRoutes(routes, "/customers/c-1")?.map((m) => [m.route.id, m.params])).toEqual([
        ["root", { customerId: "c-1" }],
        ["customer", { customerId: "c-1" }],
      ]);
      expect(router.matchRoutes(routes, "/customers/c-2")?.at(-1)?.params).toEqual({ customerId: "c-2" });
      expect(router.matchRoutes(routes, "/")?.at(-1)?.route.id).toBe("home");
      expect(router.matchRoutes(routes, "/files/a/b")?.at(-1)?.params).toEqual({ "*": "a/b" });
      expect(router.matchRoutes(routes, "/nowhere")).toBeNull();
    }
  });

  it("hands every caller its own match objects, so one caller's change cannot leak into the next", () => {
    const first = router.matchRoutes(routes, "/customers/c-3");
    (first![1]!.params as Record<string, string>).customerId = "changed";
    first![1]!.pathname = "/changed";
    const second = router.matchRoutes(routes, "/customers/c-3");
    expect(second![1]!.params).toEqual({ customerId: "c-3" });
    expect(second![1]!.pathname).toBe("/customers/c-3");
    expect(second![1]).not.toBe(first![1]);
  });

  it("honours the basename", () => {
    expect(router.matchRoutes(routes, "/app/customers/c-4", "/app")?.at(-1)?.params).toEqual({ customerId: "c-4" });
    expect(router.matchRoutes(routes, "/customers/c-4", "/app")).toBeNull();
  });

  it("keeps matching correctly after the bounded cache has been emptied", () => {
    for (let i = 0; i < 1_100; i++) router.matchRoutes(routes, `/customers/id-${i}`);
    expect(router.matchRoutes(routes, "/customers/id-5")?.at(-1)?.params).toEqual({ customerId: "id-5" });
  });
});

describe("route trees built once per build", () => {
  it("gives the same route-module map for the same build", () => {
    const manifest = { root: { module: { default: "Root" } }, home: { module: { default: "Home" } } };
    const modules = createEntryRouteModules(manifest);
    expect(modules).toEqual({ root: { default: "Root" }, home: { default: "Home" } });
    expect(createEntryRouteModules(manifest)).toBe(modules);
    expect(createEntryRouteModules({ ...manifest })).not.toBe(modules);
  });

  it("converts a route tree to data routes once, yet reports each request's own state", () => {
    const context = (pathname: string) =>
      ({
        basename: "/",
        location: { pathname, search: "", hash: "", state: null, key: "default" },
        matches: [],
        loaderData: { root: pathname },
        actionData: null,
        errors: null,
        statusCode: 200,
        loaderHeaders: {},
        actionHeaders: {},
        activeDeferreds: null,
      }) as unknown as Parameters<typeof createStaticRouter>[1];
    const one = createStaticRouter(routes, context("/a"));
    const two = createStaticRouter(routes, context("/b"));
    expect(two.routes).toBe(one.routes);
    expect(one.state.location.pathname).toBe("/a");
    expect(two.state.loaderData).toEqual({ root: "/b" });
  });
});
