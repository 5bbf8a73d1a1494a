import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { PostForm, Notice, Button } from "~/components/shell";
import { ErrorList, Field, SelectField } from "~/components/ui/field";
import { WizardActions, WizardPage, WizardProgress } from "~/components/wizard";
import {
  getConnection,
  listParentCandidates,
  saveConnectionSettings,
  testConnectionSettings,
} from "~/services/connections/connections.server";
import { isServiceError } from "~/services/platform/errors.server";
import { startImport } from "~/services/connections/imports.server";
import { connectionSummary } from "~/services/connections/connection-summary.server";
import { requireAdmin } from "~/utils/auth.server";
import { applyFormOnce } from "~/utils/forms.server";
import { defaultConnectionName, getIntegration, type Integration } from "~/utils/integrations";
import { calendarDate } from "~/services/renewals/forecast.server";
import { editStepRoute, stepRoute } from "~/utils/setup-steps";
import { replyWithServiceError } from "~/utils/submission.server";
import { redirectWithToast } from "~/utils/toast.server";
import { previousUpload, readExportUpload } from "~/utils/export-upload.server";
import { orNotFound } from "~/utils/wizard.server";
import { singleLineText } from "~/utils/schemas";

export const meta: MetaFunction = () => [{ title: "Create connection | Remarket" }];

const SYNC_INTERVALS = [
  { value: "6", label: "Every 6 hours" },
  { value: "12", label: "Every 12 hours" },
  { value: "24", label: "Daily" },
  { value: "168", label: "Weekly" },
];

function settingsSchema(integration: Integration) {
  const credentials = Object.fromEntries(integration.credentials.map((f) => [f.name, singleLineText().max(2000).optional()]));
  return z.object({
    intent: z.enum(["save", "test"]),
    name: singleLineText({ error: "Name the connection." }).min(1, "Name the connection.").max(100, "Use at most 100 characters."),
    parentConnectionId: z.string().uuid().optional(),
    syncIntervalHours: z.coerce.number().int().min(1).max(720).optional(),
    ...credentials,
  });
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const ctx = await requireAdmin(request, context);
  const url = new URL(request.url);
  const connection = params.connectionId ? await orNotFound(getConnection(ctx, params.connectionId)) : null;
  const integration = getIntegration(connection?.integrationId ?? url.searchParams.get("integrationId"));
  if (!integration) throw redirect("/integration-setup");
  const summary = connection?.step === "COMPLETED" && url.searchParams.get("edit") !== "1";
  return {
    integration,
    connection: connection
      ? {
          id: connection.id,
          name: connection.name,
          step: connection.step,
          status: connection.status,
          fileName: connection.fileName,
          settings: connection.settings,
          hasSecrets: Boolean(connection.credentialsSealed),
          parentConnectionId: connection.parentConnectionId,
          syncIntervalHours: connection.syncIntervalHours,
        }
      : null,
    defaultName: defaultConnectionName(integration, calendarDate(new Date(), ctx.auth.tenant.timeZone)),
    parents: integration.kind === "crm" ? await listParentCandidates(ctx, connection?.id) : [],
    summary: summary && connection ? await connectionSummary(ctx, connection) : null,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const ctx = await requireAdmin(request, context);
  const existing = params.connectionId ? await orNotFound(getConnection(ctx, params.connectionId)) : null;
  const upload = await readExportUpload(request, ctx.tenantId);
  const formData = upload.formData;

  if (formData.get("intent") === "start-import") {
    if (!existing) throw new Response("Not found", { status: 404 });
    return applyFormOnce(request, formData, async () => {
      try {
        await startImport(ctx, existing.id);
      } catch (error) {
        if (!isServiceError(error)) throw error;
        return redirectWithToast(stepRoute("COMPLETED", existing.id, existing.integrationId), {
          type: "error",
          title: "Import not started",
          message: error.message,
        });
      }
      return redirectWithToast(`/connect-database/${existing.id}`, {
        type: "success",
        title: "Import started",
        message: "Progress shows on this page.",
      });
    });
  }

  const integration = getIntegration(existing?.integrationId ?? new URL(request.url).searchParams.get("integrationId"));
  if (!integration) throw new Response("Not found", { status: 404 });
  const secretFields = integration.credentials.filter((f) => f.secret).map((f) => f.name);
  const submission = parseWithZod(formData, { schema: settingsSchema(integration) });
  const file = upload.file ?? (await previousUpload(formData, ctx.tenantId));
  const uploaded = file ? { key: file.key, name: file.name } : null;
  if (upload.error) {
    return data(
      { result: submission.reply({ fieldErrors: { file: [upload.error] }, hideFields: secretFields }), uploaded, test: null },
      { status: 400 },
    );
  }
  if (submission.status !== "success")
    return data({ result: submission.reply({ hideFields: secretFields }), uploaded, test: null }, { status: 400 });

  const { intent, name, parentConnectionId, syncIntervalHours, ...rest } = submission.value as Record<
    string,
    string | number | undefined
  > & {
    intent: "save" | "test";
    name: string;
  };
  const input = {
    integrationId: integration.id,
    name,
    credentials: Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, String(v ?? "")])),
    file,
    parentConnectionId: (parentConnectionId as string | undefined) ?? null,
    syncIntervalHours: syncIntervalHours as number | undefined,
  };
  try {
    if (intent === "test") {
      const test = await testConnectionSettings(ctx, existing?.id ?? null, input);
      return data({ result: submission.reply({ hideFields: secretFields }), uploaded, test });
    }
    return await applyFormOnce(request, formData, async () => {
      const saved = await saveConnectionSettings(ctx, existing?.id ?? null, input);
      return redirect(stepRoute("CONNECTION_MAPPING", saved.id, saved.integrationId));
    });
  } catch (error) {
    if (error instanceof Response) throw error;
    const reply = replyWithServiceError(submission, error, secretFields);
    return data({ result: reply.data, uploaded, test: null }, { status: reply.init?.status ?? 400 });
  }
}

