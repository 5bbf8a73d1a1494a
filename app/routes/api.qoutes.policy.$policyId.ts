import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { quotesForPolicy } from "~/services/renewals/quotes.server";
import { apiRoute } from "~/utils/api.server";

/** Seed GET qoutes/policy (spelling kept for existing clients; /api/quotes/policy/:id is the alias). */
export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, {
    method: "GET",
    schema: z.object({ policyId: z.string() }),
    run: async (ctx, { policyId }) => ({ data: await quotesForPolicy(ctx, policyId) }),
  });
}
