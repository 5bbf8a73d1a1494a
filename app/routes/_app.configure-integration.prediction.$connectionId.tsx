import { getFormProps, getInputProps, getSelectProps, useServerForm, type ServerField } from "~/components/server-form";
import { parseWithZod } from "@conform-to/zod/v4";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { PostForm } from "~/components/forms";
import { Notice } from "~/components/ui/alert-pill";
import { WizardActions, WizardPage, WizardProgress } from "~/components/wizard";
import { LINES_OF_BUSINESS } from "~/db/schema/book";
import { markStepSaved } from "~/services/connections/connections.server";
import {
  getForecastPreference,
  listForecastPreferences,
  saveForecastPreference,
  type ForecastPreference,
} from "~/services/renewals/forecast-preferences.server";
import { LOB_LABELS } from "~/services/connections/mapping/values";
import { applyFormOnce } from "~/utils/forms.server";
import { codeToPeriodLabel } from "~/utils/format";
import { PreferenceSchema, predictionSchema, toForecastPreferences } from "~/utils/setup-step-forms";
import { ALL_LINES_ID as ALL_LINES } from "~/utils/renewals";
import { stepRoute } from "~/utils/setup-steps";
import { replyInvalid } from "~/utils/submission.server";
import { requireWizardStep } from "~/utils/wizard.server";

export const meta: MetaFunction = () => [{ title: "Prediction | Remarket" }];

// Seed forecast-preferences/{forecast_object_id}: one preference for all lines, and optionally
// one per line of business. Saved through the forecast-preferences contract.

// A line's fieldset counts only when its "own settings" box is ticked; otherwise 'all' applies to it.
const LinePreferenceSchema = z.preprocess(
  (v) => (v && typeof v === "object" && "own" in v && v.own === "on" ? v : undefined),
  PreferenceSchema.optional(),
);

/** The form's fields are named `<forecast object>.<setting>` (`all.window`, `HOME.thresholdPct`): one fieldset each. */
const PredictionSchema = predictionSchema(LinePreferenceSchema);

type Settings = {
  window: string;
  thresholdPct: string;
  thresholdAmount: string;
  actDaysBeforeExpiration: string;
  excludeFirstTerm: string;
  excludeZeroPremium: string;
  own?: string;
};

function linesIn(valueMaps: Record<string, string> | undefined) {
  const present = new Set(Object.values(valueMaps ?? {}));
  return LINES_OF_BUSINESS.filter((l) => present.has(l));
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { ctx, connection } = await requireWizardStep(request, context, params.connectionId, "PREDICTION_SETTING");
  const saved = await listForecastPreferences(ctx);
  const all = await getForecastPreference(ctx, ALL_LINES);
  const lines = [
    ...new Set([
      ...linesIn(connection.mapping?.valueMaps.lineOfBusiness),
      ...saved.map((p) => p.forecastObjectId).filter((id) => id !== ALL_LINES),
    ]),
  ];
  return {
    connection: { id: connection.id, name: connection.name, step: connection.step, integrationId: connection.integrationId },
    objects: [
      { id: ALL_LINES, label: "All lines of business", own: true, pref: all },
      ...lines.map((id) => {
        const own = saved.find((p) => p.forecastObjectId === id);
        return {
          id,
          label: LOB_LABELS[id as keyof typeof LOB_LABELS] ?? id,
          own: Boolean(own),
          pref: own ?? { ...all, forecastObjectId: id },
        };
      }),
    ],
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { ctx, connection } = await requireWizardStep(request, context, params.connectionId, "PREDICTION_SETTING");
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: PredictionSchema });
  if (submission.status !== "success") return replyInvalid(submission);
  const prefs: ForecastPreference[] = toForecastPreferences(submission.value);
  return applyFormOnce(request, formData, async () => {
    for (const pref of prefs) await saveForecastPreference(ctx, pref);
    await markStepSaved(ctx, connection, "TASK_CREATION");
    return redirect(stepRoute("TASK_CREATION", connection.id, connection.integrationId));
  });
}

