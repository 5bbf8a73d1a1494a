import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiFilterValues } from "~/services/connections/connections-api.server";
import { apiRoute, connectionIdField, methodNotAllowed } from "~/utils/api.server";

/** Seed /connections/etl-filter-values?connectionId: distinct lines, states, carriers, statuses. */
export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, {
    method: "GET",
    schema: z.object({ connectionId: connectionIdField }),
    run: async (ctx, input) => ({ data: await apiFilterValues(ctx, input.connectionId) }),
  });
}

export const action = methodNotAllowed;
