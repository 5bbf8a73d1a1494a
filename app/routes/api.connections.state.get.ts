import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiGetState } from "~/services/connections/connections-api.server";
import { apiRoute, connectionIdField, methodNotAllowed } from "~/utils/api.server";

/** Seed /connections/state/get?connectionId: the wizard's step and saved drafts. */
export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, {
    method: "GET",
    schema: z.object({ connectionId: connectionIdField }),
    run: async (ctx, input) => ({ data: await apiGetState(ctx, input.connectionId) }),
  });
}

export const action = methodNotAllowed;
