import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiConnectionStatus } from "~/services/connections/connections-api.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";

/** Seed /connections/status/{id}: status, step, last sync and the latest import. */
export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, {
    method: "GET",
    schema: z.object({ id: z.string() }),
    run: async (ctx, input) => ({ data: await apiConnectionStatus(ctx, input.id) }),
  });
}

export const action = methodNotAllowed;
