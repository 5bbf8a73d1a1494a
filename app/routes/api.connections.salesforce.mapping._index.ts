import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiMapping } from "~/services/connections/connections-api.server";
import { apiRoute, connectionIdField, methodNotAllowed } from "~/utils/api.server";

/** Seed connections/salesforce/mapping?connectionId: the saved mapping and the suggestion. */
export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, {
    method: "GET",
    schema: z.object({ connectionId: connectionIdField }),
    run: async (ctx, input) => ({ data: await apiMapping(ctx, input.connectionId) }),
  });
}

export const action = methodNotAllowed;
