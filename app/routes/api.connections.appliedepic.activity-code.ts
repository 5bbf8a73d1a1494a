import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiTaskOptions } from "~/services/connections-api.server";
import { connectionIdField, connectionsApi, methodNotAllowed } from "~/utils/connections-api.server";

/** Seed /connections/appliedepic/activity-code?connectionId: the task step's activity codes. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return connectionsApi(request, params, {
    method: "GET",
    schema: z.object({ connectionId: connectionIdField }),
    run: (ctx, input) => apiTaskOptions(ctx, input.connectionId, "activityCodes"),
  });
}

export const action = methodNotAllowed;
