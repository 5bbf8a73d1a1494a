import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiTaskOptions } from "~/services/connections/connections-api.server";
import { apiRoute, connectionIdField, methodNotAllowed } from "~/utils/api.server";

/** Seed /connections/appliedepic/employee-accounts?connectionId: people tasks are assigned to. */
export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, {
    method: "GET",
    schema: z.object({ connectionId: connectionIdField }),
    run: async (ctx, input) => ({ data: await apiTaskOptions(ctx, input.connectionId, "employees") }),
  });
}

export const action = methodNotAllowed;
