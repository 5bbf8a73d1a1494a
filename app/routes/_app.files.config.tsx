import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { PostForm, Button } from "~/components/shell";
import { Field, SelectField } from "~/components/ui/field";
import { listDomainConfigs, saveDomainConfig } from "~/services/files/file-config.server";
import { DATE_FORMATS, DELIMITERS, DELIMITER_LABELS, DomainConfigSchema, ENCODINGS, type DomainConfig } from "~/utils/file-options";
import { requireTenantContext } from "~/utils/auth.server";
import { applyFormOnce } from "~/utils/forms.server";
import { replyInvalid, replyWithServiceError } from "~/utils/submission.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "File parse settings | Remarket" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  return { configs: await listDomainConfigs(ctx), canEdit: ctx.role === "admin" };
}

/** Save one domain's parse options (seed POST files/config); admins only. */
export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: DomainConfigSchema });
  if (submission.status !== "success") return replyInvalid(submission);
  try {
    return await applyFormOnce(request, formData, async () => {
      await saveDomainConfig(ctx, submission.value);
      return redirectWithToast("/files/config", {
        type: "success",
        title: "Settings saved",
        message: `Files of the ${submission.value.domain} domain use the new settings from the next upload.`,
      });
    });
  } catch (error) {
    return replyWithServiceError(submission, error);
  }
}

export default function FileConfigPage() {
  const { configs, canEdit } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-6">
      <div>
        <Link to="/files" className="text-sm text-brand-600 hover:underline">
          ← Files
        </Link>
        <h1 className="mt-1 text-2xl font-bold">Parse settings per domain</h1>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          How processing reads CSV and Excel files of each data domain. {canEdit ? "" : "Only agency admins can change them."}
        </p>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        {configs.map((config) => (
          <DomainForm key={config.domain} config={config} canEdit={canEdit} />
        ))}
      </div>
    </div>
  );
}

function DomainForm({ config, canEdit }: { config: DomainConfig; canEdit: boolean }) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const mine = navigation.formData?.get("domain") === config.domain;
  const [form, fields] = useForm({
    id: `config-${config.domain}`,
    lastResult: actionData && "initialValue" in actionData && actionData.initialValue?.domain === config.domain ? actionData : undefined,
    defaultValue: { ...config, headerRow: String(config.headerRow) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: DomainConfigSchema }),
    shouldRevalidate: "onInput",
  });
  return (
    <PostForm
      {...getFormProps(form)}
      className="space-y-3 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800"
      aria-label={`${config.domain} settings`}
    >
      <h2 className="font-semibold capitalize">{config.domain}</h2>
      <input type="hidden" name="domain" value={config.domain} />
      <fieldset disabled={!canEdit} className="grid gap-3 sm:grid-cols-2">
        <SelectField
          {...getSelectProps(fields.delimiter)}
          id={`${config.domain}-delimiter`}
          label="Delimiter"
          errors={fields.delimiter.errors}
          options={DELIMITERS.map((d) => ({ value: d, label: DELIMITER_LABELS[d] }))}
        />
        <Field
          {...getInputProps(fields.headerRow, { type: "number" })}
          id={`${config.domain}-header-row`}
          label="Header row"
          hint="Rows above it are skipped; 0 means no header."
          errors={fields.headerRow.errors}
          min={0}
        />
        <SelectField
          {...getSelectProps(fields.dateFormat)}
          id={`${config.domain}-date-format`}
          label="Date format"
          errors={fields.dateFormat.errors}
          options={DATE_FORMATS.map((d) => ({ value: d, label: d === "auto" ? "Detect (US first)" : d }))}
        />
        <SelectField
          {...getSelectProps(fields.encoding)}
          id={`${config.domain}-encoding`}
          label="Encoding"
          errors={fields.encoding.errors}
          options={ENCODINGS.map((e) => ({ value: e, label: e === "auto" ? "Detect" : e }))}
        />
      </fieldset>
      {form.errors ? <p className="text-sm text-red-600">{form.errors.join(" ")}</p> : null}
      {canEdit ? (
        <Button type="submit" pending={mine && navigation.state !== "idle"}>
          Save {config.domain}
        </Button>
      ) : null}
    </PostForm>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
