import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiListConnections } from "~/services/connections-api.server";
import { connectionsApi, methodNotAllowed } from "~/utils/connections-api.server";

/** Seed /v2/connections (also /api/v2/connections): the tenant's connections. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return connectionsApi(request, params, {
    method: "GET",
    schema: z.object({}),
    run: (ctx) => apiListConnections(ctx),
  });
}

export const action = methodNotAllowed;
