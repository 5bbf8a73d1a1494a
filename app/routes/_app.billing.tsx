import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { z } from "zod";
import { SubscriptionCard } from "~/components/billing/subscription-card";
import { UsageChart } from "~/components/billing/usage-chart";
import { UsageMeter } from "~/components/billing/usage-meter";
import { PostForm, Notice, Button } from "~/components/shell";
import { ErrorList, SelectField } from "~/components/ui/field";
import { changePlan, getBillingOverview, openBillingPortal, startAddPaymentMethod } from "~/services/billing/billing.server";
import { isServiceError } from "~/services/platform/errors.server";
import { getFlags } from "~/services/identity/feature-flags.server";
import { getMonthlyUsage, getRemarketUsage } from "~/services/billing/usage.server";
import { requireAdmin, requireTenantContext } from "~/utils/auth.server";
import { PAYMENTS_NOT_CONFIGURED } from "~/utils/billing-copy";
import { MONTH_NAMES, formatCount, formatMoney } from "~/utils/format";
import { PLAN_IDS } from "~/utils/plan-catalogue";
import { applyFormOnce } from "~/utils/forms.server";
import { replyInvalid, replyWithServiceError } from "~/utils/submission.server";
import { localDateParts } from "~/utils/time-zone";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Billing | Remarket" }];

export const handle = { description: "Your plan, re-marketing quota and usage this year." };

const ActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("change-plan"), plan: z.enum(PLAN_IDS, { error: "Choose a plan." }) }),
  z.object({ intent: z.literal("add-payment-method") }),
  z.object({ intent: z.literal("portal") }),
]);

// A year or month the page cannot show falls back to the current quota year, all months.
const UsageQuery = z.object({
  year: z.coerce.number().int().min(2000).max(2100).optional().catch(undefined),
  month: z.coerce.number().int().min(1).max(12).optional().catch(undefined),
});

// Seed §9: the remarket usage query is stale and refetched every 600 000 ms.
const USAGE_REFRESH_MS = 600_000;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const url = new URL(request.url);
  const [overview, flags] = await Promise.all([getBillingOverview(ctx), getFlags(ctx.db, ctx.tenantId)]);
  // Seed §6: the billing flag gates the usage query.
  const usage = flags.billing ? await getRemarketUsage(ctx) : null;
  let monthly = null;
  let years: number[] = [];
  if (usage) {
    const query = UsageQuery.parse({ year: url.searchParams.get("year") || undefined, month: url.searchParams.get("month") || undefined });
    const firstYear = localDateParts(ctx.auth.tenant.createdAt, ctx.auth.tenant.timeZone).year;
    years = Array.from({ length: Math.max(1, usage.quotaYear - firstYear + 1) }, (_, i) => usage.quotaYear - i);
    monthly = await getMonthlyUsage(ctx, { year: query.year ?? usage.quotaYear, month: query.month ?? null });
  }
  return { overview, usage, monthly, years, isAdmin: ctx.role === "admin", checkout: url.searchParams.get("checkout") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = await requireAdmin(request, context);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: ActionSchema });
  if (submission.status !== "success") return replyInvalid(submission);
  const input = submission.value;
  try {
    return await applyFormOnce(request, formData, async () => {
      const result =
        input.intent === "change-plan"
          ? await changePlan(ctx, input.plan)
          : input.intent === "add-payment-method"
            ? await startAddPaymentMethod(ctx)
            : await openBillingPortal(ctx);
      if (result.kind === "redirect") return redirect(result.url);
      return redirectWithToast("/billing", { type: "success", title: "Plan changed", message: result.message });
    });
  } catch (error) {
    if (error instanceof Response) throw error;
    if (isServiceError(error) && input.intent !== "change-plan") {
      return redirectWithToast("/billing", { type: "error", title: "Not available", message: error.message });
    }
    return replyWithServiceError(submission, error);
  }
}

export default function BillingPage() {
  const { overview, usage, monthly, years, isAdmin, checkout } = useLoaderData<typeof loader>();
  return (
    <div className="max-w-4xl space-y-8">
      <h1 className="text-2xl font-bold">Billing</h1>
      {checkout === "success" ? (
        <Notice tone="success">Thank you. Your billing details update here as soon as Stripe confirms them.</Notice>
      ) : null}
      {checkout === "canceled" ? <Notice tone="neutral">Checkout was canceled; nothing changed.</Notice> : null}
      <SubscriptionCard overview={overview} />
      {isAdmin ? <BillingActions overview={overview} /> : <p className="text-sm text-slate-500">Only agency admins can change billing.</p>}
      {usage ? <UsageSection initial={usage} /> : <p className="text-sm text-slate-500">Usage reporting is turned off for this agency.</p>}
      {monthly ? <MonthlyUsage monthly={monthly} years={years} /> : null}
    </div>
  );
}

