import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { PostForm } from "~/components/forms";
import { Notice } from "~/components/ui/alert-pill";
import { WizardActions, WizardPage, WizardProgress } from "~/components/wizard";
import { LINES_OF_BUSINESS } from "~/db/schema/book";
import { markStepSaved } from "~/services/connections.server";
import { ALL_LINES, getForecastPreference, listForecastPreferences, saveForecastPreference, type ForecastPreference } from "~/services/forecast-preferences.server";
import { LOB_LABELS } from "~/services/mapping/values";
import { applyFormOnce } from "~/utils/forms.server";
import { codeToPeriodLabel, periodToCode } from "~/utils/format";
import { stepRoute } from "~/utils/setup-steps";
import { requireWizardStep } from "~/utils/wizard.server";

export const meta: MetaFunction = () => [{ title: "Prediction | Remarket" }];

// Seed forecast-preferences/{forecast_object_id}: one preference for all lines, and optionally
// one per line of business. Saved through the forecast-preferences contract.

const PreferenceSchema = z.object({
  window: z.enum(["6 months", "12 months"], { error: "Choose 6 or 12 months." }),
  thresholdPct: z.coerce.number({ error: "Enter a percentage." }).min(0, "Use 0 or more.").max(1000, "Use at most 1000 %."),
  thresholdAmount: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (!v) return null;
      const n = Number(v.replace(/[$,]/g, ""));
      if (!Number.isFinite(n) || n < 0) {
        ctx.addIssue({ code: "custom", message: "Enter an amount in dollars." });
        return z.NEVER;
      }
      return n;
    }),
  actDaysBeforeExpiration: z.coerce.number({ error: "Enter a number of days." }).int("Use whole days.").min(1, "Use 1 day or more.").max(365, "Use at most 365 days."),
  excludeFirstTerm: z.literal("on").optional(),
  excludeZeroPremium: z.literal("on").optional(),
});

function linesIn(valueMaps: Record<string, string> | undefined) {
  const present = new Set(Object.values(valueMaps ?? {}));
  return LINES_OF_BUSINESS.filter((l) => present.has(l));
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { ctx, connection } = await requireWizardStep(request, context, params.connectionId, "PREDICTION_SETTING");
  const saved = await listForecastPreferences(ctx);
  const all = await getForecastPreference(ctx, ALL_LINES);
  const lines = [...new Set([...linesIn(connection.mapping?.valueMaps.lineOfBusiness), ...saved.map((p) => p.forecastObjectId).filter((id) => id !== ALL_LINES)])];
  return {
    connection: { id: connection.id, name: connection.name, step: connection.step, integrationId: connection.integrationId },
    objects: [
      { id: ALL_LINES, label: "All lines of business", own: true, pref: all },
      ...lines.map((id) => {
        const own = saved.find((p) => p.forecastObjectId === id);
        return { id, label: LOB_LABELS[id as keyof typeof LOB_LABELS] ?? id, own: Boolean(own), pref: own ?? { ...all, forecastObjectId: id } };
      }),
    ],
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { ctx, connection } = await requireWizardStep(request, context, params.connectionId, "PREDICTION_SETTING");
  const formData = await request.formData();
  const objects = formData.getAll("object").map(String).filter((o) => o === ALL_LINES || (LINES_OF_BUSINESS as readonly string[]).includes(o));
  const errors: Record<string, string> = {};
  const prefs: ForecastPreference[] = [];
  for (const id of objects) {
    if (id !== ALL_LINES && formData.get(`${id}.own`) !== "on") continue;
    const raw = Object.fromEntries(
      ["window", "thresholdPct", "thresholdAmount", "actDaysBeforeExpiration", "excludeFirstTerm", "excludeZeroPremium"].map((k) => [k, formData.get(`${id}.${k}`) ?? undefined]),
    );
    const parsed = PreferenceSchema.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) errors[`${id}.${String(issue.path[0])}`] = issue.message;
      continue;
    }
    const v = parsed.data;
    prefs.push({
      forecastObjectId: id,
      window: periodToCode(v.window, "yr"),
      thresholdPct: v.thresholdPct,
      thresholdAmount: v.thresholdAmount,
      actDaysBeforeExpiration: v.actDaysBeforeExpiration,
      excludeFirstTerm: v.excludeFirstTerm === "on",
      excludeZeroPremium: v.excludeZeroPremium === "on",
    });
  }
  if (Object.keys(errors).length > 0 || !objects.includes(ALL_LINES)) {
    return data({ errors, values: Object.fromEntries([...formData].filter(([, v]) => typeof v === "string")) as Record<string, string> }, { status: 400 });
  }
  return applyFormOnce(request, formData, async () => {
    for (const pref of prefs) await saveForecastPreference(ctx, pref);
    await markStepSaved(ctx, connection, "TASK_CREATION");
    return redirect(stepRoute("TASK_CREATION", connection.id, connection.integrationId));
  });
}

