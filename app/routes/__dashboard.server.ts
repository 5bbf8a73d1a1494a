import { getDashboard } from "~/services/renewals/dashboard.server";
import type { AppLoadContext } from "@remix-run/node";
import { requireTenantContext } from "~/utils/auth.server";
import { formatDate, formatDateTime, formatNumber, formatPercent, pluralize } from "~/utils/format";

// The dashboard's loader work, in a server module of its own: its page then needs no formatting
// code in the browser (a route importing ~/utils/format ships it), and no script request for the
// empty stand-ins of auth.server and the service (issue 14: the first load of `/` stays small).

/** What the dashboard shows, from the signed-in tenant's data, every figure and date already in words. */
export async function dashboardView(request: Request, context: AppLoadContext) {
  const ctx = await requireTenantContext(request, context);
  const timeZone = ctx.auth.tenant.timeZone;
  const dashboard = await getDashboard({ db: ctx.db, tenantId: ctx.tenantId, timeZone });
  // Dates are formatted here, in the agency's time zone (the browser's may differ).
  const day = (d: Date | null) => (d ? formatDate(d, timeZone) : null);
  return {
    tenantName: ctx.auth.tenant.name,
    userName: ctx.auth.user.name,
    forecast: { ...dashboard.forecast, computedAt: day(dashboard.forecast.computedAt) },
    quota: dashboard.quota,
    connections: {
      ...dashboard.connections,
      lastSyncAt: dashboard.connections.lastSyncAt ? formatDateTime(dashboard.connections.lastSyncAt, timeZone) : null,
    },
    hasBook: dashboard.hasBook,
    // Figures are formatted here too: the page then needs no formatting code in the browser
    // (issue 14: the dashboard's first load stays small).
    shown: {
      dueSoon: formatNumber(dashboard.forecast.dueSoon),
      renewals: pluralize(dashboard.forecast.dueSoon, "renewal"),
      open: formatNumber(dashboard.forecast.open),
      connections: formatNumber(dashboard.connections.total),
      inError: formatNumber(dashboard.connections.inError),
      used: formatNumber(dashboard.quota.used),
      quota: formatNumber(dashboard.quota.quota),
      pct: formatPercent(dashboard.quota.pct),
      left: formatNumber(Math.max(0, dashboard.quota.quota - dashboard.quota.used)),
    },
  };
}
