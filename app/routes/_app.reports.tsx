import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useTimeZone } from "~/utils/use-time-zone";
import { Form, useLoaderData } from "@remix-run/react";
import { addDays, formatISO, parseISO, subYears } from "date-fns";
import { z } from "zod";
import { BarChart } from "~/components/bar-chart";
import { Pagination } from "~/components/pagination";
import { Card, inputClass, rowClass, tableClass, theadClass } from "~/components/renewals-ui";
import { Button } from "~/components/shell";
import { calendarDate } from "~/services/renewals/forecast.server";
import { formatSavedTotal, SAVINGS_BASIS_LABELS } from "~/services/renewals/savings";
import { BULK_LOG_PAGE_SIZE, bulkLog, quotaReturn, retentionBy, type RetentionRow } from "~/services/renewals/reports.server";
import { requireTenantContext } from "~/utils/auth.server";
import { formatDate, formatDateTime, formatMoney, formatMonth, formatNumber } from "~/utils/format";
import { pageCountFor, readPage } from "~/utils/pagination";

export const meta: MetaFunction = () => [{ title: "Reports | Remarket" }];

export const handle = {
  description: "Retention and savings from re-marketing: kept versus lost renewals, quota use by month and bulk actions.",
};

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
// The months and their total keep cents: rounded one by one, $90.58 and $167.80 read $91 and $168
// above a total of $258.
const CENTS = 2;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const url = new URL(request.url);
  const today = calendarDate(new Date(), ctx.auth.tenant.timeZone);
  const from = day
    .catch(formatISO(addDays(subYears(parseISO(today), 1), 1), { representation: "date" }))
    .parse(url.searchParams.get("from") ?? undefined);
  const to = day.catch(today).parse(url.searchParams.get("to") ?? undefined);
  const year = z.coerce
    .number()
    .int()
    .min(2000)
    .max(2100)
    .catch(Number(today.slice(0, 4)))
    .parse(url.searchParams.get("year") ?? undefined);
  const page = readPage(url);
  const period = from <= to ? { from, to } : { from: to, to: from };
  const [byCarrier, byLine, byProducer, quota, log] = await Promise.all([
    retentionBy(ctx, "carrier", period, ctx.auth.tenant.timeZone),
    retentionBy(ctx, "line", period, ctx.auth.tenant.timeZone),
    retentionBy(ctx, "producer", period, ctx.auth.tenant.timeZone),
    quotaReturn(ctx, year, ctx.auth.tenant.timeZone),
    bulkLog(ctx, page),
  ]);
  return { period, year, byCarrier, byLine, byProducer, quota, log, page, pageCount: pageCountFor(log.total, BULK_LOG_PAGE_SIZE) };
}

