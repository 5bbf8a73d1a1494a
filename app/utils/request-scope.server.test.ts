import { createRequestHandler, type AppLoadContext, type ServerBuild } from "@remix-run/node";
import { describe, expect, test } from "vitest";
import { revokeSession } from "~/services/identity/login-sessions.server";
import { getAuth } from "./auth.server";
import { requestMemo } from "./request-scope.server";
import { createTestTenant, makeRequest, sessionCookieFor } from "../../tests/support/factories";

const newContext = (): AppLoadContext => ({ memo: new Map() });

describe("request memo", () => {
  test("memoizes per key for the loaders of one request, and not across requests", () => {
    let computed = 0;
    const compute = () => ++computed;
    const one = newContext();
    expect(requestMemo(makeRequest("/"), one, "k", compute)).toBe(1);
    // Another loader of the same request: its own Request, the same load context.
    expect(requestMemo(makeRequest("/"), one, "k", compute)).toBe(1);
    expect(requestMemo(makeRequest("/"), one, "other", compute)).toBe(2);
    const two = newContext();
    expect(requestMemo(makeRequest("/"), two, "k", compute)).toBe(3);
    expect(requestMemo(makeRequest("/"), one, "k", compute)).toBe(1);
  });

  test("an action computes afresh and leaves nothing for the loaders that run after it", () => {
    let computed = 0;
    const compute = () => ++computed;
    const context = newContext();
    const post = makeRequest("/", { method: "POST", form: {} });
    expect(requestMemo(post, context, "k", compute)).toBe(1);
    expect(requestMemo(post, context, "k", compute)).toBe(2);
    expect(requestMemo(makeRequest("/"), context, "k", compute)).toBe(3);
    expect(requestMemo(makeRequest("/"), context, "k", compute)).toBe(3);
  });

  test("without a memo in the load context (one loader called alone) it computes every time", () => {
    let computed = 0;
    const compute = () => ++computed;
    const context: AppLoadContext = {};
    expect(requestMemo(makeRequest("/"), context, "k", compute)).toBe(1);
    expect(requestMemo(makeRequest("/"), context, "k", compute)).toBe(2);
  });

  test("the loaders of one request share one session lookup; the next request looks again", async () => {
    const { db, user } = await createTestTenant();
    const cookie = await sessionCookieFor(user);
    const context = newContext();
    const first = await getAuth(makeRequest("/", { cookie }), context);
    expect(first?.user.id).toBe(user.id);
    // Revoked in between: a second lookup would say null, the shared one still answers.
    await revokeSession(db, first!.sessionId);
    expect((await getAuth(makeRequest("/", { cookie }), context))?.user.id).toBe(user.id);
    expect(await getAuth(makeRequest("/", { cookie }), newContext())).toBeNull();
  });
});

/**
 * A server build of three nested routes whose loaders record what Remix hands them, and an entry
 * that answers with the loaders' data instead of rendering. What the memo rests on is Remix's
 * contract, so it is checked through Remix's own request handler.
 */
function recordingBuild() {
  const seen: { routeId: string; request: Request; context: AppLoadContext }[] = [];
  const loader = (routeId: string) => (args: { request: Request; context: AppLoadContext }) => {
    seen.push({ routeId, request: args.request, context: args.context });
    return requestMemo(args.request, args.context, "lookup", () => seen.length);
  };
  const route = (id: string, parentId: string | undefined, path: string | undefined, index?: true) => ({
    id,
    parentId,
    path,
    index,
    module: { loader: loader(id), default: () => null, ...(id === "page" ? { action: () => ({ done: true }) } : {}) },
  });
  const routes = {
    root: route("root", undefined, ""),
    layout: route("layout", "root", "app"),
    page: route("page", "layout", undefined, true),
  };
  const assetRoute = (id: string, parentId: string | undefined, path: string | undefined, index?: true) => ({
    id,
    parentId,
    path,
    index,
    module: `/build/${id}.js`,
    hasLoader: true,
    hasAction: id === "page",
    hasClientAction: false,
    hasClientLoader: false,
    hasErrorBoundary: false,
  });
  const build = {
    mode: "production",
    entry: {
      module: {
        default: (_request: Request, status: number, headers: Headers, entryContext: { staticHandlerContext: { loaderData: unknown } }) =>
          new Response(JSON.stringify(entryContext.staticHandlerContext.loaderData), { status, headers }),
      },
    },
    routes,
    assets: {
      entry: { module: "/build/entry.js", imports: [] },
      routes: {
        root: assetRoute("root", undefined, ""),
        layout: assetRoute("layout", "root", "app"),
        page: assetRoute("page", "layout", undefined, true),
      },
      url: "/build/manifest.js",
      version: "test",
    },
    publicPath: "/build/",
    assetsBuildDirectory: "public/build",
    future: {
      v3_singleFetch: true,
      v3_lazyRouteDiscovery: true,
      v3_fetcherPersist: true,
      v3_relativeSplatPath: true,
      v3_throwAbortReason: true,
    },
    isSpaMode: false,
  } as unknown as ServerBuild;
  return { handle: createRequestHandler(build, "production"), seen };
}

describe("what Remix hands the loaders of one request", () => {
  test("one load context for the root, layout and page loaders, though each gets its own Request", async () => {
    const { handle, seen } = recordingBuild();
    const context = newContext();
    const response = await handle(new Request("http://localhost/app"), context);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ root: 1, layout: 1, page: 1 });
    expect(seen.map((s) => s.routeId)).toEqual(["root", "layout", "page"]);
    for (const s of seen) expect(s.context).toBe(context);
    expect(new Set(seen.map((s) => s.request)).size).toBe(3);
  });

  test("a form posted without JavaScript: the loaders after the action share their own lookup", async () => {
    const { handle, seen } = recordingBuild();
    const response = await handle(
      new Request("http://localhost/app?index", { method: "POST", body: new URLSearchParams({ a: "1" }) }),
      newContext(),
    );
    expect(response.status).toBe(200);
    expect(seen.map((s) => [s.routeId, s.request.method])).toEqual([
      ["root", "GET"],
      ["layout", "GET"],
      ["page", "GET"],
    ]);
    expect(await response.json()).toEqual({ root: 1, layout: 1, page: 1 });
  });
});
