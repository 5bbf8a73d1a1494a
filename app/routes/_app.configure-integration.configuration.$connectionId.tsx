import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigation, type ShouldRevalidateFunction } from "@remix-run/react";
import { z } from "zod";
import { PostForm, resultFor } from "~/components/forms";
import { AlertPill, Notice } from "~/components/ui/alert-pill";
import { Button } from "~/components/ui/button";
import { WizardActions, WizardPage, WizardProgress } from "~/components/wizard";
import { LINES_OF_BUSINESS, POLICY_STATUSES } from "~/db/schema/book";
import type { ConnectionMapping } from "~/db/schema/connections";
import { loadMappingSource, loadValueMaps, suggestFields } from "~/services/connections/connection-mapping.server";
import { IdentityConflicts, IdentityRuleChoice } from "~/components/identity-conflicts";
import { scanSource } from "~/services/connections/connection-scan.server";
import { connectorOf, saveConnectionState, saveMapping, upsertPeople } from "~/services/connections/connections.server";
import { CANONICAL_FIELDS, missingRequiredFields, fieldLabel } from "~/services/connections/mapping/fields";
import { PRESETS } from "~/services/connections/mapping/presets";
import { LOB_LABELS, STATUS_LABELS } from "~/services/connections/mapping/values";
import { applyFormOnce } from "~/utils/forms.server";
import { formatCount, formatDate, formatMoney } from "~/utils/format";
import { stepRoute } from "~/utils/setup-steps";
import { replyInvalid } from "~/utils/submission.server";
import { requireWizardStep } from "~/utils/wizard.server";
import { jsonWithoutControls } from "~/utils/schemas";
import { describeError } from "~/db/errors.server";
import { DRAFT_INTENT, isDraftAutosave } from "~/utils/draft-autosave";
import { log } from "~/services/platform/log.server";

export const meta: MetaFunction = () => [{ title: "Mapping | Remarket" }];

const PREVIEW_SCAN_LIMIT = 10_000;

type Draft = Pick<ConnectionMapping, "object" | "fields" | "valueMaps" | "identityRule">;

/** The mapping form as posted: field selects, and value maps as index-paired inputs (values may hold any text, but no control characters). */
function readDraft(formData: FormData): Draft {
  return jsonWithoutControls(readDraftFields(formData)) as Draft;
}

function readDraftFields(formData: FormData): Draft {
  const fields: Record<string, string> = {};
  for (const f of CANONICAL_FIELDS) {
    const v = formData.get(`field:${f.key}`);
    if (typeof v === "string" && v) fields[f.key] = v;
  }
  const pairs = (prefix: string, allowed: readonly string[]) => {
    const map: Record<string, string> = {};
    for (const [name, value] of formData) {
      const m = name.match(new RegExp(`^${prefix}Value:(\\d+)$`));
      if (!m || typeof value !== "string") continue;
      const chosen = formData.get(`${prefix}:${m[1]}`);
      if (typeof chosen === "string" && allowed.includes(chosen)) map[value] = chosen;
    }
    return map;
  };
  return {
    object: String(formData.get("object") ?? ""),
    fields,
    valueMaps: { lineOfBusiness: pairs("lob", LINES_OF_BUSINESS), status: pairs("status", POLICY_STATUSES) },
    identityRule: formData.get("identityRule") === "per-name" ? "per-name" : "newest",
  };
}

/**
 * Saving needs every required field mapped (`field:<key>` selects): each missing one is marked on
 * its select, and the form says which are missing.
 */
