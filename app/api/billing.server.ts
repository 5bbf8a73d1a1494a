import { z } from "zod";
import { getPaymentCustomerId, ensureStripeCustomer, getGracePeriodStatus, openBillingPortal } from "~/services/billing/billing.server";
import { getMonthlyUsage, getRemarketUsage } from "~/services/billing/usage.server";
import { getFlags } from "~/services/identity/feature-flags.server";
import { NotFoundError, ServiceError } from "~/services/platform/errors.server";
import { defineOperation } from "~/utils/api.server";
import { singleLineText } from "~/utils/schemas";

const tag = "Billing";
const blankIsAbsent = (v: unknown) => (v === "" ? undefined : v);
const whole = (message: string, min: number, max: number) =>
  z.preprocess(blankIsAbsent, z.coerce.number({ error: message }).int(message).min(min, message).max(max, message).optional());

export const monthlyUsage = defineOperation({
  method: "GET",
  path: "/api/billing-subscription/monthly-usage",
  tag,
  summary: "Re-markets per month of the year, or per day of the month",
  description: "Gated by the billing feature flag (seed §6): 404 while it is off.",
  input: z.object({ year: whole("year must be a year.", 2000, 2100), month: whole("month must be 1 to 12.", 1, 12) }),
  run: async (ctx, query) => {
    // Seed §6: the billing feature flag gates the usage queries.
    if (!(await getFlags(ctx.db, ctx.tenantId)).billing) throw new NotFoundError();
    const year = query.year ?? (await getRemarketUsage(ctx)).quotaYear;
    return { data: await getMonthlyUsage(ctx, { year, month: query.month ?? null }) };
  },
});

export const remarketUsage = defineOperation({
  method: "GET",
  path: "/api/billing-subscription/remarket-usage",
  tag,
  summary: "The year's re-marketing quota and usage (data.remarketQuota)",
  description: "Gated by the billing feature flag (seed §6): 404 while it is off.",
  response: z.object({
    data: z.object({
      remarketQuota: z.object({
        annual_quota: z.number(),
        currentYearUsage: z.number(),
        usagePercent: z.number(),
        quotaYear: z.number(),
      }),
    }),
  }),
  run: async (ctx) => {
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

export const createStripeCustomer = defineOperation({
  idempotent: true,
  method: "POST",
  path: "/api/stripe/create-stripe-customer",
  tag,
  summary: "The agency's Stripe customer (created once; admins only)",
  description:
    "Answers the existing customer when there is one. 409 while payments are not configured on the server (no STRIPE_SECRET_KEY).",
  from: "query",
  response: z.object({ data: z.object({ customerId: z.string().nullable() }) }),
  run: async (ctx) => {
    if (ctx.role !== "admin") throw new ServiceError("Only agency admins can manage billing.", 403);
    return { data: { customerId: await ensureStripeCustomer(ctx) } };
  },
});

export const paymentCustomerId = defineOperation({
  method: "GET",
  path: "/api/stripe/get-payment-customer-id",
  tag,
  summary: "The Stripe customer id of an e-mail of the caller's own agency",
  input: z.object({
    email: singleLineText({ error: "email is required." }).min(1, "email is required.").max(320).email("email must be an e-mail address."),
  }),
  run: async (ctx, { email }) => ({ data: { customerId: await getPaymentCustomerId(ctx, email) } }),
});

export const gracePeriodStatus = defineOperation({
  method: "GET",
  path: "/api/stripe/grace-period-status",
  tag,
  summary: "Whether a past-due subscription is in its grace period",
  run: async (ctx) => ({ data: await getGracePeriodStatus(ctx) }),
});

export const billingPortalSession = defineOperation({
  method: "POST",
  path: "/api/stripe/billing-portal-session",
  tag,
  summary: "A billing portal URL (customer_id in the query, empty body)",
  description: "Another agency's customer id is a 404. `url` is null while Stripe is not configured.",
  from: "query",
  input: z.object({ customer_id: z.string().optional() }),
  response: z.object({ data: z.object({ url: z.string().nullable() }) }),
  run: async (ctx, input) => {
    const result = await openBillingPortal(ctx, input.customer_id ?? null);
    return { data: { url: result.kind === "redirect" ? result.url : null } };
  },
});
