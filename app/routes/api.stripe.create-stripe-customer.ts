import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { ensureStripeCustomer } from "~/services/billing/billing.server";
import { ServiceError } from "~/services/platform/errors.server";
import { apiRoute } from "~/utils/api.server";

/** Seed POST /stripe/create-stripe-customer: the tenant's Stripe customer (created once). Admins only. */
export async function action(args: ActionFunctionArgs) {
  return apiRoute(args, {
    method: "POST",
    from: "query",
    schema: z.object({}),
    run: async (ctx) => {
      if (ctx.role !== "admin") throw new ServiceError("Only agency admins can manage billing.", 403);
      return { data: { customerId: await ensureStripeCustomer(ctx) } };
    },
  });
}