export default function CreateConnectionPage() {
  const { integration, connection, summary } = useLoaderData<typeof loader>();
  const progress = (
    <WizardProgress
      current={summary ? "COMPLETED" : "CONNECTION_SETTING"}
      reached={connection?.step ?? "CONNECTION_SETTING"}
      connectionId={connection?.id ?? null}
      integrationId={integration.id}
    />
  );
  if (summary && connection) {
    return (
      <WizardPage title="Summary" connectionName={connection.name} progress={progress}>
        <Summary />
      </WizardPage>
    );
  }
  return (
    <WizardPage
      title={connection ? `Connection: ${integration.name}` : `Connect ${integration.name}`}
      connectionName={connection?.name}
      progress={progress}
    >
      <SettingsForm />
    </WizardPage>
  );
}

function SettingsForm() {
  const { integration, connection, parents, defaultName } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "connection-settings",
    lastResult: actionData && "result" in actionData ? actionData.result : undefined,
    defaultValue: {
      name: connection?.name ?? defaultName,
      ...integration.credentials.reduce<Record<string, string>>((acc, f) => {
        if (!f.secret) acc[f.name] = connection?.settings[f.name] ?? f.defaultValue ?? "";
        return acc;
      }, {}),
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: settingsSchema(integration) }),
    shouldRevalidate: "onInput",
  });
  const uploaded = actionData && "uploaded" in actionData ? actionData.uploaded : null;
  const test = actionData && "test" in actionData ? actionData.test : null;
  const isFile = integration.source === "file";
  const fieldErrors = form.allErrors as Record<string, string[] | undefined>;
  return (
    <PostForm {...getFormProps(form)} encType={isFile ? "multipart/form-data" : undefined} className="space-y-5" replace>
      <ErrorList id={form.errorId} errors={form.errors} />
      <Field label="Connection name" {...getInputProps(fields.name, { type: "text" })} id={fields.name.id} errors={fields.name.errors} />
      {isFile ? (
        <div className="space-y-2">
          <label htmlFor="file" className="block text-sm font-medium text-slate-700 dark:text-slate-200">
            Export file (.csv or .xlsx)
          </label>
          <input
            id="file"
            name="file"
            type="file"
            accept=".csv,.xlsx,.txt,.tsv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            className="block text-sm"
            aria-describedby="file-help"
          />
          {uploaded ? (
            <>
              <input type="hidden" name="uploadedKey" value={uploaded.key} />
              <input type="hidden" name="uploadedName" value={uploaded.name} />
            </>
          ) : null}
          <p id="file-help" className="text-xs text-slate-500">
            {uploaded
              ? `${uploaded.name} is uploaded. Choose another file to replace it.`
              : connection?.fileName
                ? `Current file: ${connection.fileName}. Choose a file only to replace it.`
                : "Export your book of business (customers and policies) from your system."}{" "}
            <a href="/integrations/ezlynx/sample-csv" download className="font-semibold text-brand-600 hover:underline">
              Download the sample CSV
            </a>{" "}
            (EZLynx-style export) to see the expected columns.
          </p>
          <ErrorList id="file-error" errors={fieldErrors.file} />
        </div>
      ) : null}
      {integration.credentials.map((f) => (
        <Field
          key={f.name}
          id={`credential-${f.name}`}
          name={f.name}
          label={f.label}
          type={f.secret ? "password" : "text"}
          autoComplete={f.secret ? "new-password" : "off"}
          // Secrets are never sent back to the browser: the form shows only that one is saved.
          defaultValue={f.secret ? "" : (connection?.settings[f.name] ?? f.defaultValue ?? "")}
          placeholder={f.secret && connection?.hasSecrets ? "Saved: leave blank to keep" : f.placeholder}
          errors={fieldErrors[f.name]}
        />
      ))}
      {integration.source === "api" ? (
        <SelectField
          id="syncIntervalHours"
          name="syncIntervalHours"
          label="Re-sync"
          defaultValue={String(connection?.syncIntervalHours ?? 24)}
          options={SYNC_INTERVALS}
        />
      ) : null}
      {integration.kind === "crm" && parents.length > 0 ? (
        <SelectField
          id="parentConnectionId"
          name="parentConnectionId"
          label="Attach to an agency management system connection (optional)"
          defaultValue={connection?.parentConnectionId ?? ""}
          defaultOption="Not attached"
          options={parents.map((p) => ({ value: p.id, label: p.name }))}
          errors={fieldErrors.parentConnectionId}
        />
      ) : null}
      {test ? (
        <Notice tone={test.ok ? "success" : "error"}>
          <span data-testid="test-result">{test.message}</span>
        </Notice>
      ) : null}
      <div className="flex items-center gap-3">
        <Button type="submit" name="intent" value="test" variant="secondary" pending={navigation.formData?.get("intent") === "test"}>
          Test connection
        </Button>
      </div>
      <WizardActions backTo={connection ? null : "/integration-setup"} pending={navigation.formData?.get("intent") === "save"} />
    </PostForm>
  );
}

