import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiTaskOptions } from "~/services/connections-api.server";
import { connectionIdField, connectionsApi, methodNotAllowed } from "~/utils/connections-api.server";

/** Seed /connections/appliedepic/work-group?connectionId: the task step's work groups. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return connectionsApi(request, params, {
    method: "GET",
    schema: z.object({ connectionId: connectionIdField }),
    run: (ctx, input) => apiTaskOptions(ctx, input.connectionId, "workGroups"),
  });
}

export const action = methodNotAllowed;
