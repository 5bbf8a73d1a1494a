import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useTimeZone } from "~/utils/use-time-zone";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { Pagination } from "~/components/pagination";
import { ListTable, rowClass, StatusTabs } from "~/components/renewals-ui";
import { AlertPill } from "~/components/shell";
import { REMARKETS_PAGE_SIZE, listRemarkets } from "~/services/renewals/quotes.server";
import { describeSaving } from "~/services/renewals/savings";
import { requireTenantContext } from "~/utils/auth.server";
import { formatDate, formatMoney, formatNumber } from "~/utils/format";
import { pageCountFor, readPage } from "~/utils/pagination";
import { OUTCOME_LABELS } from "~/utils/renewals";

export const meta: MetaFunction = () => [{ title: "Quotes | Remarket" }];

export const handle = { description: "Re-marketed policies with their quotes, selections and outcomes." };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const url = new URL(request.url);
  const status = z
    .enum(["open", "closed", "all"])
    .catch("all")
    .parse(url.searchParams.get("status") ?? undefined);
  const page = readPage(url);
  const list = await listRemarkets(ctx, { status, page });
  return { ...list, status, page, pageCount: pageCountFor(list.total, REMARKETS_PAGE_SIZE) };
}

export default function QuotesPage() {
  const timeZone = useTimeZone();
  const { rows, status, page, pageCount } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-bold">Quotes</h1>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Every re-marketed policy: record the quotes you get, then select the one the customer takes.
        </p>
      </div>
      <StatusTabs
        label="Re-market status"
        basePath="/quotes"
        current={status}
        options={[
          { value: "all", label: "All" },
          { value: "open", label: "Awaiting a decision" },
          { value: "closed", label: "Closed" },
        ]}
      />
      <ListTable
        testId="remarkets"
        columns={[
          { label: "Customer" },
          { label: "Policy" },
          { label: "Incumbent" },
          { label: "Renewal offer", className: "text-right" },
          { label: "Re-marketed" },
          { label: "Quotes", className: "text-right" },
          { label: "Outcome" },
          { label: "Saved", className: "text-right" },
        ]}
        empty={
          rows.length === 0 ? (
            <>
              Nothing re-marketed yet. Start from the{" "}
              <Link to="/remarket" className="text-brand-600 underline">
                worklist
              </Link>
              .
            </>
          ) : null
        }
      >
        {rows.map((r) => (
          <tr key={r.id} className={rowClass}>
            <td className="px-3 py-2">{r.customerName}</td>
            <td className="pr-3">
              <Link to={`/quotes/${r.id}`} className="font-mono text-xs text-brand-700 hover:underline dark:text-brand-100">
                {r.policyNumber}
              </Link>
              <div className="text-xs text-slate-500">{r.lineOfBusiness}</div>
            </td>
            <td className="pr-3">{r.incumbent}</td>
            <td className="pr-3 text-right">{formatMoney(r.incumbentOffer)}</td>
            <td className="whitespace-nowrap pr-3">{formatDate(r.remarketedAt, timeZone)}</td>
            <td className="pr-3 text-right">{formatNumber(r.quotes)}</td>
            <td className="pr-3">
              {r.outcome ? (
                <AlertPill tone={r.outcome === "lost" ? "error" : "success"}>{OUTCOME_LABELS[r.outcome]}</AlertPill>
              ) : (
                <AlertPill tone="warning">Open</AlertPill>
              )}
            </td>
            <td className="pr-3 text-right">{r.outcome === "lost" ? "" : describeSaving(r.premiumSaved, r.savingsBasis)}</td>
          </tr>
        ))}
      </ListTable>
      <Pagination page={page} pageCount={pageCount} />
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