export default function PredictionPage() {
  const { connection, objects } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const errors: Record<string, string> = actionData?.errors ?? {};
  const values: Record<string, string> | null = actionData?.values ?? null;
  const value = (id: string, key: string, fallback: string) => (values ? (values[`${id}.${key}`] ?? "") : fallback);
  const checked = (id: string, key: string, fallback: boolean) => (values ? values[`${id}.${key}`] === "on" : fallback);
  return (
    <WizardPage
      title="Prediction"
      connectionName={connection.name}
      progress={<WizardProgress current="PREDICTION_SETTING" reached={connection.step} connectionId={connection.id} integrationId={connection.integrationId} />}
    >
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Which renewals should be re-marketed: the forecast window, the premium increase that flags a renewal, and when to act.
      </p>
      {Object.keys(errors).length > 0 ? <Notice tone="error">Some values need a second look.</Notice> : null}
      <PostForm className="space-y-4">
        {objects.map((o) => {
          const err = (k: string) => errors[`${o.id}.${k}`];
          const input = "mt-1 block w-full rounded-md px-2 py-1.5 text-sm ring-1 ring-slate-300 aria-[invalid]:ring-red-500 dark:bg-slate-900";
          return (
            <fieldset key={o.id} className="rounded-lg bg-white p-4 ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
              <input type="hidden" name="object" value={o.id} />
              <legend className="px-1 font-semibold">{o.label}</legend>
              {o.id !== "all" ? (
                <label className="mb-3 flex items-center gap-2 text-sm">
                  <input type="checkbox" name={`${o.id}.own`} defaultChecked={checked(o.id, "own", o.own)} />
                  Own settings for {o.label} (otherwise “All lines” applies)
                </label>
              ) : null}
              <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
                <label className="text-sm">
                  <span className="font-medium">Forecast window</span>
                  <select name={`${o.id}.window`} defaultValue={value(o.id, "window", codeToPeriodLabel(o.pref.window))} className={input}>
                    <option value="6 months">6 months</option>
                    <option value="12 months">12 months</option>
                  </select>
                </label>
                <NumberInput name={`${o.id}.thresholdPct`} label="Premium increase (%)" defaultValue={value(o.id, "thresholdPct", String(o.pref.thresholdPct))} error={err("thresholdPct")} />
                <NumberInput name={`${o.id}.thresholdAmount`} label="or increase ($)" defaultValue={value(o.id, "thresholdAmount", o.pref.thresholdAmount === null ? "" : String(o.pref.thresholdAmount))} error={err("thresholdAmount")} />
                <NumberInput name={`${o.id}.actDaysBeforeExpiration`} label="Flag days before expiration" defaultValue={value(o.id, "actDaysBeforeExpiration", String(o.pref.actDaysBeforeExpiration))} error={err("actDaysBeforeExpiration")} />
              </div>
              <div className="mt-3 flex flex-wrap gap-6 text-sm">
                <label className="flex items-center gap-2">
                  <input type="checkbox" name={`${o.id}.excludeFirstTerm`} defaultChecked={checked(o.id, "excludeFirstTerm", o.pref.excludeFirstTerm)} />
                  Leave out a policy’s first term
                </label>
                <label className="flex items-center gap-2">
                  <input type="checkbox" name={`${o.id}.excludeZeroPremium`} defaultChecked={checked(o.id, "excludeZeroPremium", o.pref.excludeZeroPremium)} />
                  Leave out $0 or blank premiums
                </label>
              </div>
            </fieldset>
          );
        })}
        <WizardActions backTo={stepRoute("CONNECTION_MAPPING", connection.id, connection.integrationId)} pending={navigation.state === "submitting"} />
      </PostForm>
    </WizardPage>
  );
}

function NumberInput({ name, label, defaultValue, error }: { name: string; label: string; defaultValue: string; error?: string }) {
  const id = name.replace(/\./g, "-");
  return (
    <label className="text-sm" htmlFor={id}>
      <span className="font-medium">{label}</span>
      <input
        id={id}
        name={name}
        inputMode="decimal"
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="mt-1 block w-full rounded-md px-2 py-1.5 text-sm ring-1 ring-slate-300 aria-[invalid]:ring-red-500 dark:bg-slate-900"
      />
      {error ? (
        <span id={`${id}-error`} className="mt-1 block text-red-600">
          {error}
        </span>
      ) : null}
    </label>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/error-page";
