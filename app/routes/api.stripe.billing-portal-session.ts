import type { ActionFunctionArgs } from "@remix-run/node";
import { openBillingPortal } from "~/services/billing.server";
import { jsonOrError, requireApiTenantContext } from "~/utils/billing-api.server";

/**
 * Seed POST /stripe/billing-portal-session?customer_id= (empty body) → the portal URL. Another
 * tenant's customer id is answered 404.
 */
export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireApiTenantContext(request);
  const customerId = new URL(request.url).searchParams.get("customer_id");
  return jsonOrError(async () => {
    const result = await openBillingPortal(ctx, customerId);
    return { data: { url: result.kind === "redirect" ? result.url : null } };
  });
}
