import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { openBillingPortal } from "~/services/billing/billing.server";
import { apiRoute } from "~/utils/api.server";

/**
 * Seed POST /stripe/billing-portal-session?customer_id= (empty body) → the portal URL. Another
 * tenant's customer id is answered 404.
 */
export async function action(args: ActionFunctionArgs) {
  return apiRoute(args, {
    method: "POST",
    from: "query",
    schema: z.object({ customer_id: z.string().optional() }),
    run: async (ctx, input) => {
      const result = await openBillingPortal(ctx, input.customer_id ?? null);
      return { data: { url: result.kind === "redirect" ? result.url : null } };
    },
  });
}
