import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { getGracePeriodStatus } from "~/services/billing/billing.server";
import { apiRoute } from "~/utils/api.server";

/** Seed GET /stripe/grace-period-status. */
export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, {
    method: "GET",
    schema: z.object({}),
    run: async (ctx) => ({ data: await getGracePeriodStatus(ctx) }),
  });
}
