import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiValues } from "~/services/connections/connections-api.server";
import { apiRoute, connectionIdField, methodNotAllowed } from "~/utils/api.server";
import { singleLineText } from "~/utils/schemas";

/** Seed connections/salesforce/mapping/attribute/{attribute}/values?connectionId[&object][&limit]. */
export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, {
    method: "GET",
    schema: z.object({
      connectionId: connectionIdField,
      attribute: singleLineText().min(1).max(200),
      object: singleLineText().min(1, "object must not be empty.").max(200).optional(),
      limit: z.coerce
        .number({ error: "limit must be a number." })
        .int("limit must be a whole number.")
        .min(1, "limit must be 1 to 500.")
        .max(500, "limit must be 1 to 500.")
        .default(200),
    }),
    run: async (ctx, input) => ({ data: await apiValues(ctx, input) }),
  });
}

export const action = methodNotAllowed;