function Summary() {
  const { integration, connection, summary } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  if (!summary || !connection) return null;
  const edit = (step: Parameters<typeof editStepRoute>[0]) => editStepRoute(step, connection.id, integration.id);
  const rows: { step: Parameters<typeof editStepRoute>[0]; title: string; lines: string[] }[] = [
    { step: "CONNECTION_SETTING", title: "Connection", lines: summary.connection },
    { step: "CONNECTION_MAPPING", title: "Mapping", lines: summary.mapping },
    { step: "PREDICTION_SETTING", title: "Prediction", lines: summary.prediction },
    { step: "TASK_CREATION", title: "Task creation", lines: summary.tasks },
    { step: "FILTER_OPTIONS", title: "Filter options", lines: summary.filters },
  ];
  return (
    <div className="space-y-6">
      <dl className="divide-y divide-slate-200 rounded-lg bg-white ring-1 ring-slate-200 dark:divide-slate-800 dark:bg-slate-900 dark:ring-slate-800">
        {rows.map((r) => (
          <div key={r.step} className="grid gap-2 px-4 py-3 sm:grid-cols-[12rem_1fr_auto]">
            <dt className="font-semibold">{r.title}</dt>
            <dd className="text-sm text-slate-600 dark:text-slate-300">
              {r.lines.map((l) => (
                <div key={l}>{l}</div>
              ))}
            </dd>
            <dd>
              <Link to={edit(r.step)} className="text-sm font-semibold text-brand-600 hover:underline" aria-label={`Edit ${r.title}`}>
                Edit
              </Link>
            </dd>
          </div>
        ))}
      </dl>
      {summary.activeRun ? (
        <Notice tone="neutral">
          An import is running.{" "}
          <Link to={`/connect-database/${connection.id}`} className="font-semibold underline">
            See its progress
          </Link>
          .
        </Notice>
      ) : (
        <PostForm className="flex items-center justify-between border-t border-slate-200 pt-4 dark:border-slate-700">
          <Link to={edit("FILTER_OPTIONS")} className="text-sm font-semibold hover:underline">
            ← Back
          </Link>
          <Button type="submit" name="intent" value="start-import" pending={navigation.state === "submitting"}>
            Start import
          </Button>
        </PostForm>
      )}
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
