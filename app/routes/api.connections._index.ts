import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiListConnections } from "~/services/connections/connections-api.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";

/** Seed /v2/connections (also /api/v2/connections): the tenant's connections. */
export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, {
    method: "GET",
    schema: z.object({}),
    run: async (ctx) => ({ data: await apiListConnections(ctx) }),
  });
}

export const action = methodNotAllowed;
