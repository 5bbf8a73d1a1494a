import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiStartImport } from "~/services/connections-api.server";
import { connectionsApi, methodNotAllowed } from "~/utils/connections-api.server";

/** Seed connections/start-etl/{id}: queue the import. */
export async function action({ request, params }: ActionFunctionArgs) {
  return connectionsApi(request, params, {
    method: "POST",
    schema: z.object({ id: z.string() }),
    run: (ctx, input) => apiStartImport(ctx, input.id),
  });
}

export const loader = methodNotAllowed;
