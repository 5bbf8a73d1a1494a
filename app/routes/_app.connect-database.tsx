import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { DisconnectControl, StatusPill, useAutoRefresh } from "~/components/connection-bits";
import { PostForm, Button } from "~/components/shell";
import { listConnections } from "~/services/connections/connections.server";
import { isServiceError } from "~/services/platform/errors.server";
import { formatDuration, startImport } from "~/services/connections/imports.server";
import { requireAdmin, requireTenantContext } from "~/utils/auth.server";
import { formatCount, formatDateTime, formatNumber } from "~/utils/format";
import { applyFormOnce } from "~/utils/forms.server";
import { getIntegration } from "~/utils/integrations";
import { stepRoute, WIZARD_STEPS } from "~/utils/setup-steps";
import { redirectWithToast } from "~/utils/toast.server";
import { useHydrated } from "~/utils/use-hydrated";

export const meta: MetaFunction = () => [{ title: "Connections | Remarket" }];

export const handle = {
  description: "The agency management systems and files Remarket imports your book from, and when each last synced.",
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const tz = ctx.auth.tenant.timeZone;
  const rows = await listConnections(ctx);
  const view = rows.map((c) => {
    const integration = getIntegration(c.integrationId);
    return {
      id: c.id,
      name: c.name,
      parentConnectionId: c.parentConnectionId,
      integration: { id: c.integrationId, name: integration?.name ?? c.integrationId, logo: integration?.logo ?? "" },
      status: c.status,
      lastSync: c.lastSyncAt ? formatDateTime(c.lastSyncAt, tz) : null,
      records: c.recordsImported,
      duration: c.lastDurationMs === null ? null : formatDuration(c.lastDurationMs),
      step: c.step,
      stepLabel: WIZARD_STEPS.find((s) => s.step === c.step)?.label ?? "Not started",
      continueTo: c.step === "COMPLETED" ? null : stepRoute(c.step, c.id, c.integrationId),
      running: c.activeRun ? { read: c.activeRun.rowsRead, total: c.activeRun.rowsTotal } : null,
      lastError: c.lastError,
    };
  });
  return {
    connections: view.filter((c) => !c.parentConnectionId || !view.some((p) => p.id === c.parentConnectionId)),
    subsByParent: view.reduce<Record<string, typeof view>>((acc, c) => {
      if (c.parentConnectionId) (acc[c.parentConnectionId] ??= []).push(c);
      return acc;
    }, {}),
    isAdmin: ctx.role === "admin",
  };
}

const SyncSchema = z.object({ intent: z.literal("sync"), id: z.string().uuid() });

export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = await requireAdmin(request, context);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: SyncSchema });
  // A button and a hidden id: nothing a user typed to show again.
  if (submission.status !== "success") throw new Response("Bad request", { status: 400 });
  return applyFormOnce(request, formData, async () => {
    try {
      await startImport(ctx, submission.value.id);
    } catch (error) {
      if (isServiceError(error) && error.status === 404) throw new Response("Not found", { status: 404 });
      if (!isServiceError(error)) throw error;
      return redirectWithToast("/connect-database", { type: "error", title: "Sync not started", message: error.message });
    }
    return redirectWithToast("/connect-database", {
      type: "success",
      title: "Sync started",
      message: "The import runs in the background.",
    });
  });
}

type Row = Awaited<ReturnType<typeof loader>>["connections"][number];

