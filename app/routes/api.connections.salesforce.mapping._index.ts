import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiMapping } from "~/services/connections-api.server";
import { connectionIdField, connectionsApi, methodNotAllowed } from "~/utils/connections-api.server";

/** Seed connections/salesforce/mapping?connectionId: the saved mapping and the suggestion. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return connectionsApi(request, params, {
    method: "GET",
    schema: z.object({ connectionId: connectionIdField }),
    run: (ctx, input) => apiMapping(ctx, input.connectionId),
  });
}

export const action = methodNotAllowed;
