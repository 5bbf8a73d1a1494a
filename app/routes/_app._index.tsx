import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { dashboardView } from "~/routes/__dashboard.server";

export const meta: MetaFunction = () => [{ title: "Dashboard | Remarket" }];

export const handle = {
  description: "Your agency at a glance: renewals to act on, trends, re-marketing quota, connections and recent activity.",
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  return dashboardView(request, context);
}

export default function Dashboard() {
  const { tenantName, userName, forecast, quota, connections, empty, shown, trends, activity } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold" data-testid="dashboard-title">
          {tenantName}
        </h1>
        <p className="text-sm text-slate-600 dark:text-slate-300">{empty ? `Welcome, ${userName}.` : `Welcome back, ${userName}.`}</p>
      </div>
      <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
        {empty ? (
          <GettingStarted />
        ) : (
          <>
            <DashCard title="Renewals to act on" testId="card-forecast" to="/remarket" action="Open the worklist">
              {forecast.computedAt ? (
                <>
                  <p>
                    <Figure>{`${forecast.dueSoonCapped ? "More than " : ""}${shown.dueSoon}`}</Figure> flagged {shown.renewals}{" "}
                    {forecast.dueSoon === 1 ? "expires" : "expire"} in the next {forecast.dueDays} days.
                  </p>
                  <p className="mt-1 text-slate-600 dark:text-slate-300">
                    {forecast.openCapped ? "More than " : ""}
                    {shown.open} open in the worklist · forecast of {forecast.computedAt} ·{" "}
                    <Link to="/forecast" className="text-brand-600 underline">
                      Forecast
                    </Link>
                  </p>
                </>
              ) : (
                <p>
                  The forecast has not been computed yet.{" "}
                  <Link to="/forecast" className="text-brand-600 underline">
                    Compute it on the Forecast page
                  </Link>
                  .
                </p>
              )}
            </DashCard>
            <DashCard title="Connections" testId="card-connections" to="/connect-database" action="Manage connections">
              <p>
                <Figure>{shown.connections}</Figure> connection{connections.total === 1 ? "" : "s"}
                {connections.lastSyncAt ? `, last synced ${connections.lastSyncAt}` : connections.total ? ", not synced yet" : ""}.
              </p>
              {connections.inError > 0 ? (
                <p className="mt-1 font-medium text-red-700 dark:text-red-400" data-testid="connections-error">
                  ⚠ {shown.inError} in error: check {connections.inError === 1 ? "it" : "them"} on the Connections page.
                </p>
              ) : connections.total ? (
                <p className="mt-1 text-slate-600 dark:text-slate-300">None in error.</p>
              ) : (
                <p className="mt-1 text-slate-600 dark:text-slate-300">
                  Data came from an upload.{" "}
                  <Link to="/integration-setup" className="text-brand-600 underline">
                    Connect your system
                  </Link>{" "}
                  to keep it in sync.
                </p>
              )}
              {connections.unfinished > 0 ? (
                <p className="mt-1 text-slate-600 dark:text-slate-300" data-testid="connections-unfinished">
                  {shown.unfinished} not connected yet: finish {connections.unfinished === 1 ? "its" : "their"} setup on the Connections
                  page.
                </p>
              ) : null}
            </DashCard>
          </>
        )}
        <DashCard title={`Re-marketing quota ${quota.year}`} testId="card-quota" to="/billing" action="Billing and usage">
          <p>
            <Figure>{shown.used}</Figure> of {shown.quota} re-markets used ({shown.pct}), {shown.left} left.
          </p>
          <div
            className="mt-2 h-2 rounded-full bg-slate-200 dark:bg-slate-800"
            role="progressbar"
            aria-label={`Re-marketing quota ${quota.year} used`}
            aria-valuemin={0}
            aria-valuemax={quota.quota}
            aria-valuenow={quota.used}
            aria-valuetext={`${quota.used} of ${quota.quota} used`}
          >
            <div
              className={`h-2 rounded-full ${quota.pct >= 100 ? "bg-red-600" : quota.pct >= 80 ? "bg-amber-500" : "bg-brand-600"}`}
              style={{ width: `${quota.pct}%` }}
            />
          </div>
          {quota.pct >= 80 ? (
            <p className="mt-1 font-medium text-amber-800 dark:text-amber-300">
              {quota.pct >= 100 ? "Used up for this year." : "Running low."}
            </p>
          ) : null}
        </DashCard>
      </div>
      {trends ? (
        <>
          <Trends trends={trends} />
          <RecentActivity activity={activity} />
        </>
      ) : null}
    </div>
  );
}

