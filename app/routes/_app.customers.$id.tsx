import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PostForm, Button, AlertPill } from "~/components/shell";
import { ChangeText } from "~/components/change-text";
import { Card, FlagExplanation, rowClass, tableClass, theadClass } from "~/components/renewals-ui";
import { useTimeZone } from "~/utils/use-time-zone";
import { getCustomerDetail } from "~/services/renewals/customers.server";
import { isServiceError } from "~/services/platform/errors.server";
import { undoRemarket } from "~/services/renewals/remarket.server";
import { requireTenantContext } from "~/utils/auth.server";
import { formatDate, formatDateTime, formatMoney, formatPhone } from "~/utils/format";
import { applyFormOnce } from "~/utils/forms.server";
import { AUDIT_LABELS } from "~/utils/audit";
import { explainReason, plainReason } from "~/utils/flag-reason";
import { EXCLUSION_LABELS, OUTCOME_LABELS, describePrediction } from "~/utils/renewals";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.customer.name ?? "Customer"} | Remarket` }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  try {
    const detail = await getCustomerDetail(ctx, params.id ?? "");
    // Phone numbers are stored E.164 and shown in national format; formatted here so the phone
    // metadata stays on the server.
    return { ...detail, customer: { ...detail.customer, phoneDisplay: formatPhone(detail.customer.phone) } };
  } catch (error) {
    if (isServiceError(error) && error.status === 404) throw new Response("Not found", { status: 404 });
    throw error;
  }
}

/** Undo a re-market from its customer's page (the worklist's toast offers the same for 10 minutes). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const formData = await request.formData();
  const back = `/customers/${params.id ?? ""}`;
  if (formData.get("intent") !== "undo") throw new Response("Unknown action", { status: 400 });
  try {
    return await applyFormOnce(request, formData, async () => {
      const undone = await undoRemarket(ctx, String(formData.get("remarket") ?? ""));
      return redirectWithToast(back, {
        title: `Undone: re-market of ${undone.policyNumber}`,
        message: `Quota ${undone.quotaYear}: ${undone.used} used; the renewal is back in the worklist.`,
      });
    });
  } catch (error) {
    if (isServiceError(error) && error.status === 404) throw new Response("Not found", { status: 404 });
    if (isServiceError(error)) return redirectWithToast(back, { type: "error", title: "Not undone", message: error.message });
    throw error;
  }
}

export default function CustomerPage() {
  const timeZone = useTimeZone();
  const { customer, policies, remarkets, quotes, tasks, audit } = useLoaderData<typeof loader>();
  const policyNumber = new Map(policies.map((p) => [p.id, p.policyNumber]));
  return (
    <div className="space-y-6">
      <div>
        <Link to="/customers" className="text-sm text-brand-600 hover:underline">
          ← Customers
        </Link>
        <h1 className="mt-1 text-2xl font-bold" data-testid="customer-name">
          {customer.name}
        </h1>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          {customer.customerType === "commercial" ? "Commercial" : "Personal"} · {customer.sourceKey}
        </p>
      </div>
      <div className="grid gap-4 md:grid-cols-3">
        <Card title="Contact">
          <dl className="space-y-1 text-sm">
            <div>
              <dt className="inline text-slate-500">E-mail: </dt>
              <dd className="inline">
                {customer.email ? (
                  <a href={`mailto:${customer.email}`} className="text-brand-600 hover:underline">
                    {customer.email}
                  </a>
                ) : (
                  "—"
                )}
              </dd>
            </div>
            <div>
              <dt className="inline text-slate-500">Phone: </dt>
              <dd className="inline">{customer.phoneDisplay || "—"}</dd>
            </div>
            <div>
              <dt className="inline text-slate-500">Address: </dt>
              <dd className="inline">
                {[customer.address1, customer.address2, customer.city, customer.state, customer.zip].filter(Boolean).join(", ") || "—"}
              </dd>
            </div>
            <div>
              <dt className="inline text-slate-500">Producer / CSR: </dt>
              <dd className="inline">
                {customer.producer ?? "—"} / {customer.csr ?? "—"}
              </dd>
            </div>
          </dl>
        </Card>
        <Card title="Re-market history" className="md:col-span-2">
          {remarkets.length === 0 ? <p className="text-sm text-slate-500">Never re-marketed.</p> : null}
          <ul className="space-y-1 text-sm" data-testid="remarket-history">
            {remarkets.map((r) => (
              <li key={r.id}>
                <Link to={`/quotes/${r.id}`} className="font-mono text-brand-600 hover:underline">
                  {r.policyNumber}
                </Link>{" "}
                re-marketed {formatDate(r.remarketedAt, timeZone)}
                {r.byName ? ` by ${r.byName}` : ""} (quota {r.quotaYear}) · {r.outcome ? OUTCOME_LABELS[r.outcome] : "open"}
                {r.premiumSaved !== null ? `, saved ${formatMoney(r.premiumSaved)}` : ""}
                {r.undoable ? (
                  <PostForm className="mt-1 flex flex-wrap items-center gap-2" aria-label={`Undo re-market of ${r.policyNumber}`}>
                    <input type="hidden" name="intent" value="undo" />
                    <input type="hidden" name="remarket" value={r.id} />
                    <Button type="submit" variant="secondary" className="px-2 py-1 text-xs" data-testid="undo-remarket">
                      Undo re-market
                    </Button>
                    <span className="text-xs text-slate-500">
                      Possible for 10 minutes while no quote is recorded; the quota unit comes back.
                    </span>
                  </PostForm>
                ) : null}
              </li>
            ))}
          </ul>
        </Card>
      </div>

      <Card title="Policies">
        {/* On a phone the table scrolls sideways in its frame, one line per term, instead of squeezing each row tall. */}
        <div className="overflow-x-auto">
          <table className={`${tableClass} min-w-[52rem]`} data-testid="customer-policies">
            <thead className={theadClass}>
              <tr>
                <th className="py-2 pr-3">Policy</th>
                <th className="pr-3">Carrier</th>
                <th className="pr-3">Status</th>
                <th className="pr-3">Term</th>
                <th className="pr-3 text-right">Premium</th>
                <th className="pr-3">Forecast</th>
                <th className="pr-3">Flag</th>
              </tr>
            </thead>
            <tbody>
              {policies.map((p) => (
                <tr key={p.id} className={rowClass}>
                  <td className="py-2 pr-3">
                    <span className="font-mono text-xs">{p.policyNumber}</span>
                    <div className="text-xs text-slate-500">
                      {p.lineOfBusiness}
                      {p.riskState ? ` · ${p.riskState}` : ""}
                    </div>
                  </td>
                  <td className="pr-3">{p.carrierName}</td>
                  <td className="pr-3 capitalize">{p.status.replace("_", " ")}</td>
                  <td className="whitespace-nowrap pr-3 text-xs">
                    {formatDate(p.effectiveDate)} – {formatDate(p.expirationDate)}
                  </td>
                  <td className="pr-3 text-right">
                    {formatMoney(p.premium)}
                    {p.priorPremium ? <div className="text-xs text-slate-500">prior {formatMoney(p.priorPremium)}</div> : null}
                  </td>
                  <td className="pr-3 text-xs">
                    {p.forecast ? (
                      <>
                        Renewal {formatMoney(p.forecast.renewalPremium)} <ChangeText pct={p.forecast.changePct} />
                        <div className="text-slate-500">
                          {p.forecast.predicted
                            ? describePrediction(p.forecast, { withRate: false })
                            : p.forecast.renewalPremium !== null
                              ? "carrier offer"
                              : ""}
                        </div>
                      </>
                    ) : (
                      <span className="text-slate-500">not renewing in the window</span>
                    )}
                  </td>
                  <td className="max-w-xs pr-3 text-xs">
                    {p.flagStatus && p.flagWhy ? (
                      <>
                        <AlertPill tone={p.flagStatus === "open" ? "warning" : "neutral"}>
                          {p.flagStatus === "remarketed" ? "Re-marketed" : p.flagStatus[0].toUpperCase() + p.flagStatus.slice(1)}
                        </AlertPill>
                        <div className="mt-1 text-slate-700 dark:text-slate-200">{plainReason(p.flagWhy)}</div>
                        <details className="mt-1">
                          <summary className="cursor-pointer text-brand-700 dark:text-brand-100">Why flagged, in full</summary>
                          <div className="mt-1 w-72">
                            <FlagExplanation items={explainReason(p.flagWhy)} />
                          </div>
                        </details>
                      </>
                    ) : p.forecast?.exclusion ? (
                      <span className="text-slate-500">{EXCLUSION_LABELS[p.forecast.exclusion]}</span>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>

      <div className="grid gap-4 md:grid-cols-2">
        <Card title="Quotes">
          {quotes.length === 0 ? <p className="text-sm text-slate-500">No quotes.</p> : null}
          <ul className="space-y-1 text-sm">
            {quotes.map((q) => (
              <li key={q.id}>
                <span className="font-mono text-xs">{q.policyNumber}</span>: {q.carrierName} {formatMoney(q.premium)} from{" "}
                {formatDate(q.effectiveDate)}
                {q.selected ? " (selected)" : ""}
              </li>
            ))}
          </ul>
        </Card>
        <Card title="Tasks">
          {tasks.length === 0 ? <p className="text-sm text-slate-500">No tasks.</p> : null}
          <ul className="space-y-1 text-sm">
            {tasks.map((t) => (
              <li key={t.id}>
                {t.title} · {t.assignee ?? "unassigned"} · due {formatDate(t.dueDate)} · {t.status}
              </li>
            ))}
          </ul>
        </Card>
      </div>

      <Card title="Audit trail">
        {audit.length === 0 ? <p className="text-sm text-slate-500">No changes recorded.</p> : null}
        <ol className="space-y-1 text-sm" data-testid="audit-trail">
          {audit.map((a) => (
            <li key={a.id}>
              <time dateTime={new Date(a.createdAt).toISOString()} className="text-slate-500">
                {formatDateTime(a.createdAt, timeZone)}
              </time>{" "}
              {a.actorName ?? a.actorEmail ?? "System"}: {AUDIT_LABELS[a.action] ?? a.action}
              {typeof a.details?.policyNumber === "string" ? ` ${a.details.policyNumber}` : ""}
              {typeof a.details?.reason === "string" ? ` (${a.details.reason})` : ""}
              {!a.details?.policyNumber && a.details?.remarketId ? ` ${policyNumber.get(String(a.details.remarketId)) ?? ""}` : ""}
              {typeof (a.details?.toCustomerId ?? a.details?.fromCustomerId) === "string" ? (
                <>
                  {" "}
                  <Link
                    to={`/customers/${String(a.details?.toCustomerId ?? a.details?.fromCustomerId)}`}
                    className="text-brand-600 hover:underline"
                  >
                    ({a.action === "policy.moved_out" ? "its customer now" : "its customer before"})
                  </Link>
                </>
              ) : null}
            </li>
          ))}
        </ol>
      </Card>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
