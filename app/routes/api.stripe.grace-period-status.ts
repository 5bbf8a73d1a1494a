import type { LoaderFunctionArgs } from "@remix-run/node";
import { getGracePeriodStatus } from "~/services/billing.server";
import { jsonOrError, requireApiTenantContext } from "~/utils/billing-api.server";

/** Seed GET /stripe/grace-period-status. */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiTenantContext(request);
  return jsonOrError(async () => ({ data: await getGracePeriodStatus(ctx) }));
}
