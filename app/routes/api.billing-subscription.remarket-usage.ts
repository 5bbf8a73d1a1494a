import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { NotFoundError } from "~/services/platform/errors.server";
import { getFlags } from "~/services/identity/feature-flags.server";
import { getRemarketUsage } from "~/services/billing/usage.server";
import { apiRoute } from "~/utils/api.server";

/** Seed GET /billing-subscription/remarket-usage → data.remarketQuota { annual_quota, currentYearUsage }. */
export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, {
    method: "GET",
    schema: z.object({}),
    run: async (ctx) => {
      // Seed §6: the billing feature flag gates this query.
      if (!(await getFlags(ctx.db, ctx.tenantId)).billing) throw new NotFoundError();
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
    },
  });
}
