import type { LoaderFunctionArgs } from "@remix-run/node";
import { authLogout } from "~/api/auth.server";
import { serveApi } from "~/utils/api.server";

// Served by its operation in the API catalogue (app/api/), which /api/openapi.json describes.
export const loader = (args: LoaderFunctionArgs) => serveApi(args, [authLogout]);
export const action = loader;