export default function PredictionPage() {
  const { connection, objects } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const [form, fields] = useServerForm({
    id: "prediction",
    lastResult: useActionData<typeof action>(),
    defaultValue: Object.fromEntries(
      objects.map((o): [string, Settings] => [
        o.id,
        {
          window: codeToPeriodLabel(o.pref.window),
          thresholdPct: String(o.pref.thresholdPct),
          thresholdAmount: o.pref.thresholdAmount === null ? "" : String(o.pref.thresholdAmount),
          actDaysBeforeExpiration: String(o.pref.actDaysBeforeExpiration),
          excludeFirstTerm: o.pref.excludeFirstTerm ? "on" : "",
          excludeZeroPremium: o.pref.excludeZeroPremium ? "on" : "",
          own: o.own ? "on" : "",
        },
      ]),
    ),
  });
  return (
    <WizardPage
      title="Prediction"
      connectionName={connection.name}
      progress={
        <WizardProgress
          current="PREDICTION_SETTING"
          reached={connection.step}
          connectionId={connection.id}
          integrationId={connection.integrationId}
        />
      }
    >
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Which renewals should be re-marketed: the forecast window, the premium increase that flags a renewal, and when to act.
      </p>
      {Object.keys(form.allErrors).length > 0 ? <Notice tone="error">Some values need a second look.</Notice> : null}
      <PostForm {...getFormProps(form)} className="space-y-4">
        {objects.map((o) => {
          const f = fields[o.id].getFieldset();
          return (
            <fieldset key={o.id} className="rounded-lg bg-white p-4 ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
              <legend className="px-1 font-semibold">{o.label}</legend>
              {o.id !== ALL_LINES ? (
                <label className="mb-3 flex items-center gap-2 text-sm">
                  <input {...getInputProps(f.own, { type: "checkbox" })} />
                  Own settings for {o.label} (otherwise “All lines” applies)
                </label>
              ) : null}
              <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
                <label className="text-sm">
                  <span className="font-medium">Forecast window</span>
                  <select {...getSelectProps(f.window)} className={inputClass}>
                    <option value="6 months">6 months</option>
                    <option value="12 months">12 months</option>
                  </select>
                  <FieldError field={f.window} />
                </label>
                <NumberInput field={f.thresholdPct} label="Premium increase (%)" />
                <NumberInput field={f.thresholdAmount} label="or increase ($)" />
                <NumberInput field={f.actDaysBeforeExpiration} label="Flag days before expiration" />
              </div>
              <div className="mt-3 flex flex-wrap gap-6 text-sm">
                <label className="flex items-center gap-2">
                  <input {...getInputProps(f.excludeFirstTerm, { type: "checkbox" })} />
                  Leave out a policy’s first term
                </label>
                <label className="flex items-center gap-2">
                  <input {...getInputProps(f.excludeZeroPremium, { type: "checkbox" })} />
                  Leave out $0 or blank premiums
                </label>
              </div>
            </fieldset>
          );
        })}
        <WizardActions
          backTo={stepRoute("CONNECTION_MAPPING", connection.id, connection.integrationId)}
          next={stepRoute("TASK_CREATION", connection.id, connection.integrationId)}
          pending={navigation.state === "submitting"}
        />
      </PostForm>
    </WizardPage>
  );
}

const inputClass = "mt-1 block w-full rounded-md px-2 py-1.5 text-sm ring-1 ring-slate-300 aria-[invalid]:ring-red-500 dark:bg-slate-900";

function NumberInput({ field, label }: { field: ServerField; label: string }) {
  return (
    <label className="text-sm" htmlFor={field.id}>
      <span className="font-medium">{label}</span>
      <input {...getInputProps(field, { type: "text" })} inputMode="decimal" className={inputClass} />
      <FieldError field={field} />
    </label>
  );
}

function FieldError({ field }: { field: ServerField }) {
  if (!field.errors) return null;
  return (
    <span id={field.errorId} className="mt-1 block text-red-600">
      {field.errors[0]}
    </span>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/error-page";
