import { getFormProps, getInputProps, getSelectProps, useServerForm } from "~/components/server-form";
import { parseWithZod } from "@conform-to/zod/v4";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { PostForm, resultFor, useFormId } from "~/components/forms";
import { Notice } from "~/components/ui/alert-pill";
import { Button } from "~/components/ui/button";
import { ErrorList } from "~/components/ui/field";
import { WizardActions, WizardPage, WizardProgress } from "~/components/wizard";
import { addTaskOption, listTaskOptions, markStepSaved, removeTaskOption } from "~/services/connections/connections.server";
import { getTaskCreationSetting, saveTaskCreationSetting } from "~/services/connections/task-settings.server";
import { applyFormOnce } from "~/utils/forms.server";
import { taskSettingSchema, toTaskCreationSetting } from "~/utils/setup-step-forms";
import { stepRoute } from "~/utils/setup-steps";
import { replyInvalid, replyWithServiceError } from "~/utils/submission.server";
import { requireWizardStep } from "~/utils/wizard.server";
import { singleLineText } from "~/utils/schemas";

export const meta: MetaFunction = () => [{ title: "Task creation | Remarket" }];

const KINDS = ["employee", "activity_code", "work_group"] as const;

const settingSchema = (employeeIds: string[]) => taskSettingSchema(employeeIds, { intent: z.literal("save") });

const AddSchema = z.object({
  intent: z.literal("add"),
  kind: z.enum(KINDS),
  code: singleLineText().max(50).optional(),
  label: singleLineText({ error: "Enter a name." }).min(1, "Enter a name.").max(100),
  email: z.string().trim().email("Enter a valid e-mail address.").optional(),
});
const RemoveSchema = z.object({ intent: z.literal("remove"), kind: z.enum(KINDS), id: z.string().uuid() });

const actionSchema = (employeeIds: string[]) => z.discriminatedUnion("intent", [settingSchema(employeeIds), AddSchema, RemoveSchema]);

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { ctx, connection } = await requireWizardStep(request, context, params.connectionId, "TASK_CREATION");
  const [setting, options] = await Promise.all([getTaskCreationSetting(ctx, connection.id), listTaskOptions(ctx, connection)]);
  return {
    connection: { id: connection.id, name: connection.name, step: connection.step, integrationId: connection.integrationId },
    setting,
    ...options,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { ctx, connection } = await requireWizardStep(request, context, params.connectionId, "TASK_CREATION");
  const formData = await request.formData();
  const { employees } = await listTaskOptions(ctx, connection);
  const submission = parseWithZod(formData, { schema: actionSchema(employees.map((e) => e.id)) });
  if (submission.status !== "success") {
    // Remove is a button with hidden fields: nothing typed to show again.
    if (formData.get("intent") === "remove") throw new Response("Bad request", { status: 400 });
    return replyInvalid(submission);
  }
  const input = submission.value;
  const here = `/configure-integration/task-creation/${connection.id}`;
  try {
    return await applyFormOnce(request, formData, async () => {
      if (input.intent === "add") {
        await addTaskOption(ctx, connection, {
          kind: input.kind,
          code: input.code || input.label,
          label: input.label,
          email: input.email || null,
        });
        return redirect(here);
      }
      if (input.intent === "remove") {
        await removeTaskOption(ctx, connection, input);
        return redirect(here);
      }
      await saveTaskCreationSetting(ctx, connection.id, toTaskCreationSetting(input));
      await markStepSaved(ctx, connection, "FILTER_OPTIONS");
      return redirect(stepRoute("FILTER_OPTIONS", connection.id, connection.integrationId));
    });
  } catch (error) {
    return replyWithServiceError(submission, error);
  }
}

const select = "mt-1 block w-full rounded-md px-2 py-1.5 text-sm ring-1 ring-slate-300 aria-[invalid]:ring-red-500 dark:bg-slate-900";