const SaveSchema = z
  .looseObject({ intent: z.literal("save"), object: z.string({ error: "Choose the object to import." }) })
  .superRefine((form, ctx) => {
    const fields = Object.fromEntries(
      CANONICAL_FIELDS.map((f) => [f.key, typeof form[`field:${f.key}`] === "string" ? (form[`field:${f.key}`] as string) : undefined]),
    );
    const missing = missingRequiredFields(fields);
    if (missing.length === 0) return;
    ctx.addIssue({ code: "custom", path: [], message: `Map the required fields first: ${missing.map(fieldLabel).join(", ")}.` });
    for (const key of missing) ctx.addIssue({ code: "custom", path: [`field:${key}`], message: `Map ${fieldLabel(key)}: it is required.` });
  });

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { ctx, connection, integration } = await requireWizardStep(request, context, params.connectionId, "CONNECTION_MAPPING");
  const url = new URL(request.url);
  const draft = connection.state.mapping as Draft | undefined;
  const base = {
    connection: { id: connection.id, name: connection.name, step: connection.step, integrationId: connection.integrationId },
    integrationName: integration.name,
    presets: PRESETS.map((p) => ({ id: p.id, label: p.label })),
    hasDraft: Boolean(draft),
  };
  try {
    const connector = connectorOf(ctx, connection);
    const source = await loadMappingSource(connector, url.searchParams.get("object") ?? draft?.object ?? connection.mapping?.object);
    const attributeNames = source.attributes.map((a) => a.name);
    const presetParam = url.searchParams.get("preset");
    const suggestion = suggestFields(attributeNames, integration, presetParam);
    const saved = connection.mapping?.object === source.object ? connection.mapping : null;
    const fromDraft = draft?.object === source.object ? draft : null;
    const chosen = presetParam ? suggestion.fields : (fromDraft?.fields ?? saved?.fields ?? suggestion.fields);
    const fields = Object.fromEntries(Object.entries(chosen).filter(([, a]) => attributeNames.includes(a)));
    const values = await loadValueMaps(connector, source.object, fields);
    const valueMaps = {
      lineOfBusiness: { ...values.suggested.lineOfBusiness, ...saved?.valueMaps.lineOfBusiness, ...fromDraft?.valueMaps.lineOfBusiness },
      status: { ...values.suggested.status, ...saved?.valueMaps.status, ...fromDraft?.valueMaps.status },
    };
    const mapping: ConnectionMapping = {
      object: source.object,
      fields,
      valueMaps,
      preset: presetParam ?? saved?.preset ?? suggestion.preset,
      identityRule: fromDraft?.identityRule ?? saved?.identityRule ?? "newest",
    };
    const scan = await scanSource(connector, mapping, { limit: integration.source === "api" ? 2_000 : PREVIEW_SCAN_LIMIT });
    const browse = url.searchParams.get("values");
    const browsed =
      browse && attributeNames.includes(browse)
        ? { attribute: browse, values: await connector.listValues(source.object, browse, 50) }
        : null;
    return {
      ...base,
      error: null,
      source,
      mapping,
      suggested: suggestion.fields,
      missing: missingRequiredFields(fields),
      lobValues: values.lobValues,
      statusValues: values.statusValues,
      scan: { ...scan, filterValues: undefined },
      browsed,
    };
  } catch (error) {
    log.warn({ area: "mapping", connectionId: connection.id, err: describeError(error) }, "could not read the source's fields");
    return { ...base, error: error instanceof Error ? error.message : "The source could not be read." };
  }
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { ctx, connection, integration } = await requireWizardStep(request, context, params.connectionId, "CONNECTION_MAPPING");
  const formData = await request.formData();
  const intent = formData.get("intent");
  const draft = readDraft(formData);
  const here = `/configure-integration/configuration/${connection.id}`;
  if (intent === "reset") {
    await saveConnectionState(ctx, connection, "mapping", null);
    return redirect(here);
  }
  // Seed connections/state/save: whatever was chosen is kept at once, so a closed tab resumes it.
  await saveConnectionState(ctx, connection, "mapping", draft);
  if (intent === DRAFT_INTENT) return { saved: true };
  if (intent !== "save") return redirect(here);

  const submission = parseWithZod(formData, { schema: SaveSchema });
  if (submission.status !== "success") return replyInvalid(submission);
  return applyFormOnce(request, formData, async () => {
    const connector = connectorOf(ctx, connection);
    const mapping: ConnectionMapping = { ...draft, preset: connection.mapping?.preset ?? integration.preset };
    const scan = await scanSource(connector, mapping, { previewSize: 0, invalidSamples: 0 });
    await saveMapping(ctx, connection, mapping, { producers: scan.producers, csrs: scan.csrs });
    // API sources list their own people (seed appliedepic/qqcatalyst employee-accounts).
    if (connector.listEmployeeAccounts) {
      const people = await connector.listEmployeeAccounts().catch(() => []);
      await upsertPeople(ctx.db, ctx.tenantId, connection.id, { producers: people.map((p) => p.name), csrs: [] });
    }
    return redirect(stepRoute("PREDICTION_SETTING", connection.id, connection.integrationId));
  });
}

