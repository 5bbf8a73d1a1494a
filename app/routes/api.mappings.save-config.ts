import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiSaveMapping } from "~/services/connections/connections-api.server";
import { apiRoute, connectionIdField, methodNotAllowed } from "~/utils/api.server";
import { singleLineText } from "~/utils/schemas";

/** Seed /mappings/save-config ({ connectionId, mapping: { object, fields, valueMaps } }). */
export async function action(args: ActionFunctionArgs) {
  return apiRoute(args, {
    method: "POST",
    schema: z.object({
      connectionId: connectionIdField,
      mapping: z.object(
        {
          object: singleLineText({ error: "mapping.object is required." }).min(1, "mapping.object is required.").max(200),
          fields: z.record(singleLineText(), singleLineText().min(1).max(200), {
            error: "mapping.fields maps each field to a source attribute.",
          }),
          valueMaps: z
            .object({
              lineOfBusiness: z.record(singleLineText(), singleLineText()).default({}),
              status: z.record(singleLineText(), singleLineText()).default({}),
            })
            .default({ lineOfBusiness: {}, status: {} }),
          preset: singleLineText().max(40).nullable().optional(),
        },
        { error: "mapping is required." },
      ),
    }),
    run: async (ctx, input) => ({ data: await apiSaveMapping(ctx, input) }),
  });
}

export const loader = methodNotAllowed;
