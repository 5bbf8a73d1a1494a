import type { AppLoadContext } from "@remix-run/node";
import { methodNotAllowedFor, serveApi, type ApiOperation } from "~/utils/api.server";
import { UNKNOWN_PATH, problem } from "~/utils/problem.server";

type Route = { template: string; pattern: RegExp; names: string[]; staticSegments: number; operations: ApiOperation[] };

/** Compile the catalogue's path templates once: `{name}` matches one segment; a trailing slash is optional. */
export function compileRoutes(operations: readonly ApiOperation[]): Route[] {
  const byTemplate = new Map<string, ApiOperation[]>();
  for (const op of operations) byTemplate.set(op.path, [...(byTemplate.get(op.path) ?? []), op]);
  const routes = [...byTemplate].map(([template, ops]) => {
    const names: string[] = [];
    const segments = template.split("/").filter(Boolean);
    const source = segments
      .map((segment) => {
        const param = segment.match(/^\{(\w+)\}$/);
        if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(param[1]);
        return "([^/]+)";
      })
      .join("/");
    return {
      template,
      pattern: new RegExp(`^/${source}/?$`),
      names,
      staticSegments: segments.length - names.length,
      operations: ops,
    };
  });
  // A literal segment wins over a parameter (/api/customers/all before /api/customers/{id}).
  return routes.sort((a, b) => b.staticSegments - a.staticSegments);
}

/** Serve `request` from the catalogue: the matching path's operation, a 405 for another method, a JSON 404 for no path. */
export function routeApi(routes: Route[], args: { request: Request; context?: AppLoadContext }) {
  const pathname = new URL(args.request.url).pathname;
  for (const route of routes) {
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    let params: Record<string, string>;
    try {
      params = Object.fromEntries(route.names.map((name, i) => [name, decodeURIComponent(match[i + 1])]));
    } catch {
      return problem(400, "The path is not valid.");
    }
    if (args.request.method === "OPTIONS") return methodNotAllowedFor(route.operations.map((o) => o.method));
    return serveApi({ ...args, params }, route.operations);
  }
  return problem(404, `There is no ${pathname} in this API. The operations are listed at /api/docs.`, { type: UNKNOWN_PATH });
}
