import { z } from "zod";
import { CUSTOMER_SORT, customerCounts, getCustomerDetail, listCustomers, recentlyMarketed } from "~/services/renewals/customers.server";
import { getForecastPreference, listForecastPreferences, saveForecastPreference } from "~/services/renewals/forecast-preferences.server";
import { forecastSummary } from "~/services/renewals/forecast-views.server";
import {
  getRemarket,
  listRemarkets,
  quotesForCustomer,
  quotesForPolicy,
  REMARKET_SORT,
  saveQuote,
  selectQuote,
} from "~/services/renewals/quotes.server";
import { remarketPolicy } from "~/services/renewals/remarket.server";
import { requireUuid } from "~/services/platform/ids.server";
import { NotFoundError } from "~/services/platform/errors.server";
import { defineOperation } from "~/utils/api.server";
import { ForecastPreferenceFields, forecastObject } from "~/utils/forecast-schemas";
import { QuoteFields, quoteNamesCarrier } from "~/utils/quote-schemas";
import { singleLineText } from "~/utils/schemas";
import { cursorQuery, LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX } from "~/utils/cursor.server";

// Seed §7 customers, quotes (spelled /qoutes/ as the original, with /quotes/ aliases), re-markets
// and forecast calls: the same services and schemas as /customers, /quotes, /remarket and /forecast.

const page = z.coerce
  .number({ error: "page must be a number." })
  .int("page must be a whole number.")
  .min(1, "page starts at 1.")
  .default(1);
const optionalText = singleLineText().max(120, "Keep filters under 120 characters.").optional();
const pathId = z.object({ id: z.string() });

export const customersAll = defineOperation({
  method: "GET",
  path: "/api/customers/all",
  tag: "Customers",
  summary: `Customers by name (or sort), searched by name or e-mail (q), filtered and paged: limit (default ${LIST_LIMIT_DEFAULT}, at most ${LIST_LIMIT_MAX}) and cursor (nextCursor of the previous page), or page (20 a page)`,
  input: z.object({
    q: optionalText,
    state: optionalText,
    producer: optionalText,
    segment: z.enum(["all", "active", "remarketed"], { error: "segment is all, active or remarketed." }).default("all"),
    sort: CUSTOMER_SORT.query,
    page,
    ...cursorQuery,
  }),
  run: async (ctx, { page: pageNumber, limit, cursor, sort, ...filters }) => {
    const { rows, total, nextCursor } = await listCustomers(ctx, filters, pageNumber, { limit, cursor, sort });
    // data stays the array of the original spec: nextCursor sits beside total and page.
    return { data: rows, total, page: pageNumber, nextCursor };
  },
});

export const customersCounts = defineOperation({
  method: "GET",
  path: "/api/customers/counts",
  tag: "Customers",
  summary: "How many customers, with active policies, and re-marketed this year",
  response: z.object({
    data: z.object({
      total: z.number(),
      active: z.number(),
      remarketed: z.number(),
      year: z.number(),
      countedAt: z
        .string()
        .nullable()
        .describe("When total and active were counted: the last forecast computation (it follows every import); null when counted now."),
    }),
  }),
  run: async (ctx) => {
    const counts = await customerCounts(ctx);
    return { data: { ...counts, countedAt: counts.countedAt?.toISOString() ?? null } };
  },
});

export const customersRecentMarketed = defineOperation({
  method: "GET",
  path: "/api/customers/recentMarketed",
  tag: "Customers",
  summary: "Recently re-marketed customers",
  input: z.object({
    limit: z.coerce.number({ error: "limit must be a number." }).int().min(1, "limit is 1 to 50.").max(50, "limit is 1 to 50.").default(5),
  }),
  run: async (ctx, input) => ({ data: await recentlyMarketed(ctx, input.limit) }),
});

export const customerById = defineOperation({
  method: "GET",
  path: "/api/customers/{id}",
  tag: "Customers",
  summary: "A customer with policies, forecasts, re-markets, quotes, tasks and audit trail",
  input: pathId,
  run: async (ctx, input) => ({ data: await getCustomerDetail(ctx, input.id) }),
});

export const customerAuditDetails = defineOperation({
  method: "GET",
  path: "/api/customers/{id}/audit-details",
  tag: "Customers",
  summary: "A customer's audit trail",
  input: pathId,
  run: async (ctx, input) => ({ data: (await getCustomerDetail(ctx, input.id)).audit }),
});

