import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiAttributes } from "~/services/connections-api.server";
import { connectionIdField, connectionsApi, methodNotAllowed } from "~/utils/connections-api.server";
import { singleLineText } from "~/utils/schemas";

/** Seed connections/salesforce/mapping/object/{object}/attributes?connectionId. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return connectionsApi(request, params, {
    method: "GET",
    schema: z.object({ connectionId: connectionIdField, object: singleLineText().min(1).max(200) }),
    run: (ctx, input) => apiAttributes(ctx, input.connectionId, input.object),
  });
}

export const action = methodNotAllowed;