export default function ConnectionsPage() {
  const { connections, subsByParent, isAdmin } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const anyRunning = connections.some((c) => c.running) || Object.values(subsByParent).some((subs) => subs?.some((s) => s.running));
  useAutoRefresh(anyRunning);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Connections</h1>
        <div className="flex items-center gap-4">
          {anyRunning && !hydrated ? (
            <a href="/connect-database" className="text-sm font-semibold text-brand-600 hover:underline">
              Refresh
            </a>
          ) : null}
          <Link to="/integration-setup" className="text-sm font-semibold text-brand-600 hover:underline">
            Add a connection →
          </Link>
        </div>
      </div>
      {connections.length === 0 ? (
        <p className="rounded-lg bg-white p-6 text-sm text-slate-600 ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
          No connections yet.{" "}
          <Link to="/integration-setup" className="font-semibold text-brand-600 hover:underline">
            Start the integration setup
          </Link>{" "}
          to import customers and policies.
        </p>
      ) : (
        <div className="overflow-x-auto rounded-lg bg-white ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
          <table className="stack-table w-full text-left text-sm">
            <thead className="border-b border-slate-200 text-slate-500 dark:border-slate-700">
              <tr>
                <th className="px-3 py-2">Connection</th>
                <th className="px-3 py-2">Status</th>
                <th className="px-3 py-2">Last sync</th>
                <th className="px-3 py-2">Setup</th>
                <th className="px-3 py-2 sr-only">Actions</th>
              </tr>
            </thead>
            <tbody>
              {connections.map((c) => (
                <ConnectionRows key={c.id} row={c} subs={subsByParent[c.id] ?? []} isAdmin={isAdmin} hydrated={hydrated} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function ConnectionRows({ row, subs, isAdmin, hydrated }: { row: Row; subs: Row[]; isAdmin: boolean; hydrated: boolean }) {
  return (
    <>
      <ConnectionRow row={row} isAdmin={isAdmin} hydrated={hydrated} />
      {subs.map((s) => (
        <ConnectionRow key={s.id} row={s} isAdmin={isAdmin} hydrated={hydrated} sub />
      ))}
    </>
  );
}

function ConnectionRow({ row: c, isAdmin, hydrated, sub = false }: { row: Row; isAdmin: boolean; hydrated: boolean; sub?: boolean }) {
  return (
    <tr className="border-b border-slate-100 align-middle dark:border-slate-800" data-connection={c.id}>
      <td className={sub ? "min-w-[16rem] py-2 pl-10 pr-3" : "min-w-[16rem] px-3 py-2"}>
        <div className="flex items-center gap-3">
          {c.integration.logo ? <img src={c.integration.logo} alt="" width={72} height={24} className="h-6 w-[72px] shrink-0" /> : null}
          <div className="min-w-0">
            <Link to={`/connect-database/${c.id}`} className="font-semibold hover:underline">
              {c.name}
            </Link>
            <div className="text-xs text-slate-500">
              {sub ? "Sub-connection · " : ""}
              {c.integration.name}
            </div>
          </div>
        </div>
      </td>
      {/* One child per labelled cell: on a phone the label and that child share the line. */}
      <td className="px-3 py-2" data-label="Status">
        <div className="min-w-0">
          <StatusPill status={c.status} />
          {c.running ? (
            <div className="mt-1 text-xs text-slate-500">
              {formatNumber(c.running.read)}
              {c.running.total ? ` of ${formatNumber(c.running.total)}` : ""} rows
            </div>
          ) : c.status === "error" && c.lastError ? (
            <div className="mt-1 max-w-xs truncate text-xs text-red-700" title={c.lastError}>
              {c.lastError}
            </div>
          ) : null}
        </div>
      </td>
      {/* Records and duration sit under the sync they describe: as columns of their own they pushed
          the actions out of a 1280-pixel window. */}
      <td className="px-3 py-2" data-label="Last sync">
        <div>
          <div className="whitespace-nowrap">{c.lastSync ?? "Never"}</div>
          {c.lastSync ? (
            <div className="mt-1 text-xs text-slate-500">
              {formatCount(c.records, "record")}
              {c.duration ? ` in ${c.duration}` : ""}
            </div>
          ) : null}
        </div>
      </td>
      <td className="px-3 py-2" data-label="Setup">
        {c.continueTo && c.status !== "disconnected" ? (
          <Link to={c.continueTo} className="font-semibold text-brand-600 hover:underline">
            Continue setup ({c.stepLabel})
          </Link>
        ) : (
          <span className="text-slate-500">{c.step === "COMPLETED" ? "Complete" : c.stepLabel}</span>
        )}
      </td>
      <td className="px-3 py-2">
        {isAdmin && c.status !== "disconnected" ? (
          <div className="flex items-center justify-end gap-3">
            {c.step === "COMPLETED" && !c.running ? (
              <PostForm>
                <input type="hidden" name="id" value={c.id} />
                <Button
                  type="submit"
                  name="intent"
                  value="sync"
                  variant="secondary"
                  className="whitespace-nowrap"
                  aria-label={`Sync now: ${c.name}`}
                >
                  Sync now
                </Button>
              </PostForm>
            ) : null}
            <DisconnectControl id={c.id} name={c.name} hydrated={hydrated} sub={sub} />
          </div>
        ) : null}
      </td>
    </tr>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