export default function ReportsPage() {
  const timeZone = useTimeZone();
  const { period, year, byCarrier, byLine, byProducer, quota, log, page, pageCount } = useLoaderData<typeof loader>();
  const totals = quota.reduce(
    (t, m) => ({
      used: t.used + m.used,
      rewrites: t.rewrites + m.rewrites,
      savedVsOffer: t.savedVsOffer + m.savedVsOffer,
      savedVsCurrent: t.savedVsCurrent + m.savedVsCurrent,
    }),
    { used: 0, rewrites: 0, savedVsOffer: 0, savedVsCurrent: 0 },
  );
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Reports</h1>
      <Card title="Retention">
        <Form method="get" className="mb-4 flex flex-wrap items-end gap-3" aria-label="Period">
          <label className="text-sm">
            <span className="font-medium">From</span>
            <input type="date" name="from" defaultValue={period.from} className={`${inputClass} mt-1`} />
          </label>
          <label className="text-sm">
            <span className="font-medium">To</span>
            <input type="date" name="to" defaultValue={period.to} className={`${inputClass} mt-1`} />
          </label>
          <input type="hidden" name="year" value={year} />
          <Button type="submit" variant="secondary">
            Show
          </Button>
        </Form>
        <p className="mb-3 text-sm text-slate-600 dark:text-slate-300">
          Closed re-markets from {formatDate(period.from)} to {formatDate(period.to)}: the business the agency kept (renewed with the
          incumbent or rewritten with another carrier) versus lost, grouped by the carrier it was with when re-marketed.
        </p>
        <div className="grid gap-6 xl:grid-cols-3">
          <Retention title="By incumbent carrier" rows={byCarrier} testId="retention-carrier" />
          <Retention title="By line of business" rows={byLine} testId="retention-line" />
          <Retention title="By the policy's producer" rows={byProducer} testId="retention-producer" />
        </div>
      </Card>

      <Card
        title={`Quota return ${year}`}
        actions={
          <Form method="get" className="flex items-end gap-2">
            <input type="hidden" name="from" value={period.from} />
            <input type="hidden" name="to" value={period.to} />
            <label className="text-sm">
              <span className="sr-only">Year</span>
              <input type="number" name="year" defaultValue={year} min={2000} max={2100} className={`${inputClass} w-24`} />
            </label>
            <Button type="submit" variant="secondary">
              Show year
            </Button>
          </Form>
        }
      >
        <BarChart
          title={`Re-markets used and rewrites bound per month, ${year}`}
          description="Quota used and rewrites bound per month; premium saved is in the table."
          categories={quota.map((m) => formatMonth(m.month, "short"))}
          series={[
            { key: "used", label: "Re-markets used", color: "#1f57c0" },
            { key: "rewrites", label: "Rewrites bound", color: "#16a34a" },
          ]}
          values={{ used: quota.map((m) => m.used), rewrites: quota.map((m) => m.rewrites) }}
        />
        <div className="mt-3 overflow-x-auto">
          <table className={tableClass} data-testid="quota-return">
            <thead className={theadClass}>
              <tr>
                <th className="py-2">Month</th>
                <th className="pl-3 text-right">Re-markets used</th>
                <th className="pl-3 text-right">Rewrites bound</th>
                <th className="pl-3 text-right">Premium saved {SAVINGS_BASIS_LABELS.offer}</th>
                <th className="pl-3 text-right">Premium saved {SAVINGS_BASIS_LABELS.current}</th>
              </tr>
            </thead>
            <tbody>
              {quota.map((m) => (
                <tr key={m.month} className={rowClass}>
                  <td className="py-1.5">{formatMonth(m.month, "long")}</td>
                  <td className="pl-3 text-right">{formatNumber(m.used)}</td>
                  <td className="pl-3 text-right">{formatNumber(m.rewrites)}</td>
                  <td className="pl-3 text-right">{formatSavedTotal(m.savedVsOffer, CENTS)}</td>
                  <td className="pl-3 text-right">{formatSavedTotal(m.savedVsCurrent, CENTS)}</td>
                </tr>
              ))}
              <tr className="font-semibold">
                <td className="py-1.5">Total</td>
                <td className="pl-3 text-right" data-testid="quota-return-used">
                  {formatNumber(totals.used)}
                </td>
                <td className="pl-3 text-right">{formatNumber(totals.rewrites)}</td>
                <td className="pl-3 text-right" data-testid="saved-vs-offer">
                  {formatSavedTotal(totals.savedVsOffer, CENTS)}
                </td>
                <td className="pl-3 text-right" data-testid="saved-vs-current">
                  {formatSavedTotal(totals.savedVsCurrent, CENTS)}
                </td>
              </tr>
            </tbody>
          </table>
        </div>
      </Card>

      <Card title="Bulk actions">
        <div className="overflow-x-auto">
          <table className={tableClass} data-testid="bulk-log">
            <thead className={theadClass}>
              <tr>
                <th className="py-2 pr-3">When</th>
                <th className="pr-3">Who</th>
                <th className="pr-3">Action</th>
                <th className="pr-3 text-right">Requested</th>
                <th className="pr-3 text-right">Done</th>
                <th className="pr-3">Failed and why</th>
              </tr>
            </thead>
            <tbody>
              {log.rows.length === 0 ? (
                <tr>
                  <td colSpan={6} className="py-4 text-center text-slate-500">
                    No bulk actions yet.
                  </td>
                </tr>
              ) : null}
              {log.rows.map((b) => (
                <tr key={b.id} className={rowClass}>
                  <td className="whitespace-nowrap py-2 pr-3">{formatDateTime(b.createdAt, timeZone)}</td>
                  <td className="pr-3">{b.userName ?? "—"}</td>
                  <td className="pr-3">
                    {b.action === "remarket" ? "Re-market" : b.action === "dismiss" ? "Dismiss" : "Snooze"}
                    {b.details ? <div className="text-xs text-slate-500">{b.details}</div> : null}
                  </td>
                  <td className="pr-3 text-right">{formatNumber(b.requested)}</td>
                  <td className="pr-3 text-right">{formatNumber(b.succeeded)}</td>
                  <td className="pr-3 text-xs">
                    {b.failures.length === 0
                      ? "None"
                      : b.failures.map((f) => (
                          <div key={f.id}>
                            {f.label}: {f.reason}
                          </div>
                        ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Pagination page={page} pageCount={pageCount} />
      </Card>
    </div>
  );
}

function Retention({ title, rows, testId }: { title: string; rows: RetentionRow[]; testId: string }) {
  return (
    <div className="min-w-0">
      <h3 className="mb-2 font-medium">{title}</h3>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-500">No closed re-markets in this period.</p>
      ) : (
        <BarChart
          title={`Retention ${title.toLowerCase()}`}
          description="Kept versus lost re-markets per group; the table has counts and premium."
          categories={rows.map((r) => r.key)}
          series={[
            { key: "renewed", label: "Renewed (incumbent)", color: "#1f57c0" },
            { key: "rewritten", label: "Rewritten", color: "#16a34a" },
            { key: "lost", label: "Lost", color: "#dc2626" },
          ]}
          values={{ renewed: rows.map((r) => r.renewed), rewritten: rows.map((r) => r.rewritten), lost: rows.map((r) => r.lost) }}
          stacked
          height={180}
        />
      )}
      <div className="mt-2 overflow-x-auto">
        <table className={tableClass} data-testid={testId}>
          <thead className={theadClass}>
            <tr>
              <th className="py-1">Group</th>
              <th className="pl-3 text-right">Renewed</th>
              <th className="pl-3 text-right">Rewritten</th>
              <th className="pl-3 text-right">Lost</th>
              <th className="pl-3 text-right">Kept premium</th>
              <th className="pl-3 text-right">Lost premium</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} className={rowClass}>
                <td className="py-1">{r.key}</td>
                <td className="pl-3 text-right">{formatNumber(r.renewed)}</td>
                <td className="pl-3 text-right">{formatNumber(r.rewritten)}</td>
                <td className="pl-3 text-right">{formatNumber(r.lost)}</td>
                <td className="pl-3 text-right">{formatMoney(r.retainedPremium)}</td>
                <td className="pl-3 text-right">{formatMoney(r.lostPremium)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
