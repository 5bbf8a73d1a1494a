import type { LoaderFunctionArgs } from "@remix-run/node";
import { mappingValues } from "~/api/connections.server";
import { serveApi } from "~/utils/api.server";

// Served by its operation in the API catalogue (app/api/), which /api/openapi.json describes.
export const loader = (args: LoaderFunctionArgs) => serveApi(args, [mappingValues]);
export const action = loader;
