import { useTimeZone } from "~/utils/use-time-zone";
import { ForecastPreferenceFields, SettingsSchema, forecastObject } from "~/utils/forecast-schemas";
import { getFormProps, getInputProps, getSelectProps, useServerForm, type ServerField } from "~/components/server-form";
import { type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation, useSearchParams } from "@remix-run/react";
import { z } from "zod";
import { BarChart } from "~/components/bar-chart";
import { PostForm, resultFor, useFormId, Notice, Button } from "~/components/shell";
import { Pagination } from "~/components/pagination";
import { ChangeText } from "~/components/change-text";
import { Card, inputClass, rowClass, tableClass, theadClass } from "~/components/renewals-ui";
import { getForecastPreference, listForecastPreferences, saveForecastPreference } from "~/services/renewals/forecast-preferences.server";
import { forecastSummary, listForecast, simulateFlags } from "~/services/renewals/forecast-views.server";
import { getForecastRun, refreshForecast } from "~/services/renewals/forecast.server";
import { requireTenantContext } from "~/utils/auth.server";
import { codeToPeriodLabel, formatCount, formatDate, formatDateTime, formatMoney, formatNumber } from "~/utils/format";
import { applyFormOnce } from "~/utils/forms.server";
import { pageCountFor, readPage } from "~/utils/pagination";
import { ALL_LINES_ID as ALL_LINES, EXCLUSION_LABELS, LINE_CODES as LINES_OF_BUSINESS, describePrediction } from "~/utils/renewals";
import { replyInvalid } from "~/utils/submission.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Forecast | Remarket" }];

export const handle = {
  description: "Which renewals will rise past your threshold, the rule behind each flag and your saved forecast preferences.",
};

const PAGE_SIZE = 25;

// The what-if is per forecast object (seed forecast-preferences/{forecast_object_id}); none chosen: all lines.
const WhatIfSchema = SettingsSchema.extend({ forecastObjectId: forecastObject.catch(ALL_LINES) });
const PreferenceSchema = ForecastPreferenceFields.extend({ intent: z.literal("save") });
const ActionSchema = z.discriminatedUnion("intent", [z.object({ intent: z.literal("recompute") }), PreferenceSchema]);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const url = new URL(request.url);
  const page = readPage(url);
  const flaggedOnly = url.searchParams.get("show") === "flagged";
  const [preference, preferences, run] = await Promise.all([
    getForecastPreference(ctx, ALL_LINES),
    listForecastPreferences(ctx),
    getForecastRun(ctx),
  ]);
  let whatIf: { input: z.infer<typeof WhatIfSchema>; result: Awaited<ReturnType<typeof simulateFlags>> } | null = null;
  // The what-if is a GET form: its refusal is conform's reply too, read by the form from the loader.
  let whatIfResult: SubmissionResult<string[]> | null = null;
  // The object's own preference (falling back to 'all'): the form's starting values and the exclusions a save keeps.
  const whatIfObject = forecastObject.catch(ALL_LINES).parse(url.searchParams.get("forecastObjectId") ?? ALL_LINES);
  const objectPreference = whatIfObject === ALL_LINES ? preference : await getForecastPreference(ctx, whatIfObject);
  // The preferences form starts from the line being edited (?edit=WC: the saved list's Edit links and,
  // with JavaScript, the form's own "Applies to"): its own setting, or all lines' when it has none.
  // Picking a line must not offer all lines' values as if they were that line's.
  const editObject = forecastObject.catch(ALL_LINES).parse(url.searchParams.get("edit") ?? ALL_LINES);
  const editPreference = editObject === ALL_LINES ? preference : await getForecastPreference(ctx, editObject);
  if (url.searchParams.get("whatif") === "1") {
    const submission = parseWithZod(url.searchParams, { schema: WhatIfSchema });
    if (submission.status === "success")
      whatIf = { input: submission.value, result: await simulateFlags(ctx, submission.value, submission.value.forecastObjectId) };
    else whatIfResult = submission.reply();
  }
  const [summary, list, current] = await Promise.all([
    forecastSummary(ctx, preference.window),
    listForecast(ctx, { page, pageSize: PAGE_SIZE, flaggedOnly }),
    simulateFlags(ctx, preference),
  ]);
  return {
    preference,
    preferences,
    objectPreference,
    whatIfObject,
    editObject,
    editPreference,
    run,
    summary,
    list,
    page,
    pageCount: pageCountFor(list.total, PAGE_SIZE),
    flaggedOnly,
    whatIf,
    whatIfResult,
    current,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: ActionSchema });
  if (submission.status !== "success") return replyInvalid(submission);
  const input = submission.value;
  return applyFormOnce(request, formData, async () => {
    if (input.intent === "recompute") {
      const { inline } = await refreshForecast(ctx);
      return redirectWithToast("/forecast", {
        type: "success",
        title: inline ? "Forecast updated" : "Forecast queued",
        message: inline ? "The worklist reflects the latest book." : "Large book: the forecast is being recomputed in the background.",
      });
    }
    const { intent: _save, ...preference } = input;
    await saveForecastPreference(ctx, preference);
    const { inline } = await refreshForecast(ctx);
    const label = preference.forecastObjectId === ALL_LINES ? "all lines" : preference.forecastObjectId;
    return redirectWithToast("/forecast", {
      type: "success",
      title: "Preferences saved",
      message: `Saved for ${label}. ${inline ? "The worklist is up to date." : "The forecast is being recomputed."}`,
    });
  });
}

