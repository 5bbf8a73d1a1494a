import { getDashboard, type DashboardActivity } from "~/services/renewals/dashboard.server";
import type { AppLoadContext } from "@remix-run/node";
import { requireTenantContext } from "~/utils/auth.server";
import { describeAudit } from "~/utils/audit";
import { formatCount, formatDate, formatDateTime, formatMoney, formatMonth, formatNumber, formatPercent, pluralize } from "~/utils/format";

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
  const empty = !dashboard.hasBook && dashboard.connections.total === 0;
  return {
    empty,
    tenantName: ctx.auth.tenant.name,
    userName: ctx.auth.user.name,
    forecast: { ...dashboard.forecast, computedAt: day(dashboard.forecast.computedAt) },
    quota: dashboard.quota,
    connections: {
      ...dashboard.connections,
      lastSyncAt: dashboard.connections.lastSyncAt ? formatDateTime(dashboard.connections.lastSyncAt, timeZone) : null,
    },
    hasBook: dashboard.hasBook,
    // A new agency sees the first-run checklist instead: nothing to send for trends or activity.
    trends: empty ? null : trendsView(dashboard, timeZone),
    activity: empty ? [] : activityViews(dashboard.activity, timeZone),
    // Figures are formatted here too: the page then needs no formatting code in the browser
    // (issue 14: the dashboard's first load stays small).
    shown: {
      dueSoon: formatNumber(dashboard.forecast.dueSoon),
      renewals: pluralize(dashboard.forecast.dueSoon, "renewal"),
      open: formatNumber(dashboard.forecast.open),
      connections: formatNumber(dashboard.connections.total),
      inError: formatNumber(dashboard.connections.inError),
      unfinished: formatNumber(dashboard.connections.unfinished),
      used: formatNumber(dashboard.quota.used),
      quota: formatNumber(dashboard.quota.quota),
      pct: formatPercent(dashboard.quota.pct),
      left: formatNumber(Math.max(0, dashboard.quota.quota - dashboard.quota.used)),
    },
  };
}

type Dashboard = Awaited<ReturnType<typeof getDashboard>>;

/** up, down, same or none (nothing to compare with), and the words for it. */
export type Change = { direction: "up" | "down" | "same" | "none"; text: string };

/**
 * A figure against the period before, in words ("Up 3 from 2 in the 7 days before"). With nothing
 * in the period before there is no rate of change to give: it says so instead of "+100%".
 */
export function describeChange(now: number, before: number, period: string, noun: string): Change {
  if (before === 0) return { direction: "none", text: `No ${noun} ${period} to compare with` };
  const diff = now - before;
  if (diff === 0) return { direction: "same", text: `Same as ${period} (${formatNumber(before)})` };
  return {
    direction: diff > 0 ? "up" : "down",
    text: `${diff > 0 ? "Up" : "Down"} ${formatNumber(Math.abs(diff))} from ${formatNumber(before)} ${period}`,
  };
}

/** The three trends, every figure in words with what it rests on. */
function trendsView(d: Dashboard, timeZone: string) {
  const { flagged, remarkets, outcomes: o } = d.trends;
  const month = d.today.slice(0, 7);
  const [y, m] = month.split("-").map(Number);
  const prevMonth = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, "0")}`;
  const left = Math.max(0, d.quota.quota - d.quota.used);
  return {
    flagged: {
      figure: formatNumber(flagged.week),
      noun: pluralize(flagged.week, "renewal"),
      change: describeChange(flagged.week, flagged.prevWeek, "in the 7 days before", "flags"),
      basis: `Newly flagged from ${formatDate(flagged.since, timeZone)} to today (7 days), by the forecast${
        d.forecast.computedAt ? ` of ${formatDate(d.forecast.computedAt, timeZone)}` : ""
      }.`,
    },
    remarkets: {
      figure: formatNumber(remarkets.month),
      noun: pluralize(remarkets.month, "re-market"),
      monthName: formatMonth(month, "long"),
      change: describeChange(remarkets.month, remarkets.prevMonth, `in ${formatMonth(prevMonth, "long")}`, "re-markets"),
      quotaLeft: `${formatNumber(left)} of ${formatNumber(d.quota.quota)} left for ${d.quota.year}.`,
      basis: `Quota units used from 01 ${formatMonth(month)} to today; an undone re-market gives its unit back.`,
    },
    outcomes: {
      basis:
        o.remarkets === 0
          ? `No re-markets yet in ${d.quota.year}: their outcomes show here once you re-market from the worklist.`
          : `From ${formatCount(o.remarkets, "re-market")} since 01 Jan ${d.quota.year} (this quota year).`,
      // The figures in the page's order (labels live in the page): got quotes, won, kept, lost, still open.
      figures:
        o.remarkets === 0
          ? null
          : {
              quoted: `${formatNumber(o.quoted)} of ${formatNumber(o.remarkets)}`,
              won: formatNumber(o.won),
              kept: formatNumber(o.kept),
              lost: formatNumber(o.lost),
              open: formatNumber(o.open),
            },
      saved: o.won > 0 && o.savedWon !== null ? `${formatMoney(o.savedWon)} premium saved` : null,
    },
  };
}

// Where an event's object lives: the re-market's quote page while it exists, else the customer of
// the policy, else the page that lists that kind of thing. Events about a person link nowhere.
function activityHref(a: DashboardActivity): string | null {
  if (a.remarketId && /^(policy\.remarketed|quote\.|remarket\.)/.test(a.action)) return `/quotes/${a.remarketId}`;
  if (a.customerId) return `/customers/${a.customerId}`;
  if (a.subjectType === "carrier") return "/carriers";
  if (a.subjectType === "connection") return "/connect-database";
  if (a.subjectType === "billing") return "/billing";
  if (a.action.startsWith("team.")) return "/settings/team";
  return null;
}

type ActivityView = ReturnType<typeof activityView>;
const activityInWords = new WeakMap<readonly DashboardActivity[], Map<string, ActivityView[]>>();

/**
 * The events in words, once per list and time zone: the service hands out the same list while the
 * events stay the same, so a dashboard view formats nothing here.
 */
function activityViews(list: readonly DashboardActivity[], timeZone: string) {
  let byZone = activityInWords.get(list);
  if (!byZone) activityInWords.set(list, (byZone = new Map()));
  let views = byZone.get(timeZone);
  if (!views) byZone.set(timeZone, (views = list.map((a) => activityView(a, timeZone))));
  return views;
}

/** One recent event: when (the agency's time zone), who, what in words, and where it leads. */
function activityView(a: DashboardActivity, timeZone: string) {
  const what = describeAudit({ action: a.action, details: a.details, policyNumber: a.policyNumber });
  return {
    id: a.id,
    at: a.at.toISOString(),
    when: formatDateTime(a.at, timeZone),
    who: a.action.startsWith("staff.") ? "Remarket support" : (a.actor ?? "System"),
    what: a.customerName ? `${what} · ${a.customerName}` : what,
    href: activityHref(a),
  };
}
