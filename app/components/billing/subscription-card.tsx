import { AlertPill, Notice } from "~/components/shell";
import type { getBillingOverview } from "~/services/billing/billing.server";

export type BillingOverview = Awaited<ReturnType<typeof getBillingOverview>>;

const STATUS_TONES = {
  trialing: "neutral",
  active: "success",
  past_due: "warning",
  canceled: "error",
  unpaid: "error",
  trial_ended: "error",
} as const;

/** Seed §3 billing state as a card: plan, status, trial or renewal, payment method, grace notice. */
export function SubscriptionCard({ overview }: { overview: BillingOverview }) {
  const card = overview.paymentMethods[0];
  return (
    <section
      aria-labelledby="subscription-title"
      className="space-y-4 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800"
      data-testid="subscription-card"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="subscription-title" className="text-lg font-semibold">
          Subscription
        </h2>
        <AlertPill tone={STATUS_TONES[overview.status]}>
          <span data-testid="subscription-status">{overview.statusLabel}</span>
        </AlertPill>
      </div>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-slate-500">Plan</dt>
        <dd data-testid="subscription-plan">{overview.planName}</dd>
        {overview.trialDaysLeft !== null ? (
          <>
            <dt className="font-medium text-slate-500">Trial</dt>
            <dd data-testid="trial-days-left">
              {overview.trialDaysLeft} day{overview.trialDaysLeft === 1 ? "" : "s"} left (ends {overview.trialEndsOn})
            </dd>
          </>
        ) : null}
        {overview.renewsOn ? (
          <>
            <dt className="font-medium text-slate-500">Renews on</dt>
            <dd data-testid="renews-on">{overview.renewsOn}</dd>
          </>
        ) : null}
        <dt className="font-medium text-slate-500">Payment method</dt>
        <dd data-testid="payment-method">
          {card ? (
            <>
              <span className="capitalize">{card.brand}</span> ending in {card.last4}
              {card.expMonth && card.expYear ? `, expires ${String(card.expMonth).padStart(2, "0")}/${card.expYear}` : ""}
            </>
          ) : (
            "No payment method"
          )}
        </dd>
      </dl>
      {overview.grace ? (
        <Notice tone={overview.grace.status === "in_grace" ? "warning" : "error"}>
          {overview.grace.status === "in_grace"
            ? `Your last payment failed. Re-marketing keeps working during the grace period until ${overview.grace.endsOn} (${overview.grace.daysLeft} day${overview.grace.daysLeft === 1 ? "" : "s"} left). Update your payment method to avoid an interruption.`
            : `Your last payment failed and the grace period ended on ${overview.grace.endsOn}. Update your payment method to resume re-marketing.`}
        </Notice>
      ) : null}
      {!overview.paid && !overview.grace ? <Notice tone="error">{overview.unpaidReason}</Notice> : null}
    </section>
  );
}
