import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiDisconnect } from "~/services/connections/connections-api.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";

/** Seed /connections/disconnect/{id} ({ deleteData?: boolean }): also its sub-connections. */
export async function action(args: ActionFunctionArgs) {
  return apiRoute(args, {
    method: "POST",
    schema: z.object({ id: z.string(), deleteData: z.boolean({ error: "deleteData must be true or false." }).default(false) }),
    run: async (ctx, input) => ({ data: await apiDisconnect(ctx, input.id, { deleteData: input.deleteData, subConnectionOnly: false }) }),
  });
}

export const loader = methodNotAllowed;
