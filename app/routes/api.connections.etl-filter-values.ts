import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiFilterValues } from "~/services/connections-api.server";
import { connectionIdField, connectionsApi, methodNotAllowed } from "~/utils/connections-api.server";

/** Seed /connections/etl-filter-values?connectionId: distinct lines, states, carriers, statuses. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return connectionsApi(request, params, {
    method: "GET",
    schema: z.object({ connectionId: connectionIdField }),
    run: (ctx, input) => apiFilterValues(ctx, input.connectionId),
  });
}

export const action = methodNotAllowed;
