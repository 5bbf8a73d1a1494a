import { getFormProps, useServerForm } from "~/components/server-form";
import { parseWithZod } from "@conform-to/zod/v4";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { PostForm } from "~/components/forms";
import { Notice } from "~/components/ui/alert-pill";
import { WizardActions, WizardPage, WizardProgress } from "~/components/wizard";
import { FILTER_DIMENSIONS, type FilterDimension } from "~/db/schema/connections";
import { scanSource } from "~/services/connections/connection-scan.server";
import { connectorOf, saveFilters } from "~/services/connections/connections.server";
import { LOB_LABELS, STATUS_LABELS, defaultExclusions } from "~/services/connections/mapping/values";
import { applyFormOnce } from "~/utils/forms.server";
import { excludedFilters, FILTER_TITLES, FiltersSchema } from "~/utils/setup-step-forms";
import { stepRoute } from "~/utils/setup-steps";
import { replyInvalid } from "~/utils/submission.server";
import { requireWizardStep } from "~/utils/wizard.server";
import { formatCount, formatNumber } from "~/utils/format";

export const meta: MetaFunction = () => [{ title: "Filter options | Remarket" }];

// Seed connections/etl-filter-values: the distinct lines, states, carriers and statuses in the
// source as checkbox lists; only ticked values are imported. Plain checkboxes: no JavaScript needed.

function labelFor(dimension: FilterDimension, value: string) {
  if (dimension === "linesOfBusiness") return `${value} — ${LOB_LABELS[value as keyof typeof LOB_LABELS] ?? value}`;
  if (dimension === "statuses") return STATUS_LABELS[value as keyof typeof STATUS_LABELS] ?? value;
  return value;
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { ctx, connection } = await requireWizardStep(request, context, params.connectionId, "FILTER_OPTIONS");
  const base = { connection: { id: connection.id, name: connection.name, step: connection.step, integrationId: connection.integrationId } };
  if (!connection.mapping) throw redirect(stepRoute("CONNECTION_MAPPING", connection.id, connection.integrationId));
  try {
    const scan = await scanSource(connectorOf(ctx, connection), connection.mapping, { previewSize: 0, invalidSamples: 0 });
    // Until the agency saves its own choice, inactive statuses start unticked.
    const excluded = connection.filters?.excluded ?? defaultExclusions(scan.filterValues);
    return {
      ...base,
      error: null,
      valid: scan.valid,
      dimensions: FILTER_DIMENSIONS.map((d) => ({
        id: d,
        title: FILTER_TITLES[d],
        values: scan.filterValues[d].map((v) => ({ ...v, label: labelFor(d, v.value), checked: !excluded[d]?.includes(v.value) })),
      })),
    };
  } catch (error) {
    return { ...base, error: error instanceof Error ? error.message : "The source could not be read.", valid: 0, dimensions: [] };
  }
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { ctx, connection } = await requireWizardStep(request, context, params.connectionId, "FILTER_OPTIONS");
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: FiltersSchema });
  if (submission.status !== "success") return replyInvalid(submission);
  const excluded = excludedFilters(submission.value);
  return applyFormOnce(request, formData, async () => {
    await saveFilters(ctx, connection, { excluded });
    return redirect(stepRoute("COMPLETED", connection.id, connection.integrationId));
  });
}

export default function FilterOptionsPage() {
  const { connection, dimensions, valid, error } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const [form] = useServerForm({ id: "filter-options", lastResult: useActionData<typeof action>() });
  // After a refused save the boxes are as the user left them (conform's value: the submitted one,
  // on the server and in the browser alike); before, as saved.
  const submitted = form.status === "error" ? ((form.value ?? {}) as Record<string, unknown>) : null;
  const isTicked = (dimension: string, value: string, saved: boolean) => {
    if (!submitted) return saved;
    const ticked = submitted[dimension];
    return Array.isArray(ticked) ? ticked.includes(value) : ticked === value;
  };
  const messages = Object.values(form.allErrors).flat();
  return (
    <WizardPage
      title="Filter options"
      connectionName={connection.name}
      progress={
        <WizardProgress
          current="FILTER_OPTIONS"
          reached={connection.step}
          connectionId={connection.id}
          integrationId={connection.integrationId}
        />
      }
    >
      {error ? (
        <Notice tone="error">
          The source could not be read: {error}.{" "}
          <Link to={stepRoute("CONNECTION_SETTING", connection.id, connection.integrationId)} className="font-semibold underline">
            Check the connection
          </Link>
        </Notice>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Untick what should stay out of Remarket. The counts are of the {formatCount(valid, "valid row")} in the source. Cancelled, expired
          and non-renewed policies start unticked: they are not up for renewal.
        </p>
      )}
      {messages.length ? (
        <Notice tone="error">
          {messages.map((e) => (
            <div key={e}>{e}</div>
          ))}
        </Notice>
      ) : null}
      <PostForm {...getFormProps(form)} className="space-y-4">
        <div className="grid gap-4 md:grid-cols-2">
          {dimensions.map((d) => (
            <fieldset key={d.id} className="rounded-lg bg-white p-4 ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
              <legend className="px-1 font-semibold">{d.title}</legend>
              <ul className="max-h-64 space-y-1 overflow-y-auto text-sm">
                {d.values.map((v) => (
                  <li key={v.value}>
                    <input type="hidden" name={`offered:${d.id}`} value={v.value} />
                    <label className="flex items-center gap-2">
                      <input type="checkbox" name={d.id} value={v.value} defaultChecked={isTicked(d.id, v.value, v.checked)} />
                      {v.label} <span className="text-slate-500">× {formatNumber(v.count)}</span>
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
          ))}
        </div>
        <WizardActions
          backTo={stepRoute("TASK_CREATION", connection.id, connection.integrationId)}
          next={stepRoute("COMPLETED", connection.id, connection.integrationId)}
          pending={navigation.state === "submitting"}
        />
      </PostForm>
    </WizardPage>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/error-page";
