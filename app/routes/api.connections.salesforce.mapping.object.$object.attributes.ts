import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiAttributes } from "~/services/connections/connections-api.server";
import { apiRoute, connectionIdField, methodNotAllowed } from "~/utils/api.server";
import { singleLineText } from "~/utils/schemas";

/** Seed connections/salesforce/mapping/object/{object}/attributes?connectionId. */
export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, {
    method: "GET",
    schema: z.object({ connectionId: connectionIdField, object: singleLineText().min(1).max(200) }),
    run: async (ctx, input) => ({ data: await apiAttributes(ctx, input.connectionId, input.object) }),
  });
}

export const action = methodNotAllowed;
