import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { NotFoundError } from "~/services/platform/errors.server";
import { getFlags } from "~/services/identity/feature-flags.server";
import { getMonthlyUsage, getRemarketUsage } from "~/services/billing/usage.server";
import { apiRoute } from "~/utils/api.server";

const blankIsAbsent = (v: unknown) => (v === "" ? undefined : v);
const Query = z.object({
  year: z.preprocess(
    blankIsAbsent,
    z.coerce
      .number({ error: "year must be a year." })
      .int("year must be a year.")
      .min(2000, "year must be a year.")
      .max(2100, "year must be a year.")
      .optional(),
  ),
  month: z.preprocess(
    blankIsAbsent,
    z.coerce
      .number({ error: "month must be 1 to 12." })
      .int("month must be 1 to 12.")
      .min(1, "month must be 1 to 12.")
      .max(12, "month must be 1 to 12.")
      .optional(),
  ),
});

/** Seed GET /billing-subscription/monthly-usage?month&year: per month of the year, or per day of the month. */
export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, {
    method: "GET",
    schema: Query,
    run: async (ctx, query) => {
      // Seed §6: the billing feature flag gates the usage queries.
      if (!(await getFlags(ctx.db, ctx.tenantId)).billing) throw new NotFoundError();
      const year = query.year ?? (await getRemarketUsage(ctx)).quotaYear;
      return { data: await getMonthlyUsage(ctx, { year, month: query.month ?? null }) };
    },
  });
}
