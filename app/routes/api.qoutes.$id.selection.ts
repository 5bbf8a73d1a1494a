import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { NotFoundError } from "~/services/platform/errors.server";
import { selectQuote } from "~/services/renewals/quotes.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";

/** Seed qoutes/id/selection: select a quote, closing its re-market (alias: /api/quotes/:id/selection). */
export async function action(args: ActionFunctionArgs) {
  return apiRoute(args, {
    method: ["POST", "PUT", "PATCH"],
    schema: z.object({ id: z.string() }),
    run: async (ctx, { id }) => {
      if (!/^[0-9a-f-]{36}$/i.test(id)) throw new NotFoundError("Quote not found");
      return { data: await selectQuote(ctx, id) };
    },
  });
}

export const loader = methodNotAllowed;
