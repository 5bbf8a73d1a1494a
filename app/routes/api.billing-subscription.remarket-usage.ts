import type { LoaderFunctionArgs } from "@remix-run/node";
import { getFlags } from "~/services/feature-flags.server";
import { getRemarketUsage } from "~/services/usage.server";
import { jsonOrError, requireApiTenantContext } from "~/utils/billing-api.server";

/** Seed GET /billing-subscription/remarket-usage → data.remarketQuota { annual_quota, currentYearUsage }. */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiTenantContext(request);
  // Seed §6: the billing feature flag gates this query.
  if (!(await getFlags(ctx.db, ctx.tenantId)).billing) return Response.json({ error: "Not found" }, { status: 404 });
  return jsonOrError(async () => {
    const usage = await getRemarketUsage(ctx);
    return {
      data: {
        remarketQuota: {
          annual_quota: usage.annualQuota,
          currentYearUsage: usage.currentYearUsage,
          usagePercent: usage.percent,
          quotaYear: usage.quotaYear,
        },
      },
    };
  });
}
