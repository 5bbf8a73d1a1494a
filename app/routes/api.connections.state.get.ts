import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiGetState } from "~/services/connections-api.server";
import { connectionIdField, connectionsApi, methodNotAllowed } from "~/utils/connections-api.server";

/** Seed /connections/state/get?connectionId: the wizard's step and saved drafts. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return connectionsApi(request, params, {
    method: "GET",
    schema: z.object({ connectionId: connectionIdField }),
    run: (ctx, input) => apiGetState(ctx, input.connectionId),
  });
}

export const action = methodNotAllowed;
