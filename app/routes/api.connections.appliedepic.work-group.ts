import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiTaskOptions } from "~/services/connections/connections-api.server";
import { apiRoute, connectionIdField, methodNotAllowed } from "~/utils/api.server";

/** Seed /connections/appliedepic/work-group?connectionId: the task step's work groups. */
export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, {
    method: "GET",
    schema: z.object({ connectionId: connectionIdField }),
    run: async (ctx, input) => ({ data: await apiTaskOptions(ctx, input.connectionId, "workGroups") }),
  });
}

export const action = methodNotAllowed;
