import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiSaveState } from "~/services/connections/connections-api.server";
import { apiRoute, connectionIdField, methodNotAllowed } from "~/utils/api.server";
import { cleanJson } from "~/utils/schemas";

/** Seed /connections/state/save: keep a step's draft ({ connectionId, key, draft }). */
export async function action(args: ActionFunctionArgs) {
  return apiRoute(args, {
    method: "POST",
    schema: z.object({
      connectionId: connectionIdField,
      key: z
        .string({ error: "key is required." })
        .regex(/^[a-z]{1,20}$/, "key is 1 to 20 lowercase letters (the step: mapping, filters…)."),
      draft: cleanJson().refine((d) => JSON.stringify(d ?? null).length <= 200_000, "The draft is larger than 200 KB."),
    }),
    run: async (ctx, input) => ({
      data: await apiSaveState(ctx, { connectionId: input.connectionId, key: input.key, draft: input.draft ?? null }),
    }),
  });
}

export const loader = methodNotAllowed;
