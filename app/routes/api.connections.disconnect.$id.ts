import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiDisconnect } from "~/services/connections-api.server";
import { connectionsApi, methodNotAllowed } from "~/utils/connections-api.server";

/** Seed /connections/disconnect/{id} ({ deleteData?: boolean }): also its sub-connections. */
export async function action({ request, params }: ActionFunctionArgs) {
  return connectionsApi(request, params, {
    method: "POST",
    schema: z.object({ id: z.string(), deleteData: z.boolean({ error: "deleteData must be true or false." }).default(false) }),
    run: (ctx, input) => apiDisconnect(ctx, input.id, { deleteData: input.deleteData, subConnectionOnly: false }),
  });
}

export const loader = methodNotAllowed;