const quotesTag = "Quotes";
const quotesOf = (prefix: string) => ({
  list: defineOperation({
    method: "GET",
    path: `${prefix}`,
    tag: quotesTag,
    summary: `Re-marketed policies with their quote counts (open, closed or all), open first then newest (or sort), paged by limit (default ${LIST_LIMIT_DEFAULT}, at most ${LIST_LIMIT_MAX}) and cursor (nextCursor of the previous page), or page (20 a page)`,
    input: z.object({
      status: z.enum(["open", "closed", "all"], { error: "status is open, closed or all." }).default("open"),
      sort: REMARKET_SORT.query,
      page,
      ...cursorQuery,
    }),
    run: async (ctx, input) => {
      const result = await listRemarkets(ctx, input);
      return { data: result };
    },
  }),
  customer: defineOperation({
    method: "GET",
    path: `${prefix}/customer`,
    tag: quotesTag,
    summary: "Quotes of one customer's policies",
    input: z.object({ customerId: z.string({ error: "customerId is required." }) }),
    run: async (ctx, input) => {
      // Another agency's customer is a 404, as a missing one.
      await getCustomerDetail(ctx, input.customerId);
      return { data: await quotesForCustomer(ctx, input.customerId) };
    },
  }),
  policy: defineOperation({
    method: "GET",
    path: `${prefix}/policy`,
    tag: quotesTag,
    summary: "Quotes of one policy (policyId in the query)",
    input: z.object({ policyId: z.string({ error: "policyId is required." }) }),
    run: async (ctx, input) => ({ data: await quotesForPolicy(ctx, input.policyId) }),
  }),
  policyById: defineOperation({
    method: "GET",
    path: `${prefix}/policy/{policyId}`,
    tag: quotesTag,
    summary: "Quotes of one policy",
    input: z.object({ policyId: z.string() }),
    run: async (ctx, input) => ({ data: await quotesForPolicy(ctx, input.policyId) }),
  }),
  createUpdate: defineOperation({
    method: "POST",
    path: `${prefix}/policy/create-update`,
    tag: quotesTag,
    summary: "Record a quote for a re-marketed policy, or edit one (quoteId)",
    input: quoteNamesCarrier(z.object({ remarketId: z.string({ error: "remarketId is required." }), ...QuoteFields })),
    run: async (ctx, { remarketId, ...quote }) => {
      requireUuid(remarketId, "Re-market not found");
      await saveQuote(ctx, remarketId, quote);
      return { data: await getRemarket(ctx, remarketId) };
    },
  }),
  selection: defineOperation({
    method: "POST",
    path: `${prefix}/{id}/selection`,
    tag: quotesTag,
    summary: "Select the winning quote, closing its re-market",
    input: pathId,
    run: async (ctx, { id }) => {
      if (!/^[0-9a-f-]{36}$/i.test(id)) throw new NotFoundError("Quote not found");
      return { data: await selectQuote(ctx, id) };
    },
  }),
});

/** The original spelling, kept for existing clients. */
export const qoutes = quotesOf("/api/qoutes");
/** The correctly spelled alias. */
export const quotes = quotesOf("/api/quotes");

export const policiesRemarket = defineOperation({
  idempotent: true,
  method: "POST",
  path: "/api/policies/remarket",
  tag: "Re-marketing",
  summary: "Re-market a policy: uses one unit of the year's quota",
  description:
    "Refused with a problem (409 when already re-marketed; 403 or 409 when the quota is used up or the agency is unpaid after its trial) before any quota is used.",
  input: z.object({ policyId: z.string({ error: "policyId is required." }) }),
  status: 201,
  run: async (ctx, input) => ({ data: await remarketPolicy(ctx, input.policyId) }),
});

const forecastTag = "Forecast";
const windowQuery = z.object({
  window: z.enum(["6m", "yr"], { error: "window is 6m or yr." }).optional(),
});

export const forecastSummaryTenant = defineOperation({
  method: "GET",
  path: "/api/forecast-summary/tenant",
  tag: forecastTag,
  summary: "Renewals per month in the forecast window (the agency's preference unless window is given)",
  input: windowQuery,
  run: async (ctx, input) => {
    const window = input.window ?? (await getForecastPreference(ctx)).window;
    return { data: { window, months: await forecastSummary(ctx, window) } };
  },
});

export const forecastPreferencesTenant = defineOperation({
  method: "GET",
  path: "/api/forecast-preferences/tenant",
  tag: forecastTag,
  summary: "The agency-wide preference (forecast object 'all')",
  run: async (ctx) => ({ data: await getForecastPreference(ctx) }),
});

export const forecastPreferencesList = defineOperation({
  method: "GET",
  path: "/api/forecast-preferences",
  tag: forecastTag,
  summary: "Every saved preference, one per forecast object",
  run: async (ctx) => ({ data: await listForecastPreferences(ctx) }),
});

export const forecastPreferencesSave = defineOperation({
  method: "POST",
  path: "/api/forecast-preferences",
  tag: forecastTag,
  summary: "Create or replace the preference of one forecast object",
  description: "window is '6 months', '12 months' or their codes 6m and yr (seed §5).",
  input: ForecastPreferenceFields,
  run: async (ctx, input) => {
    await saveForecastPreference(ctx, input);
    return { data: await getForecastPreference(ctx, input.forecastObjectId) };
  },
});

export const forecastPreferenceByObject = defineOperation({
  method: "GET",
  path: "/api/forecast-preferences/{forecast_object_id}",
  tag: forecastTag,
  summary: "The preference that applies to one forecast object (its own, else 'all', else the defaults)",
  input: z.object({ forecast_object_id: forecastObject }),
  run: async (ctx, input) => ({ data: await getForecastPreference(ctx, input.forecast_object_id) }),
});