type View = ReturnType<typeof useLoaderData<typeof loader>>;

type TrendsView = NonNullable<View["trends"]>;

const CHANGE_STYLE: Record<TrendsView["flagged"]["change"]["direction"], { mark: string; className: string }> = {
  up: { mark: "▲", className: "text-slate-800 dark:text-slate-100" },
  down: { mark: "▼", className: "text-slate-800 dark:text-slate-100" },
  same: { mark: "=", className: "text-slate-600 dark:text-slate-300" },
  none: { mark: "", className: "text-slate-600 dark:text-slate-300" },
};

/** The change against the period before: the words carry it; the mark only helps the eye. */
function ChangeLine({ change, testId }: { change: TrendsView["flagged"]["change"]; testId: string }) {
  const style = CHANGE_STYLE[change.direction];
  return (
    <p className={`mt-1 font-medium ${style.className}`} data-testid={testId} data-direction={change.direction}>
      {style.mark ? (
        <span aria-hidden="true" className="mr-1 text-xs">
          {style.mark}
        </span>
      ) : null}
      {change.text}
    </p>
  );
}

function Basis({ children }: { children: ReactNode }) {
  return <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">{children}</p>;
}

/** Issue 14: how the agency is doing, this week and this month, and what re-marketing achieved. */
const OUTCOME_ROWS = [
  { key: "quoted", label: "Got quotes" },
  { key: "won", label: "Won: moved carrier" },
  { key: "kept", label: "Kept with the incumbent" },
  { key: "lost", label: "Lost" },
  { key: "open", label: "Still open" },
] as const;

function Trends({ trends }: { trends: TrendsView }) {
  const { flagged, remarkets, outcomes } = trends;
  return (
    <section aria-labelledby="trends-title" data-testid="trends">
      <h2 id="trends-title" className="text-lg font-semibold">
        Trends
      </h2>
      <div className="mt-3 grid gap-4 md:grid-cols-2 lg:grid-cols-3">
        <DashCard title="Flagged this week" testId="trend-flagged" to="/remarket" action="Open the worklist">
          <p>
            <Figure>{flagged.figure}</Figure> {flagged.noun} newly flagged.
          </p>
          <ChangeLine change={flagged.change} testId="trend-flagged-change" />
          <Basis>{flagged.basis}</Basis>
        </DashCard>
        <DashCard title="Re-markets this month" testId="trend-remarkets" to="/billing" action="Usage by month">
          <p>
            <Figure>{remarkets.figure}</Figure> {remarkets.noun} in {remarkets.monthName}.
          </p>
          <ChangeLine change={remarkets.change} testId="trend-remarkets-change" />
          <p className="mt-1">{remarkets.quotaLeft}</p>
          <Basis>{remarkets.basis}</Basis>
        </DashCard>
        <DashCard title="Outcomes" testId="trend-outcomes" to="/reports" action="Outcomes report">
          {outcomes.figures ? (
            <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1">
              {OUTCOME_ROWS.map((row) => (
                <div key={row.key} className="contents" data-testid={`outcome-${row.key}`}>
                  <dt>
                    {row.label}
                    {row.key === "won" && outcomes.saved ? (
                      <span className="block text-xs text-slate-600 dark:text-slate-400">{outcomes.saved}</span>
                    ) : null}
                  </dt>
                  <dd className="text-right font-semibold tabular-nums">{outcomes.figures?.[row.key]}</dd>
                </div>
              ))}
            </dl>
          ) : null}
          <Basis>{outcomes.basis}</Basis>
        </DashCard>
      </div>
    </section>
  );
}

