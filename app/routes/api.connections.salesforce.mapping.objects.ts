import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiObjects } from "~/services/connections-api.server";
import { connectionIdField, connectionsApi, methodNotAllowed } from "~/utils/connections-api.server";

/** Seed connections/salesforce/mapping/objects?connectionId. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return connectionsApi(request, params, {
    method: "GET",
    schema: z.object({ connectionId: connectionIdField }),
    run: (ctx, input) => apiObjects(ctx, input.connectionId),
  });
}

export const action = methodNotAllowed;
