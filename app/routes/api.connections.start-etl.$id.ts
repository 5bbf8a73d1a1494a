import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiStartImport } from "~/services/connections/connections-api.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";

/** Seed connections/start-etl/{id}: queue the import. */
export async function action(args: ActionFunctionArgs) {
  return apiRoute(args, {
    method: "POST",
    schema: z.object({ id: z.string() }),
    run: async (ctx, input) => ({ data: await apiStartImport(ctx, input.id) }),
  });
}

export const loader = methodNotAllowed;
