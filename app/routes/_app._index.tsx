import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireTenantContext } from "~/utils/auth.server";

export const meta: MetaFunction = () => [{ title: "Dashboard | Remarket" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request);
  return { tenantName: ctx.auth.tenant.name, userName: ctx.auth.user.name };
}

export default function Dashboard() {
  const { tenantName, userName } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold" data-testid="dashboard-title">
          {tenantName}
        </h1>
        <p className="text-sm text-slate-600 dark:text-slate-300">Welcome back, {userName}.</p>
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <EmptyCard
          title="Connect your agency management system"
          body="Bring in customers, policies and carriers from EZLynx, Applied Epic, QQCatalyst, HawkSoft, Salesforce or any export."
          to="/integration-setup"
          action="Start integration setup"
        />
        <EmptyCard
          title="Upload an export"
          body="Upload a CSV or Excel export to see a data-quality report before you import it."
          to="/files"
          action="Go to files"
        />
      </div>
    </div>
  );
}

function EmptyCard({ title, body, to, action }: { title: string; body: string; to: string; action: string }) {
  return (
    <section className="rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
      <h2 className="font-semibold">{title}</h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{body}</p>
      <Link to={to} className="mt-3 inline-block text-sm font-semibold text-brand-600 hover:underline">
        {action} →
      </Link>
    </section>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/error-page";