/** A draft autosave changes nothing on the page: don't re-read the source for it (root and _app skip it too). */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  !isDraftAutosave(formData) && defaultShouldRevalidate;

export default function MappingPage() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const fetcher = useFetcher();
  const { connection } = loaderData;
  // A refused save; the draft autosave answers `{ saved }`, which is no form's result.
  const [form, fields] = useForm({
    id: "mapping",
    lastResult: resultFor(actionData && "initialValue" in actionData ? actionData : undefined, { intent: "save" }),
  });
  const progress = (
    <WizardProgress
      current="CONNECTION_MAPPING"
      reached={connection.step}
      connectionId={connection.id}
      integrationId={connection.integrationId}
    />
  );
  if (!("source" in loaderData) || loaderData.error !== null) {
    return (
      <WizardPage title="Mapping" connectionName={connection.name} progress={progress}>
        <Notice tone="error">
          The source could not be read: {loaderData.error}.{" "}
          <Link to={stepRoute("CONNECTION_SETTING", connection.id, connection.integrationId)} className="font-semibold underline">
            Check the connection
          </Link>
        </Notice>
      </WizardPage>
    );
  }
  const { source, mapping, suggested, missing, lobValues, statusValues, scan, browsed, presets } = loaderData;
  const groups = [
    { id: "customer", title: "Customer" },
    { id: "people", title: "Producer and CSR" },
    { id: "policy", title: "Policy" },
  ] as const;
  return (
    <WizardPage title="Mapping" connectionName={connection.name} progress={progress}>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Match the columns of <strong>{source.objects.find((o) => o.name === source.object)?.label ?? source.object}</strong> to Remarket’s
        fields. Suggestions are filled in; check the preview below before you continue.
      </p>
      <div className="flex flex-wrap items-end gap-4">
        {source.objects.length > 1 ? (
          <Form method="get" className="flex flex-wrap items-end gap-2">
            <label className="text-sm">
              <span className="block font-medium">Object</span>
              <select name="object" defaultValue={source.object} className="mt-1 rounded-md px-2 py-1.5 text-sm ring-1 ring-slate-300">
                {source.objects.map((o) => (
                  <option key={o.name} value={o.name}>
                    {o.label}
                  </option>
                ))}
              </select>
            </label>
            <Button type="submit" variant="secondary">
              Use object
            </Button>
          </Form>
        ) : null}
        <Form method="get" className="flex min-w-0 max-w-full flex-wrap items-end gap-2">
          <input type="hidden" name="object" value={source.object} />
          <label className="min-w-0 max-w-full text-sm">
            <span className="block font-medium">Preset</span>
            <select
              name="preset"
              defaultValue={mapping.preset ?? ""}
              className="mt-1 max-w-full rounded-md px-2 py-1.5 text-sm ring-1 ring-slate-300"
            >
              {presets.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.label}
                </option>
              ))}
            </select>
          </label>
          <Button type="submit" variant="secondary">
            Apply preset
          </Button>
        </Form>
      </div>

      {form.errors ? <Notice tone="error">{form.errors.join(" ")}</Notice> : null}

      <PostForm
        {...getFormProps(form)}
        className="space-y-6"
        onChange={(event) => {
          // With JavaScript every change is saved as a draft at once (seed connections/state/save).
          const form = event.currentTarget;
          const body = new FormData(form);
          body.set("intent", DRAFT_INTENT);
          fetcher.submit(body, { method: "post" });
        }}
      >
        <input type="hidden" name="object" value={source.object} />
        {groups.map((g) => (
          <fieldset key={g.id} className="rounded-lg bg-white p-4 ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
            <legend className="px-1 font-semibold">{g.title}</legend>
            <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
              {CANONICAL_FIELDS.filter((f) => f.group === g.id).map((f) => (
                <label key={f.key} className="block text-sm">
                  <span className="font-medium">
                    {f.label}
                    {f.required ? <span className="text-red-600"> *</span> : null}
                    {mapping.fields[f.key] && mapping.fields[f.key] === suggested[f.key] ? (
                      <AlertPill tone="success" className="ml-2">
                        suggested
                      </AlertPill>
                    ) : null}
                  </span>
                  <select
                    name={`field:${f.key}`}
                    defaultValue={mapping.fields[f.key] ?? ""}
                    aria-invalid={missing.includes(f.key) || Boolean(fields[`field:${f.key}`].errors) || undefined}
                    className="mt-1 block w-full rounded-md px-2 py-1.5 text-sm ring-1 ring-slate-300 aria-[invalid]:ring-red-500 dark:bg-slate-900"
                  >
                    <option value="">— not mapped —</option>
                    {source.attributes.map((a) => (
                      <option key={a.name} value={a.name}>
                        {a.label === a.name ? a.name : `${a.label} (${a.name})`}
                      </option>
                    ))}
                  </select>
                </label>
              ))}
            </div>
          </fieldset>
        ))}
        {missing.length > 0 ? <Notice tone="warning">Required and not mapped yet: {missing.map(fieldLabel).join(", ")}.</Notice> : null}

        <ValueMapSection
          title="Lines of business"
          prefix="lob"
          values={lobValues}
          chosen={mapping.valueMaps.lineOfBusiness}
          options={LINES_OF_BUSINESS.map((l) => ({ value: l, label: `${l} — ${LOB_LABELS[l]}` }))}
        />
        <ValueMapSection
          title="Policy statuses"
          prefix="status"
          values={statusValues}
          chosen={mapping.valueMaps.status}
          options={POLICY_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
        />

        <section aria-labelledby="preview-title" className="space-y-2">
          <div className="flex items-center justify-between">
            <h2 id="preview-title" className="text-lg font-semibold">
              Preview
            </h2>
            <Button
              type="submit"
              name="intent"
              value="preview"
              variant="secondary"
              pending={navigation.formData?.get("intent") === "preview"}
            >
              Update preview
            </Button>
          </div>
          <p className="text-sm" data-testid="preview-counts">
            <strong>{scan.valid}</strong> valid and <strong>{scan.invalid}</strong> invalid rows
            {scan.truncated ? ` in the first ${formatCount(scan.scanned, "row")}` : ` (${formatCount(scan.scanned, "row")})`}.
          </p>
          <div className="overflow-x-auto">
            <table className="w-full text-left text-xs">
              <thead className="border-b border-slate-200 text-slate-500">
                <tr>
                  {["Row", "Customer", "State", "Policy #", "Line", "Carrier", "Effective", "Expires", "Premium", "Status"].map((h) => (
                    <th key={h} className="px-2 py-1">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {scan.preview.map((r) => (
                  <tr key={r.rowNumber} className="border-b border-slate-100 dark:border-slate-800">
                    <td className="px-2 py-1">{r.rowNumber}</td>
                    <td className="px-2 py-1">{r.customer.name}</td>
                    <td className="px-2 py-1">{r.customer.state}</td>
                    <td className="px-2 py-1">{r.policy.policyNumber}</td>
                    <td className="px-2 py-1">{r.policy.lineOfBusiness}</td>
                    <td className="px-2 py-1">{r.policy.carrierName}</td>
                    <td className="whitespace-nowrap px-2 py-1">{formatDate(r.policy.effectiveDate)}</td>
                    <td className="whitespace-nowrap px-2 py-1">{formatDate(r.policy.expirationDate)}</td>
                    <td className="px-2 py-1">{formatMoney(r.policy.premium, 2)}</td>
                    <td className="px-2 py-1">{STATUS_LABELS[r.policy.status]}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <IdentityConflicts conflicts={scan.identityConflicts} total={scan.identityConflictCount} />
          <IdentityRuleChoice rule={mapping.identityRule ?? "newest"} conflicts={scan.identityConflictCount} />
          {scan.expiredActive.count > 0 ? (
            <p
              className="rounded border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950"
              data-testid="expired-active"
            >
              {expiredActiveWarning(scan.expiredActive)}
            </p>
          ) : null}
          {scan.invalidRows.length > 0 ? (
            <details className="text-sm">
              <summary className="cursor-pointer font-medium">Why rows are invalid ({scan.invalidRows.length} shown)</summary>
              <ul className="mt-2 space-y-1" data-testid="invalid-rows">
                {scan.invalidRows.map((r) => (
                  <li key={r.rowNumber}>
                    Row {r.rowNumber}: {r.reasons.join("; ")}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
        </section>

        <WizardActions
          backTo={stepRoute("CONNECTION_SETTING", connection.id, connection.integrationId)}
          next={stepRoute("PREDICTION_SETTING", connection.id, connection.integrationId)}
          pending={navigation.formData?.get("intent") === "save"}
        />
      </PostForm>

      <section aria-labelledby="browse-title" className="space-y-2 rounded-lg bg-slate-50 p-4 dark:bg-slate-900">
        <h2 id="browse-title" className="font-semibold">
          Browse a column’s values
        </h2>
        <Form method="get" className="flex min-w-0 max-w-full flex-wrap items-end gap-2">
          <input type="hidden" name="object" value={source.object} />
          <select
            name="values"
            defaultValue={browsed?.attribute ?? ""}
            aria-label="Column"
            className="rounded-md px-2 py-1.5 text-sm ring-1 ring-slate-300"
          >
            {source.attributes.map((a) => (
              <option key={a.name} value={a.name}>
                {a.label}
              </option>
            ))}
          </select>
          <Button type="submit" variant="secondary">
            Show values
          </Button>
        </Form>
        {browsed ? (
          <ul className="grid gap-x-6 text-sm sm:grid-cols-3">
            {browsed.values.map((v) => (
              <li key={v.value}>
                {v.value || <em>(blank)</em>} <span className="text-slate-500">× {v.count}</span>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
    </WizardPage>
  );
}

function ValueMapSection({
  title,
  prefix,
  values,
  chosen,
  options,
}: {
  title: string;
  prefix: string;
  values: { value: string; count: number }[];
  chosen: Record<string, string>;
  options: { value: string; label: string }[];
}) {
  if (values.length === 0) return null;
  return (
    <fieldset className="rounded-lg bg-white p-4 ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
      <legend className="px-1 font-semibold">{title}: value mapping</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {values.map((v, i) => (
          <label key={v.value} className="flex items-center justify-between gap-2 text-sm">
            <span>
              {v.value} <span className="text-slate-500">× {v.count}</span>
            </span>
            <input type="hidden" name={`${prefix}Value:${i}`} value={v.value} />
            <select
              name={`${prefix}:${i}`}
              defaultValue={chosen[v.value] ?? ""}
              className="rounded-md px-2 py-1 text-sm ring-1 ring-slate-300 dark:bg-slate-900"
            >
              {options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/error-page";

/** "2 policies are marked Active but expired before today (rows 2, 5). They are imported, …". */
function expiredActiveWarning({ count, rows }: { count: number; rows: number[] }) {
  const one = count === 1;
  const where = `${one ? "row" : "rows"} ${rows.join(", ")}${count > rows.length ? ", …" : ""}`;
  return (
    `${formatCount(count, "policy", "policies")} ${one ? "is" : "are"} marked Active but expired before today (${where}). ` +
    `${one ? "It is" : "They are"} imported as ${one ? "it is" : "they are"}, but ${one ? "its" : "their"} renewal date has passed, so the ` +
    `worklist will not show ${one ? "it" : "them"}: check whether the source missed a renewal or a cancellation.`
  );
}