export default function ForecastPage() {
  const timeZone = useTimeZone();
  const {
    preference,
    preferences,
    objectPreference,
    whatIfObject,
    editObject,
    editPreference,
    run,
    summary,
    list,
    page,
    pageCount,
    flaggedOnly,
    whatIf,
    whatIfResult,
    current,
  } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const wi = whatIf?.input ?? objectPreference;
  const actionData = useActionData<typeof action>();
  const [whatIfForm, whatIfFields] = useServerForm({
    id: useFormId("what-if", whatIfResult),
    lastResult: whatIfResult,
    defaultValue: { forecastObjectId: whatIfObject, ...settingsValues(wi) },
  });
  const [preferenceForm, preferenceFields] = useServerForm({
    // Another line to edit is another form: conform starts it from that line's values.
    id: `${useFormId("preferences", actionData)}-${editObject}`,
    lastResult: resultFor(actionData, { intent: "save" }),
    defaultValue: {
      forecastObjectId: editObject,
      ...settingsValues(editPreference),
      excludeFirstTerm: editPreference.excludeFirstTerm ? "on" : "",
      excludeZeroPremium: editPreference.excludeZeroPremium ? "on" : "",
    },
  });
  const navigate = useNavigate();
  const editLine = (line: string) => {
    const next = new URLSearchParams(params);
    next.set("edit", line);
    navigate({ search: `?${next}`, hash: "preferences" }, { replace: true, preventScrollReset: true });
  };
  const objectLabel = (id: string) => (id === ALL_LINES ? "all lines" : id);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">Forecast</h1>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            Renewals in the next {codeToPeriodLabel(preference.window)}: {formatNumber(current.policies)}{" "}
            {current.policies === 1 ? "meets" : "meet"} your saved preferences now, for {formatCount(current.customers, "customer")} (the
            worklist lists each customer once); {formatCount(current.quotaLeft, "re-market")} left in {current.quotaYear}.
            {run
              ? ` Computed ${formatDateTime(run.computedAt, timeZone)} over ${formatCount(run.evaluated, "renewal")}.`
              : " Not computed yet."}
          </p>
        </div>
        <PostForm>
          <Button
            type="submit"
            name="intent"
            value="recompute"
            variant="secondary"
            pending={navigation.formData?.get("intent") === "recompute"}
          >
            Recompute now
          </Button>
        </PostForm>
      </div>

      <Card title="Renewals per month">
        <div className="grid gap-4 2xl:grid-cols-2">
          <BarChart
            title="Renewals and flagged renewals per month"
            description={`Renewals per month over the next ${codeToPeriodLabel(preference.window)}; the table below has the numbers.`}
            categories={summary.map((m) => m.label)}
            series={[
              { key: "renewals", label: "Renewals", color: "#93b4ee" },
              { key: "flagged", label: "Flagged", color: "#c2410c" },
            ]}
            values={{ renewals: summary.map((m) => m.renewals), flagged: summary.map((m) => m.flagged) }}
          />
          <BarChart
            title="Premium per month"
            description="Expiring premium and renewal premium (offer or prediction) per month."
            categories={summary.map((m) => m.label)}
            series={[
              { key: "premium", label: "Expiring premium", color: "#1f57c0" },
              { key: "renewal", label: "Renewal premium", color: "#f59e0b" },
            ]}
            values={{ premium: summary.map((m) => m.premium), renewal: summary.map((m) => m.renewalPremium) }}
            format={(v) => formatMoney(v)}
          />
        </div>
        <div className="mt-4 overflow-x-auto">
          <table className={tableClass} data-testid="forecast-summary">
            <thead className={theadClass}>
              <tr>
                <th className="py-2">Month</th>
                <th className="pl-3 text-right">Renewals</th>
                <th className="pl-3 text-right">Flagged</th>
                <th className="pl-3 text-right">Expiring premium</th>
                <th className="pl-3 text-right">Renewal premium</th>
              </tr>
            </thead>
            <tbody>
              {summary.map((m) => (
                <tr key={m.month} className={rowClass}>
                  <td className="py-1.5">
                    {m.label}
                    {m.part ? <span className="ml-1 text-xs text-slate-500">({m.part})</span> : null}
                  </td>
                  <td className="pl-3 text-right">{formatNumber(m.renewals)}</td>
                  <td className="pl-3 text-right">{formatNumber(m.flagged)}</td>
                  <td className="pl-3 text-right">{formatMoney(m.premium)}</td>
                  <td className="pl-3 text-right">{formatMoney(m.renewalPremium)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>

      <div className="grid gap-4 lg:grid-cols-2">
        <Card
          title={
            <>
              Try a threshold <span className="font-normal text-slate-600 dark:text-slate-300">(preview, not saved)</span>
            </>
          }
          className="border border-dashed border-slate-300 bg-slate-50 shadow-none ring-0 dark:border-slate-700 dark:bg-slate-950"
        >
          <p className="mb-3 text-sm text-slate-600 dark:text-slate-300">
            See what other settings would flag. Nothing changes for your worklist until you save your preferences.
          </p>
          <Form method="get" {...getFormProps(whatIfForm)} className="grid gap-3 sm:grid-cols-2" aria-label="What if">
            <input type="hidden" name="whatif" value="1" />
            <ObjectSelect field={whatIfFields.forecastObjectId} label="Applies to" />
            <WindowSelect field={whatIfFields.window} />
            <NumberInput field={whatIfFields.thresholdPct} label="Premium increase from (%)" step="0.1" />
            <NumberInput field={whatIfFields.thresholdAmount} label="or increase from ($)" step="1" money />
            <NumberInput field={whatIfFields.actDaysBeforeExpiration} label="Act within days of expiry" step="1" />
            <div className="sm:col-span-2">
              <Button type="submit" variant="secondary">
                Show what would be flagged
              </Button>
            </div>
          </Form>
          {whatIf ? (
            <div className="mt-4 space-y-3" data-testid="what-if-result">
              <Notice tone={whatIf.result.overQuota ? "warning" : "success"}>
                For {objectLabel(whatIf.input.forecastObjectId)}, these settings would flag{" "}
                <strong>{formatNumber(whatIf.result.policies)}</strong> renewals for{" "}
                <strong>{formatNumber(whatIf.result.customers)}</strong> customers (each customer once), against{" "}
                <strong>{formatNumber(whatIf.result.quotaLeft)}</strong> re-markets left in {whatIf.result.quotaYear}.
                {whatIf.result.overQuota ? " That is more than the quota left." : ""}
                {whatIf.input.forecastObjectId === ALL_LINES ? " Lines with a preference of their own keep it." : ""} Nothing is saved until
                you save.
              </Notice>
              <PostForm>
                <input type="hidden" name="forecastObjectId" value={whatIf.input.forecastObjectId} />
                <input type="hidden" name="window" value={codeToPeriodLabel(whatIf.input.window)} />
                <input type="hidden" name="thresholdPct" value={whatIf.input.thresholdPct} />
                <input type="hidden" name="thresholdAmount" value={whatIf.input.thresholdAmount ?? ""} />
                <input type="hidden" name="actDaysBeforeExpiration" value={whatIf.input.actDaysBeforeExpiration} />
                {objectPreference.excludeFirstTerm ? <input type="hidden" name="excludeFirstTerm" value="on" /> : null}
                {objectPreference.excludeZeroPremium ? <input type="hidden" name="excludeZeroPremium" value="on" /> : null}
                <Button type="submit" name="intent" value="save">
                  Save as preferences for {objectLabel(whatIf.input.forecastObjectId)}
                </Button>
              </PostForm>
            </div>
          ) : null}
        </Card>

        <Card
          id="preferences"
          title={
            <>
              Your preferences <span className="font-normal text-slate-600 dark:text-slate-300">(saved)</span>
            </>
          }
        >
          <p className="mb-3 text-sm text-slate-600 dark:text-slate-300">
            The worklist, the dashboard and notifications flag renewals with these.
          </p>
          <ul className="mb-3 space-y-1 text-sm" data-testid="preferences">
            {(preferences.length ? preferences : [preference]).map((p) => (
              <li key={p.forecastObjectId}>
                <strong>{p.forecastObjectId === ALL_LINES ? "All lines" : p.forecastObjectId}</strong>: {codeToPeriodLabel(p.window)}, from{" "}
                {formatNumber(p.thresholdPct, 1)}%{p.thresholdAmount !== null ? ` or ${formatMoney(p.thresholdAmount)}` : ""}, act within{" "}
                {p.actDaysBeforeExpiration} days
                {p.excludeFirstTerm ? ", first terms excluded" : ""}
                {p.excludeZeroPremium ? ", $0 premiums excluded" : ""}
                {p.forecastObjectId === editObject ? null : (
                  <>
                    {" · "}
                    <Link
                      to={`?edit=${encodeURIComponent(p.forecastObjectId)}#preferences`}
                      preventScrollReset
                      replace
                      className="text-brand-600 underline"
                      aria-label={`Edit ${p.forecastObjectId === ALL_LINES ? "all lines" : p.forecastObjectId}`}
                    >
                      Edit
                    </Link>
                  </>
                )}
              </li>
            ))}
          </ul>
          {/* Keyed by the line: its fields are new elements, so they show the line's values (a changed
              defaultValue leaves an element's value as it was). */}
          <PostForm key={editObject} {...getFormProps(preferenceForm)} className="grid gap-3 sm:grid-cols-2" aria-label="Preferences">
            <ObjectSelect field={preferenceFields.forecastObjectId} label="Applies to" onPick={editLine} />
            <WindowSelect field={preferenceFields.window} />
            <NumberInput field={preferenceFields.thresholdPct} label="Premium increase from (%)" step="0.1" />
            <NumberInput field={preferenceFields.thresholdAmount} label="or increase from ($)" step="1" money />
            <NumberInput field={preferenceFields.actDaysBeforeExpiration} label="Act within days of expiry" step="1" />
            <fieldset className="space-y-1 text-sm">
              <legend className="font-medium">Exclude</legend>
              <label className="flex items-center gap-2">
                <input {...getInputProps(preferenceFields.excludeFirstTerm, { type: "checkbox" })} /> First terms
              </label>
              <label className="flex items-center gap-2">
                <input {...getInputProps(preferenceFields.excludeZeroPremium, { type: "checkbox" })} /> $0 premiums
              </label>
            </fieldset>
            <div className="sm:col-span-2">
              <Button type="submit" name="intent" value="save" pending={navigation.formData?.get("intent") === "save"}>
                Save preferences
              </Button>
            </div>
          </PostForm>
        </Card>
      </div>

      <Card
        title="Renewals in the window"
        actions={
          <div className="flex gap-3 text-sm">
            <Link
              to="/forecast"
              aria-current={!flaggedOnly ? "page" : undefined}
              className={!flaggedOnly ? "font-semibold" : "text-brand-600"}
            >
              All
            </Link>
            <Link
              to="/forecast?show=flagged"
              aria-current={flaggedOnly ? "page" : undefined}
              className={flaggedOnly ? "font-semibold" : "text-brand-600"}
            >
              Flagged only
            </Link>
          </div>
        }
      >
        <div className="overflow-x-auto">
          <table className={tableClass} data-testid="forecast-table">
            <thead className={theadClass}>
              <tr>
                <th className="py-2 pr-3">Customer</th>
                <th className="pr-3">Policy</th>
                <th className="pr-3">Expires</th>
                <th className="pr-3 text-right">Prior</th>
                <th className="pr-3 text-right">Current</th>
                <th className="pr-3 text-right">Renewal</th>
                <th className="pr-3">Change</th>
                <th className="pr-3">Flag</th>
              </tr>
            </thead>
            <tbody>
              {list.rows.map((r) => (
                <tr key={r.policyId} className={rowClass}>
                  <td className="py-2 pr-3">
                    <Link to={`/customers/${r.customerId}`} className="text-brand-700 hover:underline dark:text-brand-100">
                      {r.customerName}
                    </Link>
                  </td>
                  <td className="pr-3">
                    <span className="font-mono text-xs">{r.policyNumber}</span>
                    <div className="text-xs text-slate-500">
                      {r.lineOfBusiness} · {r.carrierName}
                      {r.riskState ? ` · ${r.riskState}` : ""}
                    </div>
                  </td>
                  <td className="whitespace-nowrap pr-3">
                    {formatDate(r.expirationDate)}
                    <div className="text-xs text-slate-500">{formatCount(r.daysToExpiry, "day")}</div>
                  </td>
                  <td className="pr-3 text-right">{formatMoney(r.priorPremium)}</td>
                  <td className="pr-3 text-right">{formatMoney(r.currentPremium)}</td>
                  <td className="pr-3 text-right">
                    {formatMoney(r.renewalPremium)}
                    {r.predicted ? (
                      <div className="text-xs text-amber-700 dark:text-amber-300" data-testid="prediction">
                        {describePrediction(r, { withRate: false })}
                      </div>
                    ) : r.renewalPremium !== null ? (
                      <div className="text-xs text-slate-500">carrier offer</div>
                    ) : null}
                  </td>
                  <td className="pr-3">
                    <ChangeText pct={r.changePct} amount={r.changeAmount} />
                  </td>
                  <td className="pr-3 text-xs">
                    {r.flagged ? (
                      <strong className="text-red-700 dark:text-red-400">Flagged</strong>
                    ) : r.exclusion ? (
                      EXCLUSION_LABELS[r.exclusion]
                    ) : (
                      ""
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="mt-2 text-sm text-slate-500">{formatCount(list.total, "renewal")}</p>
        <Pagination page={page} pageCount={pageCount} key={params.toString()} />
      </Card>
    </div>
  );
}

type Field = ServerField;

/** A preference's settings as the form's starting values (the window by its label, seed §5). */
function settingsValues(p: { window: "6m" | "yr"; thresholdPct: number; thresholdAmount: number | null; actDaysBeforeExpiration: number }) {
  return {
    window: codeToPeriodLabel(p.window),
    thresholdPct: String(p.thresholdPct),
    thresholdAmount: p.thresholdAmount === null ? "" : String(p.thresholdAmount),
    actDaysBeforeExpiration: String(p.actDaysBeforeExpiration),
  };
}

/** `onPick`: with JavaScript, a change loads what the picked line has saved. */
function ObjectSelect({ field, label, onPick }: { field: Field; label: string; onPick?: (line: string) => void }) {
  return (
    <label className="block text-sm">
      <span className="font-medium">{label}</span>
      <select
        {...getSelectProps(field)}
        onChange={onPick ? (event) => onPick(event.currentTarget.value) : undefined}
        className={`${inputClass} mt-1`}
      >
        <option value={ALL_LINES}>All lines</option>
        {LINES_OF_BUSINESS.map((l) => (
          <option key={l} value={l}>
            {l}
          </option>
        ))}
      </select>
      <FieldError field={field} />
    </label>
  );
}

function WindowSelect({ field }: { field: Field }) {
  return (
    <label className="block text-sm">
      <span className="font-medium">Window</span>
      <select {...getSelectProps(field)} className={`${inputClass} mt-1`}>
        <option value="6 months">6 months</option>
        <option value="12 months">12 months</option>
      </select>
      <FieldError field={field} />
    </label>
  );
}

/** `money`: a text field, so "1,500" and "$1,500" can be typed (utils/money-input.ts reads them). */
function NumberInput({ field, label, step, money }: { field: Field; label: string; step: string; money?: boolean }) {
  return (
    <div className="text-sm">
      <label htmlFor={field.id} className="font-medium">
        {label}
      </label>
      {money ? (
        <input {...getInputProps(field, { type: "text" })} inputMode="decimal" className={`${inputClass} mt-1`} />
      ) : (
        <input {...getInputProps(field, { type: "number" })} step={step} min="0" className={`${inputClass} mt-1`} />
      )}
      <FieldError field={field} />
    </div>
  );
}

function FieldError({ field }: { field: Field }) {
  if (!field.errors) return null;
  return (
    <p id={field.errorId} className="text-red-600">
      {field.errors[0]}
    </p>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
