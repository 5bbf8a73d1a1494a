import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiImportDuration } from "~/services/connections/connections-api.server";
import { apiRoute, connectionIdField, methodNotAllowed } from "~/utils/api.server";

/** Seed /notifications/durationByConnectionId?connectionId: the last import's duration. */
export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, {
    method: "GET",
    schema: z.object({ connectionId: connectionIdField }),
    run: async (ctx, input) => ({ data: await apiImportDuration(ctx, input.connectionId) }),
  });
}

export const action = methodNotAllowed;
