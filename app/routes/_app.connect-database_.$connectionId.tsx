import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DisconnectControl, StatusPill, useAutoRefresh } from "~/components/connection-bits";
import { PostForm, Notice, Button } from "~/components/shell";
import { getConnection, latestConnectionNotification, listSubConnections } from "~/services/connections/connections.server";
import { formatDuration, importedCounts, listRuns } from "~/services/connections/imports.server";
import { requireTenantContext } from "~/utils/auth.server";
import { formatDateTime, formatNumber } from "~/utils/format";
import { getIntegration } from "~/utils/integrations";
import { editStepRoute, stepRoute, WIZARD_STEPS } from "~/utils/setup-steps";
import { useHydrated } from "~/utils/use-hydrated";
import { orNotFound } from "~/utils/wizard.server";

export const meta: MetaFunction = () => [{ title: "Connection | Remarket" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const connection = await orNotFound(getConnection(ctx, params.connectionId));
  const tz = ctx.auth.tenant.timeZone;
  const [runs, counts, notification, subs] = await Promise.all([
    listRuns(ctx, connection.id, 5),
    importedCounts(ctx.db, ctx.tenantId, connection.id),
    latestConnectionNotification(ctx, connection.id),
    listSubConnections(ctx, connection.id),
  ]);
  const integration = getIntegration(connection.integrationId);
  return {
    isAdmin: ctx.role === "admin",
    connection: {
      id: connection.id,
      name: connection.name,
      integrationName: integration?.name ?? connection.integrationId,
      logo: integration?.logo ?? null,
      status: connection.status,
      step: connection.step,
      stepLabel: WIZARD_STEPS.find((s) => s.step === connection.step)?.label ?? "Not started",
      continueTo:
        connection.step === "COMPLETED"
          ? editStepRoute("CONNECTION_MAPPING", connection.id, connection.integrationId)
          : stepRoute(connection.step, connection.id, connection.integrationId),
      summaryTo: stepRoute("COMPLETED", connection.id, connection.integrationId),
      settingsTo: editStepRoute("CONNECTION_SETTING", connection.id, connection.integrationId),
      lastSync: connection.lastSyncAt ? formatDateTime(connection.lastSyncAt, tz) : null,
      duration: connection.lastDurationMs === null ? null : formatDuration(connection.lastDurationMs),
      records: connection.recordsImported,
      lastError: connection.lastError,
      invalidCredentials: connection.invalidCredentials,
      fileName: connection.fileName,
      fileId: connection.fileId,
      syncEvery: integration?.source === "api" ? connection.syncIntervalHours : null,
    },
    counts,
    notification: notification
      ? { title: notification.title, message: notification.message, when: formatDateTime(notification.createdAt, tz) }
      : null,
    runs: runs.map((r) => ({
      id: r.id,
      status: r.status,
      trigger: r.trigger,
      rowsTotal: r.rowsTotal,
      rowsRead: r.rowsRead,
      rowsImported: r.rowsImported,
      rowsRejected: r.rowsRejected,
      rowsFiltered: r.rowsFiltered,
      error: r.error,
      started: formatDateTime(r.startedAt ?? r.createdAt, tz),
      duration: r.durationMs === null ? null : formatDuration(r.durationMs),
    })),
    subs: subs.map((s) => ({ ...s, integrationName: getIntegration(s.integrationId)?.name ?? s.integrationId })),
  };
}

export default function ConnectionPage() {
  const { connection: c, counts, runs, notification, subs, isAdmin } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const latest = runs[0] ?? null;
  const running = latest && (latest.status === "queued" || latest.status === "running");
  useAutoRefresh(Boolean(running));
  const pct = latest?.rowsTotal ? Math.min(100, Math.round((latest.rowsRead / latest.rowsTotal) * 100)) : null;
  return (
    <div className="max-w-4xl space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-sm text-slate-500">
            <Link to="/connect-database" className="hover:underline">
              Connections
            </Link>{" "}
            / {c.integrationName}
          </p>
          <h1 className="text-2xl font-bold">{c.name}</h1>
        </div>
        <div className="flex items-center gap-3">
          <span data-testid="connection-status">
            <StatusPill status={c.status} />
          </span>
          {isAdmin && c.status !== "disconnected" && c.step === "COMPLETED" && !running ? (
            <PostForm action="/connect-database">
              <input type="hidden" name="id" value={c.id} />
              <Button type="submit" name="intent" value="sync" variant="secondary">
                Sync now
              </Button>
            </PostForm>
          ) : null}
          {isAdmin && c.status !== "disconnected" ? <DisconnectControl id={c.id} name={c.name} hydrated={hydrated} /> : null}
        </div>
      </div>

      {c.invalidCredentials ? (
        <Notice tone="error">
          The saved credentials were refused.{" "}
          <Link to={c.settingsTo} className="font-semibold underline">
            Enter them again
          </Link>
          .
        </Notice>
      ) : null}

      <dl className="grid gap-4 rounded-lg bg-white p-4 ring-1 ring-slate-200 sm:grid-cols-4 dark:bg-slate-900 dark:ring-slate-800">
        <Stat label="Last sync" value={c.lastSync ?? "Never"} />
        <Stat label="Records imported" value={formatNumber(c.records)} testId="records-imported" />
        <Stat label="Duration" value={c.duration ?? "—"} />
        <Stat
          label="Customers / policies"
          value={`${formatNumber(counts.customers)} / ${formatNumber(counts.policies)}`}
          testId="imported-counts"
        />
      </dl>

      <div className="flex flex-wrap gap-4 text-sm">
        {c.step !== "COMPLETED" ? (
          <Link to={c.continueTo} className="font-semibold text-brand-600 hover:underline">
            Continue setup ({c.stepLabel})
          </Link>
        ) : (
          <Link to={c.summaryTo} className="font-semibold text-brand-600 hover:underline">
            Setup summary
          </Link>
        )}
        {c.fileName ? (
          <span className="text-slate-500">
            File:{" "}
            {c.fileId ? (
              <Link to={`/files/${c.fileId}`} className="font-semibold text-brand-600 hover:underline">
                {c.fileName}
              </Link>
            ) : (
              c.fileName
            )}
          </span>
        ) : null}
        {c.syncEvery ? <span className="text-slate-500">Re-syncs every {c.syncEvery} h</span> : null}
      </div>

      {latest ? (
        <section
          aria-labelledby="import-title"
          className="space-y-3 rounded-lg bg-white p-4 ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800"
        >
          <div className="flex items-center justify-between">
            <h2 id="import-title" className="font-semibold">
              {running ? "Import in progress" : "Latest import"}
            </h2>
            {running && !hydrated ? (
              <a href={`/connect-database/${c.id}`} className="text-sm font-semibold text-brand-600 hover:underline">
                Refresh
              </a>
            ) : null}
          </div>
          {pct !== null && running ? (
            <div
              className="h-2 w-full overflow-hidden rounded bg-slate-200"
              role="progressbar"
              aria-valuenow={pct}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-label="Import progress"
            >
              <div className="h-2 bg-brand-600" style={{ width: `${pct}%` }} />
            </div>
          ) : null}
          <p className="text-sm" data-testid="import-progress" data-status={latest.status}>
            {latest.status === "queued" ? "Waiting to start. " : null}
            Read <strong>{formatNumber(latest.rowsRead)}</strong>
            {latest.rowsTotal ? ` of ${formatNumber(latest.rowsTotal)}` : ""} rows: <strong>{formatNumber(latest.rowsImported)}</strong>{" "}
            imported, <strong>{formatNumber(latest.rowsRejected)}</strong> rejected
            {latest.rowsFiltered ? `, ${formatNumber(latest.rowsFiltered)} left out by filters` : ""}.
            {latest.status === "succeeded" ? ` Finished in ${latest.duration}.` : null}
          </p>
          {latest.status === "failed" && latest.error ? <Notice tone="error">{latest.error}</Notice> : null}
          {latest.rowsRejected > 0 ? (
            <a href={`/resources/connections/${c.id}/rejections`} download className="text-sm font-semibold text-brand-600 hover:underline">
              Download rejected rows with reasons (CSV)
            </a>
          ) : null}
        </section>
      ) : null}

      {notification ? (
        <section aria-label="Latest notification" className="rounded-lg bg-slate-50 p-4 text-sm dark:bg-slate-900">
          <p className="font-semibold" data-testid="connection-notification">
            {notification.title}
          </p>
          <p className="text-slate-600 dark:text-slate-300">
            {notification.message} <span className="text-slate-500">· {notification.when}</span>
          </p>
        </section>
      ) : null}

      {subs.length > 0 ? (
        <section className="space-y-2">
          <h2 className="font-semibold">Sub-connections</h2>
          <ul className="space-y-1 text-sm">
            {subs.map((s) => (
              <li key={s.id} className="flex items-center justify-between gap-3">
                <Link to={`/connect-database/${s.id}`} className="hover:underline">
                  {s.name} ({s.integrationName})
                </Link>
                <span className="flex items-center gap-3">
                  <StatusPill status={s.status} />
                  {isAdmin && s.status !== "disconnected" ? <DisconnectControl id={s.id} name={s.name} hydrated={hydrated} sub /> : null}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {runs.length > 1 ? (
        <section className="space-y-2">
          <h2 className="font-semibold">Recent imports</h2>
          <table className="w-full text-left text-sm">
            <thead className="text-slate-500">
              <tr>
                <th className="py-1">Started</th>
                <th>Status</th>
                <th className="text-right">Read</th>
                <th className="text-right">Imported</th>
                <th className="text-right">Rejected</th>
                <th>Duration</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => (
                <tr key={r.id} className="border-t border-slate-100 dark:border-slate-800">
                  <td className="py-1">
                    {r.started}
                    {r.trigger === "schedule" ? " (scheduled)" : ""}
                  </td>
                  <td>{r.status}</td>
                  <td className="text-right">{formatNumber(r.rowsRead)}</td>
                  <td className="text-right">{formatNumber(r.rowsImported)}</td>
                  <td className="text-right">{formatNumber(r.rowsRejected)}</td>
                  <td>{r.duration ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </div>
  );
}

function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div>
      <dt className="text-xs uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-1 font-semibold" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
