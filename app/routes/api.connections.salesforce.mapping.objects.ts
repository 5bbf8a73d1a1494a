import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiObjects } from "~/services/connections/connections-api.server";
import { apiRoute, connectionIdField, methodNotAllowed } from "~/utils/api.server";

/** Seed connections/salesforce/mapping/objects?connectionId. */
export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, {
    method: "GET",
    schema: z.object({ connectionId: connectionIdField }),
    run: async (ctx, input) => ({ data: await apiObjects(ctx, input.connectionId) }),
  });
}

export const action = methodNotAllowed;
