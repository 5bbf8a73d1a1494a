import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiImportDuration } from "~/services/connections-api.server";
import { connectionIdField, connectionsApi, methodNotAllowed } from "~/utils/connections-api.server";

/** Seed /notifications/durationByConnectionId?connectionId: the last import's duration. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return connectionsApi(request, params, {
    method: "GET",
    schema: z.object({ connectionId: connectionIdField }),
    run: (ctx, input) => apiImportDuration(ctx, input.connectionId),
  });
}

export const action = methodNotAllowed;
