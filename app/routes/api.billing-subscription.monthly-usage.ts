import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { getFlags } from "~/services/feature-flags.server";
import { getMonthlyUsage, getRemarketUsage } from "~/services/usage.server";
import { jsonOrError, requireApiTenantContext } from "~/utils/billing-api.server";

const Query = z.object({
  year: z.coerce.number().int().min(2000).max(2100).optional(),
  month: z.coerce.number().int().min(1).max(12).optional(),
});

/** Seed GET /billing-subscription/monthly-usage?month&year: per month of the year, or per day of the month. */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiTenantContext(request);
  if (!(await getFlags(ctx.db, ctx.tenantId)).billing) return Response.json({ error: "Not found" }, { status: 404 });
  const url = new URL(request.url);
  const query = Query.safeParse({ year: url.searchParams.get("year") || undefined, month: url.searchParams.get("month") || undefined });
  if (!query.success) return Response.json({ error: "year must be a year and month 1 to 12." }, { status: 400 });
  return jsonOrError(async () => {
    const year = query.data.year ?? (await getRemarketUsage(ctx)).quotaYear;
    return { data: await getMonthlyUsage(ctx, { year, month: query.data.month ?? null }) };
  });
}
