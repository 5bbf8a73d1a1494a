import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiTaskOptions } from "~/services/connections-api.server";
import { connectionIdField, connectionsApi, methodNotAllowed } from "~/utils/connections-api.server";

/** Seed connections/qqcatalyst/employee-accounts?connectionId: people tasks are assigned to. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return connectionsApi(request, params, {
    method: "GET",
    schema: z.object({ connectionId: connectionIdField }),
    run: (ctx, input) => apiTaskOptions(ctx, input.connectionId, "employees"),
  });
}

export const action = methodNotAllowed;