/** The agency's latest audit events, in the customer page's words, each leading to its object. */
function RecentActivity({ activity }: { activity: View["activity"] }) {
  return (
    <section aria-labelledby="activity-title" data-testid="recent-activity">
      <h2 id="activity-title" className="text-lg font-semibold">
        Recent activity
      </h2>
      <div className="mt-3 rounded-lg bg-white px-5 py-2 text-sm shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
        {activity.length === 0 ? (
          <p className="py-2 text-slate-600 dark:text-slate-300">Nothing recorded yet.</p>
        ) : (
          <ol className="divide-y divide-slate-100 dark:divide-slate-800">
            {activity.map((a) => (
              <li key={a.id} className="flex flex-col gap-0.5 py-2 sm:flex-row sm:gap-4" data-testid="activity-item">
                <time dateTime={a.at} className="shrink-0 text-slate-600 tabular-nums sm:w-40 dark:text-slate-400">
                  {a.when}
                </time>
                <span className="min-w-0 break-words">
                  <span className="font-medium">{a.who}</span>
                  {": "}
                  {a.href ? (
                    <Link to={a.href} className="text-brand-700 underline dark:text-brand-400">
                      {a.what}
                    </Link>
                  ) : (
                    a.what
                  )}
                </span>
              </li>
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}

function Figure({ children }: { children: ReactNode }) {
  return <strong className="text-2xl font-bold tabular-nums">{children}</strong>;
}

function DashCard({
  title,
  testId,
  to,
  action,
  children,
}: {
  title: string;
  testId?: string;
  to: string;
  action: string;
  children: ReactNode;
}) {
  return (
    <section
      className="flex flex-col rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800"
      data-testid={testId}
      aria-label={title}
    >
      <h2 className="font-semibold">{title}</h2>
      <div className="mt-2 text-sm">{children}</div>
      {/* At the card's foot, so the cards of a row line their links up. */}
      <Link to={to} className="mt-auto self-start pt-3 text-sm font-semibold text-brand-600 hover:underline">
        {action} →
      </Link>
    </section>
  );
}

/** A card for what the agency has not set up yet: the same card, with a sentence and where to go. */
/** A new agency's one way in: the four steps from its data to the worklist, in order. */
function GettingStarted() {
  return (
    <section
      aria-labelledby="getting-started-title"
      className="rounded-lg bg-white p-5 text-sm shadow-sm ring-1 ring-slate-200 md:col-span-2 dark:bg-slate-900 dark:ring-slate-800"
      data-testid="getting-started"
    >
      <h2 id="getting-started-title" className="text-base font-semibold">
        Get started
      </h2>
      <ol className="mt-3 list-decimal space-y-3 pl-5 text-slate-700 dark:text-slate-200">
        <li>
          <Link to="/integration-setup" className="font-semibold text-brand-600 underline">
            Start integration setup
          </Link>{" "}
          to connect EZLynx, Applied Epic, QQCatalyst, HawkSoft or Salesforce, or{" "}
          <Link to="/files" className="font-semibold text-brand-600 underline">
            upload an export
          </Link>{" "}
          (CSV or Excel) and check its data-quality report.
        </li>
        <li>Review the mapping: which of your columns are customers, policies and premiums.</li>
        <li>Import: customers, policies and carriers arrive, and the forecast runs.</li>
        <li>
          See the worklist: the renewals worth re-marketing, on the{" "}
          <Link to="/remarket" className="font-semibold text-brand-600 underline">
            Re-market
          </Link>{" "}
          page.
        </li>
      </ol>
    </section>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
