import type { LoaderFunctionArgs } from "@remix-run/node";
import { getPaymentCustomerId } from "~/services/billing.server";
import { jsonOrError, requireApiTenantContext } from "~/utils/billing-api.server";
import { singleLineText } from "~/utils/schemas";

/** Seed GET /stripe/get-payment-customer-id?email=: only e-mails of the caller's own agency. */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiTenantContext(request);
  const email = singleLineText().catch("").parse(new URL(request.url).searchParams.get("email") ?? "");
  return jsonOrError(async () => ({ data: { customerId: await getPaymentCustomerId(ctx, email) } }));
}
