import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listConnections } from "~/services/connections/connections.server";
import { requireTenantContext } from "~/utils/auth.server";
import { INTEGRATIONS, KIND_LABELS, STATUS_LABELS } from "~/utils/integrations";
import { stepRoute } from "~/utils/setup-steps";

export const meta: MetaFunction = () => [{ title: "Integration Setup | Remarket" }];

export const handle = { description: "Connect an agency management system or upload an export to bring your book into Remarket." };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const connections = await listConnections(ctx);
  // Setups that are not finished yet, so "continue where you left off" is one click away.
  const inProgress = connections
    .filter((c) => c.step !== "COMPLETED" && c.status !== "disconnected")
    .map((c) => ({ id: c.id, name: c.name, integrationId: c.integrationId, step: c.step, status: c.status }));
  return { inProgress, isAdmin: ctx.role === "admin" };
}

export default function IntegrationSetupPage() {
  const { inProgress, isAdmin } = useLoaderData<typeof loader>();
  return (
    <div className="max-w-5xl space-y-8">
      <div>
        <h1 className="text-2xl font-bold">Integration Setup</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          Connect your agency management system or CRM, or upload an export. Six short steps: connection, mapping, prediction, task
          creation, filter options, and a summary before the first import.
        </p>
      </div>
      {inProgress.length > 0 ? (
        <section aria-labelledby="in-progress" className="space-y-2">
          <h2 id="in-progress" className="text-lg font-semibold">
            Setups in progress
          </h2>
          <ul className="divide-y divide-slate-200 rounded-lg bg-white ring-1 ring-slate-200 dark:divide-slate-800 dark:bg-slate-900 dark:ring-slate-800">
            {inProgress.map((c) => (
              <li key={c.id} className="flex items-center justify-between px-4 py-3 text-sm">
                <span>
                  {c.name} <span className="text-slate-500">· {STATUS_LABELS[c.status]}</span>
                </span>
                <Link to={stepRoute(c.step, c.id, c.integrationId)} className="font-semibold text-brand-600 hover:underline">
                  Continue setup →
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="catalogue" className="space-y-3">
        <h2 id="catalogue" className="text-lg font-semibold">
          Choose an integration
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {INTEGRATIONS.map((integration) => (
            <li
              key={integration.id}
              className="flex flex-col rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800"
              data-integration={integration.id}
            >
              <img src={integration.logo} alt="" width={120} height={40} className="h-10 w-[120px]" />
              <h3 className="mt-3 font-semibold">{integration.name}</h3>
              <p className="text-xs uppercase tracking-wide text-slate-500">{KIND_LABELS[integration.kind]}</p>
              <p className="mt-2 flex-1 text-sm text-slate-600 dark:text-slate-300">{integration.description}</p>
              {isAdmin ? (
                <Link
                  to={stepRoute("NOT_SET", null, integration.id)}
                  className="mt-3 inline-block text-sm font-semibold text-brand-600 hover:underline"
                  aria-label={`Set up ${integration.name}`}
                >
                  Set up {integration.name} →
                </Link>
              ) : (
                <p className="mt-3 text-xs text-slate-500">Ask an admin of your agency to set this up.</p>
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