function BillingActions({ overview }: { overview: ReturnType<typeof useLoaderData<typeof loader>>["overview"] }) {
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const [form, fields] = useForm({
    id: "plan",
    lastResult,
    defaultValue: { plan: overview.plan?.id ?? "growth" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ActionSchema }),
    shouldRevalidate: "onInput",
  });
  const local = overview.mode === "local";
  const subscribed = overview.plan !== null;
  return (
    <section
      aria-labelledby="billing-actions-title"
      className="space-y-4 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800"
    >
      <h2 id="billing-actions-title" className="text-lg font-semibold">
        {subscribed ? "Change plan" : "Choose a plan"}
      </h2>
      {local ? (
        <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="local-mode-note">
          {PAYMENTS_NOT_CONFIGURED} A plan change applies at once and nothing is charged.
        </p>
      ) : null}
      <PostForm {...getFormProps(form)} className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
        <ErrorList id={form.errorId} errors={form.errors} />
        <SelectField
          label="Plan"
          {...getSelectProps(fields.plan)}
          id={fields.plan.id}
          errors={fields.plan.errors}
          options={overview.plans.map((p) => ({
            value: p.id,
            label: `${p.name}: ${formatCount(p.annualQuota, "re-market")} a year, ${formatMoney(p.monthlyPriceCents / 100)}/month`,
          }))}
        />
        <Button type="submit" name="intent" value="change-plan" pending={busy("change-plan")}>
          {subscribed ? "Change plan" : "Start subscription"}
        </Button>
      </PostForm>
      {/* Without Stripe only the local plan switch can work: no payment or portal buttons. */}
      {local ? null : (
        <div className="flex flex-wrap gap-3">
          <PostForm>
            <Button type="submit" name="intent" value="add-payment-method" variant="secondary" pending={busy("add-payment-method")}>
              Add payment method
            </Button>
          </PostForm>
          <PostForm>
            <Button type="submit" name="intent" value="portal" variant="secondary" pending={busy("portal")}>
              Manage billing
            </Button>
          </PostForm>
        </div>
      )}
    </section>
  );
}

type Usage = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["usage"]>;

function UsageSection({ initial }: { initial: Usage }) {
  // Seed §9: usage goes stale and is re-read every 600 000 ms while the page stays open.
  // Revalidating re-runs this page's loader (session cookie), so the API can stay bearer-only.
  const { revalidate } = useRevalidator();
  useEffect(() => {
    const timer = setInterval(revalidate, USAGE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [revalidate]);
  const used = initial.currentYearUsage;
  const quota = initial.annualQuota;
  return (
    <section
      aria-labelledby="usage-title"
      className="space-y-3 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800"
    >
      <h2 id="usage-title" className="text-lg font-semibold">
        Re-marketing quota
      </h2>
      <UsageMeter used={used} quota={quota} quotaYear={initial.quotaYear} />
    </section>
  );
}

function MonthlyUsage({
  monthly,
  years,
}: {
  monthly: NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["monthly"]>;
  years: number[];
}) {
  const period = monthly.month ? `${MONTH_NAMES[monthly.month - 1]} ${monthly.year}` : String(monthly.year);
  return (
    <section
      aria-labelledby="monthly-title"
      className="space-y-4 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800"
    >
      <h2 id="monthly-title" className="text-lg font-semibold">
        Usage by {monthly.month ? "day" : "month"}
      </h2>
      <Form method="get" className="flex flex-wrap items-end gap-3" preventScrollReset>
        <SelectField
          label="Year"
          id="usage-year"
          name="year"
          defaultValue={String(monthly.year)}
          options={(years.includes(monthly.year) ? years : [monthly.year, ...years]).map((y) => ({ value: String(y), label: String(y) }))}
        />
        <SelectField
          label="Month"
          id="usage-month"
          name="month"
          defaultValue={monthly.month ? String(monthly.month) : ""}
          defaultOption="All months"
          options={MONTH_NAMES.map((m, i) => ({ value: String(i + 1), label: m }))}
        />
        <Button type="submit" variant="secondary">
          Show
        </Button>
      </Form>
      <UsageChart
        key={`${monthly.year}-${monthly.month ?? "all"}`}
        title={`Re-markets per ${monthly.month ? "day" : "month"}, ${period}`}
        caption={`${monthly.total} re-market${monthly.total === 1 ? "" : "s"} in ${period}.`}
        buckets={monthly.buckets}
      />
    </section>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
