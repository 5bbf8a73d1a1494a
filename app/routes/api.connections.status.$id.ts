import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiConnectionStatus } from "~/services/connections-api.server";
import { connectionsApi, methodNotAllowed } from "~/utils/connections-api.server";

/** Seed /connections/status/{id}: status, step, last sync and the latest import. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return connectionsApi(request, params, {
    method: "GET",
    schema: z.object({ id: z.string() }),
    run: (ctx, input) => apiConnectionStatus(ctx, input.id),
  });
}

export const action = methodNotAllowed;
