import type { ActionFunctionArgs } from "@remix-run/node";
import { ensureStripeCustomer } from "~/services/billing.server";
import { ServiceError } from "~/services/errors.server";
import { jsonOrError, requireApiTenantContext } from "~/utils/billing-api.server";

/** Seed POST /stripe/create-stripe-customer: the tenant's Stripe customer (created once). Admins only. */
export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireApiTenantContext(request);
  return jsonOrError(async () => {
    if (ctx.role !== "admin") throw new ServiceError("Only agency admins can manage billing.", 403);
    return { data: { customerId: await ensureStripeCustomer(ctx) } };
  });
}