export default function TaskCreationPage() {
  const { connection, setting, employees, activityCodes, workGroups } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const [form, fields] = useServerForm({
    id: "task-creation",
    lastResult: resultFor(useActionData<typeof action>(), { intent: "save" }),
    defaultValue: {
      enabled: setting.enabled ? "on" : "",
      assigneeRule: setting.assigneeRule,
      fixedEmployeeAccountId: setting.fixedEmployeeAccountId ?? "",
      activityCode: setting.activityCode ?? "",
      workGroup: setting.workGroup ?? "",
      dueDaysBeforeExpiration: String(setting.dueDaysBeforeExpiration),
    },
  });
  return (
    <WizardPage
      title="Task creation"
      connectionName={connection.name}
      progress={
        <WizardProgress
          current="TASK_CREATION"
          reached={connection.step}
          connectionId={connection.id}
          integrationId={connection.integrationId}
        />
      }
    >
      <p className="text-sm text-slate-600 dark:text-slate-300">What happens when someone re-markets a policy from this connection.</p>
      <PostForm
        {...getFormProps(form)}
        className="space-y-4 rounded-lg bg-white p-4 ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800"
      >
        <label className="flex items-center gap-2 text-sm font-medium">
          <input {...getInputProps(fields.enabled, { type: "checkbox" })} />
          Create a task when a policy is re-marketed
        </label>
        <fieldset className="text-sm">
          <legend className="font-medium">Assign the task to</legend>
          <div className="mt-1 flex flex-wrap gap-4">
            {(
              [
                ["producer", "The policy’s producer"],
                ["csr", "The policy’s CSR"],
                ["fixed", "A fixed employee"],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="flex items-center gap-2">
                <input {...getInputProps(fields.assigneeRule, { type: "radio", value })} id={`${fields.assigneeRule.id}-${value}`} />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <label className="text-sm">
            <span className="font-medium">Fixed employee</span>
            <select {...getSelectProps(fields.fixedEmployeeAccountId)} className={select}>
              <option value="">—</option>
              {employees.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.name}
                  {e.role ? ` (${e.role})` : ""}
                </option>
              ))}
            </select>
            <FieldError id={fields.fixedEmployeeAccountId.errorId} errors={fields.fixedEmployeeAccountId.errors} />
          </label>
          <CodeSelect label="Activity code" props={getSelectProps(fields.activityCode)} options={activityCodes} />
          <CodeSelect label="Work group" props={getSelectProps(fields.workGroup)} options={workGroups} />
          <label className="text-sm">
            <span className="font-medium">Due days before expiration</span>
            <input {...getInputProps(fields.dueDaysBeforeExpiration, { type: "text" })} inputMode="numeric" className={select} />
            <FieldError id={fields.dueDaysBeforeExpiration.errorId} errors={fields.dueDaysBeforeExpiration.errors} />
          </label>
        </div>
        {fields.assigneeRule.errors ? <Notice tone="error">{fields.assigneeRule.errors[0]}</Notice> : null}
        <WizardActions
          backTo={stepRoute("PREDICTION_SETTING", connection.id, connection.integrationId)}
          next={stepRoute("FILTER_OPTIONS", connection.id, connection.integrationId)}
          pending={navigation.formData?.get("intent") === "save"}
        />
      </PostForm>

      <div className="grid gap-4 md:grid-cols-3">
        <OptionList
          title="Employee accounts"
          kind="employee"
          items={employees.map((e) => ({ id: e.id, text: `${e.name}${e.email ? ` <${e.email}>` : ""}` }))}
          withEmail
        />
        <OptionList
          title="Activity codes"
          kind="activity_code"
          items={activityCodes.map((o) => ({ id: o.id, text: `${o.code} — ${o.label}` }))}
          withCode
        />
        <OptionList
          title="Work groups"
          kind="work_group"
          items={workGroups.map((o) => ({ id: o.id, text: `${o.code} — ${o.label}` }))}
          withCode
        />
      </div>
    </WizardPage>
  );
}

function FieldError({ id, errors }: { id: string; errors?: string[] }) {
  return errors ? (
    <span id={id} className="text-red-600">
      {errors[0]}
    </span>
  ) : null;
}

/** A coded list from the connector (activity codes, work groups), with "—" for none. */
function CodeSelect({
  label,
  props,
  options,
}: {
  label: string;
  props: ReturnType<typeof getSelectProps>;
  options: { id: string; code: string; label: string }[];
}) {
  return (
    <label className="text-sm">
      <span className="font-medium">{label}</span>
      <select {...props} className={select}>
        <option value="">—</option>
        {options.map((o) => (
          <option key={o.id} value={o.code}>
            {o.code} — {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A connector list kept by hand: remove an entry, or add one (its refused input comes back with the message). */
function OptionList({
  title,
  kind,
  items,
  withEmail,
  withCode,
}: {
  title: string;
  kind: (typeof KINDS)[number];
  items: { id: string; text: string }[];
  withEmail?: boolean;
  withCode?: boolean;
}) {
  const actionData = useActionData<typeof action>();
  const [form, fields] = useServerForm({
    id: useFormId(`add-${kind}`, actionData),
    lastResult: resultFor(actionData, { intent: "add", kind }),
    defaultValue: { code: "", label: "", email: "" },
  });
  const input = "block w-full rounded-md px-2 py-1 text-sm ring-1 ring-slate-300 dark:bg-slate-900";
  return (
    <section className="space-y-2 rounded-lg bg-slate-50 p-3 text-sm dark:bg-slate-900">
      <h2 className="font-semibold">{title}</h2>
      <ul className="max-h-56 space-y-1 overflow-y-auto">
        {items.map((item) => (
          <li key={item.id} className="flex items-center justify-between gap-2">
            <span>{item.text}</span>
            <PostForm>
              <input type="hidden" name="kind" value={kind} />
              <input type="hidden" name="id" value={item.id} />
              <button
                type="submit"
                name="intent"
                value="remove"
                className="text-xs text-red-700 hover:underline"
                aria-label={`Remove ${item.text}`}
              >
                Remove
              </button>
            </PostForm>
          </li>
        ))}
      </ul>
      <PostForm {...getFormProps(form)} className="space-y-1">
        <input type="hidden" name="kind" value={kind} />
        {withCode ? (
          <input {...getInputProps(fields.code, { type: "text" })} placeholder="Code" aria-label={`${title}: code`} className={input} />
        ) : null}
        <input
          {...getInputProps(fields.label, { type: "text" })}
          placeholder={withCode ? "Description" : "Name"}
          aria-label={`${title}: name`}
          className={input}
        />
        {withEmail ? (
          <input
            {...getInputProps(fields.email, { type: "email" })}
            placeholder="E-mail (optional)"
            aria-label={`${title}: e-mail`}
            className={input}
          />
        ) : null}
        <ErrorList id={form.errorId} errors={form.errors} />
        <ErrorList id={fields.code.errorId} errors={fields.code.errors} />
        <ErrorList id={fields.label.errorId} errors={fields.label.errors} />
        <ErrorList id={fields.email.errorId} errors={fields.email.errors} />
        <Button type="submit" name="intent" value="add" variant="secondary">
          Add
        </Button>
      </PostForm>
    </section>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/error-page";
