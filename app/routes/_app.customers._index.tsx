import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useTimeZone } from "~/utils/use-time-zone";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { Pagination } from "~/components/pagination";
import { Card, FilterSelect, ListTable, Stat, inputClass, rowClass } from "~/components/renewals-ui";
import { AlertPill, Button } from "~/components/shell";
import {
  CUSTOMERS_PAGE_SIZE,
  customerCounts,
  customerFilterOptions,
  listCustomers,
  recentlyMarketed,
} from "~/services/renewals/customers.server";
import { requireTenantContext } from "~/utils/auth.server";
import { formatCount, formatDate, formatDateTime, formatNumber, formatPhone } from "~/utils/format";
import { pageCountFor, readPage } from "~/utils/pagination";
import { OUTCOME_LABELS } from "~/utils/renewals";
import { queryFilterText } from "~/utils/schemas";

export const meta: MetaFunction = () => [{ title: "Customers | Remarket" }];

export const handle = {
  description: "Every insured in your book, with their active policies, producer and what is flagged for re-marketing.",
};

const optionalText = queryFilterText();
const FiltersSchema = z.object({
  q: optionalText,
  state: optionalText,
  producer: optionalText,
  segment: z.enum(["all", "active", "remarketed"]).catch("all"),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const url = new URL(request.url);
  const filters = FiltersSchema.parse(Object.fromEntries(url.searchParams));
  const page = readPage(url);
  // The counts first: the unfiltered list's total is theirs (the same figure as the card, not a second count).
  const counts = await customerCounts(ctx);
  const [list, recent, options] = await Promise.all([
    listCustomers(ctx, filters, page, {}, counts.total),
    recentlyMarketed(ctx),
    customerFilterOptions(ctx),
  ]);
  // Phone numbers are stored E.164 and shown in national format; formatted here so the phone
  // metadata stays on the server.
  const rows = list.rows.map((c) => ({ ...c, phone: formatPhone(c.phone) }));
  return { ...list, rows, counts, recent, options, filters, page, pageCount: pageCountFor(list.total, CUSTOMERS_PAGE_SIZE) };
}

export default function CustomersPage() {
  const timeZone = useTimeZone();
  const { rows, total, counts, recent, options, filters, page, pageCount } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">Customers</h1>
      <div className="grid gap-3 sm:grid-cols-3">
        <Stat label="Customers" value={formatNumber(counts.total)} testId="count-total" />
        <Stat label="With active policies" value={formatNumber(counts.active)} testId="count-active" />
        <Stat label={`Re-marketed in ${counts.year}`} value={formatNumber(counts.remarketed)} testId="count-remarketed" />
      </div>
      {counts.countedAt ? (
        <p className="text-xs text-slate-500" data-testid="counts-basis">
          Customers and those with active policies as counted by the forecast of {formatDateTime(counts.countedAt, timeZone)} (it runs after
          every import); re-marketed as of now.
        </p>
      ) : null}
      <div className="grid gap-4 2xl:grid-cols-[minmax(0,1fr)_18rem]">
        <div className="min-w-0 space-y-3">
          <Card>
            <Form
              method="get"
              className="grid gap-3 sm:grid-cols-2 sm:items-end lg:grid-cols-[1fr_1fr_1fr_auto]"
              aria-label="Customer filters"
            >
              <label className="block text-sm sm:col-span-2 lg:col-span-4">
                <span className="font-medium">Search name or e-mail</span>
                <input type="search" name="q" defaultValue={filters.q ?? ""} className={`${inputClass} mt-1`} />
              </label>
              <FilterSelect
                name="state"
                label="State"
                value={filters.state ?? ""}
                options={options.states.map((s) => ({ value: s, label: s }))}
              />
              <FilterSelect
                name="producer"
                label="Producer"
                value={filters.producer ?? ""}
                options={options.producers.map((s) => ({ value: s, label: s }))}
              />
              <FilterSelect
                name="segment"
                label="Show"
                value={filters.segment}
                all=""
                options={[
                  { value: "all", label: "Everyone" },
                  { value: "active", label: "With active policies" },
                  { value: "remarketed", label: `Re-marketed in ${counts.year}` },
                ]}
              />
              <Button type="submit" variant="secondary">
                Apply
              </Button>
            </Form>
          </Card>
          <ListTable
            testId="customers"
            columns={[
              { label: "Name" },
              { label: "E-mail" },
              { label: "Phone" },
              { label: "State" },
              { label: "Producer" },
              { label: "Active policies", className: "text-right" },
              { label: "Worklist" },
            ]}
            empty={rows.length === 0 ? "No customers match." : null}
          >
            {rows.map((c) => (
              <tr key={c.id} className={rowClass}>
                <td className="px-3 py-2">
                  <Link to={`/customers/${c.id}`} className="font-medium text-brand-700 hover:underline dark:text-brand-100">
                    {c.name}
                  </Link>
                </td>
                <td className="pr-3">{c.email}</td>
                <td className="whitespace-nowrap pr-3">{c.phone}</td>
                <td className="pr-3">{c.state}</td>
                <td className="pr-3">{c.producer}</td>
                <td className="pr-3 text-right">{formatNumber(c.activePolicies)}</td>
                <td className="pr-3">{c.flagged > 0 ? <AlertPill tone="warning">Flagged</AlertPill> : null}</td>
              </tr>
            ))}
          </ListTable>
          <p className="text-sm text-slate-500">{formatCount(total, "customer")}</p>
          <Pagination page={page} pageCount={pageCount} />
        </div>
        <Card title="Recently marketed">
          {recent.length === 0 ? <p className="text-sm text-slate-500">Nothing re-marketed yet.</p> : null}
          <ul className="space-y-2 text-sm" data-testid="recently-marketed">
            {recent.map((r) => (
              <li key={r.remarketId}>
                {/* Targets at least 24 px tall (WCAG 2.2 target size): the list is dense. */}
                <Link
                  to={`/customers/${r.customerId}`}
                  className="inline-block py-0.5 font-medium text-brand-700 hover:underline dark:text-brand-100"
                >
                  {r.customerName}
                </Link>
                <div className="text-xs text-slate-500">
                  <Link to={`/quotes/${r.remarketId}`} className="inline-block py-1 font-mono hover:underline">
                    {r.policyNumber}
                  </Link>{" "}
                  · {formatDate(r.remarketedAt, timeZone)} · {r.outcome ? OUTCOME_LABELS[r.outcome] : "open"}
                </div>
              </li>
            ))}
          </ul>
        </Card>
      </div>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
