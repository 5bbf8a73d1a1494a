import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { getPaymentCustomerId } from "~/services/billing/billing.server";
import { apiRoute } from "~/utils/api.server";
import { singleLineText } from "~/utils/schemas";

/** Seed GET /stripe/get-payment-customer-id?email=: only e-mails of the caller's own agency. */
export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, {
    method: "GET",
    schema: z.object({ email: singleLineText().default("") }),
    run: async (ctx, { email }) => ({ data: { customerId: await getPaymentCustomerId(ctx, email) } }),
  });
}
