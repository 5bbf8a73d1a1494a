import type { LoaderFunctionArgs } from "@remix-run/node";
import { gracePeriodStatus } from "~/api/billing.server";
import { serveApi } from "~/utils/api.server";

// Served by its operation in the API catalogue (app/api/), which /api/openapi.json describes.
export const loader = (args: LoaderFunctionArgs) => serveApi(args, [gracePeriodStatus]);
export const action = loader;
