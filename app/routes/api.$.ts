import type { LoaderFunctionArgs } from "@remix-run/node";
import { API_OPERATIONS } from "~/api/catalogue.server";
import { compileRoutes, routeApi } from "~/api/router.server";

// Every /api/* path without a route file of its own: served from the operation catalogue, and an
// unknown path is a JSON 404 (problem+json), never the HTML login page of the app's catch-all.

let routes: ReturnType<typeof compileRoutes> | undefined;

export const loader = (args: LoaderFunctionArgs) => routeApi((routes ??= compileRoutes(API_OPERATIONS)), args);
export const action = loader;
