import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { PostForm } from "~/components/forms";
import { Notice } from "~/components/ui/alert-pill";
import { Button } from "~/components/ui/button";
import { WizardActions, WizardPage, WizardProgress } from "~/components/wizard";
import { addTaskOption, listTaskOptions, markStepSaved, removeTaskOption } from "~/services/connections.server";
import { getTaskCreationSetting, saveTaskCreationSetting } from "~/services/task-settings.server";
import { applyFormOnce } from "~/utils/forms.server";
import { stepRoute } from "~/utils/setup-steps";
import { requireWizardStep } from "~/utils/wizard.server";

export const meta: MetaFunction = () => [{ title: "Task creation | Remarket" }];

const SettingSchema = z
  .object({
    enabled: z.literal("on").optional(),
    assigneeRule: z.enum(["producer", "csr", "fixed"], { error: "Choose who gets the task." }),
    fixedEmployeeAccountId: z.string().uuid().optional().or(z.literal("")),
    activityCode: z.string().trim().max(50).optional(),
    workGroup: z.string().trim().max(50).optional(),
    dueDaysBeforeExpiration: z.coerce.number({ error: "Enter a number of days." }).int("Use whole days.").min(0, "Use 0 or more.").max(365, "Use at most 365 days."),
  })
  .refine((v) => v.assigneeRule !== "fixed" || Boolean(v.fixedEmployeeAccountId), { message: "Choose the employee.", path: ["fixedEmployeeAccountId"] });

const AddSchema = z.object({
  intent: z.literal("add"),
  kind: z.enum(["employee", "activity_code", "work_group"]),
  code: z.string().trim().max(50).optional().default(""),
  label: z.string({ error: "Enter a name." }).trim().min(1, "Enter a name.").max(100),
  email: z.string().trim().email("Enter a valid e-mail address.").optional().or(z.literal("")),
});
const RemoveSchema = z.object({ intent: z.literal("remove"), kind: z.enum(["employee", "activity_code", "work_group"]), id: z.string().uuid() });

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
  const intent = formData.get("intent");
  const here = `/configure-integration/task-creation/${connection.id}`;
  if (intent === "add") {
    const parsed = AddSchema.safeParse(Object.fromEntries(formData));
    if (!parsed.success) return data({ errors: { [`add-${formData.get("kind")}`]: parsed.error.issues[0].message } as Record<string, string> }, { status: 400 });
    const { kind, code, label, email } = parsed.data;
    return applyFormOnce(request, formData, async () => {
      await addTaskOption(ctx, connection, { kind, code: code || label, label, email: email || null });
      return redirect(here);
    });
  }
  if (intent === "remove") {
    const parsed = RemoveSchema.safeParse(Object.fromEntries(formData));
    if (!parsed.success) throw new Response("Bad request", { status: 400 });
    return applyFormOnce(request, formData, async () => {
      await removeTaskOption(ctx, connection, parsed.data);
      return redirect(here);
    });
  }
  const parsed = SettingSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) {
    const errors = Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message]));
    return data({ errors }, { status: 400 });
  }
  const v = parsed.data;
  const options = await listTaskOptions(ctx, connection);
  if (v.fixedEmployeeAccountId && !options.employees.some((e) => e.id === v.fixedEmployeeAccountId)) {
    return data({ errors: { fixedEmployeeAccountId: "Choose one of the listed employees." } as Record<string, string> }, { status: 400 });
  }
  return applyFormOnce(request, formData, async () => {
    await saveTaskCreationSetting(ctx, connection.id, {
      enabled: v.enabled === "on",
      assigneeRule: v.assigneeRule,
      fixedEmployeeAccountId: v.assigneeRule === "fixed" ? v.fixedEmployeeAccountId || null : null,
      activityCode: v.activityCode || null,
      workGroup: v.workGroup || null,
      dueDaysBeforeExpiration: v.dueDaysBeforeExpiration,
    });
    await markStepSaved(ctx, connection, "FILTER_OPTIONS");
    return redirect(stepRoute("FILTER_OPTIONS", connection.id, connection.integrationId));
  });
}

const select = "mt-1 block w-full rounded-md px-2 py-1.5 text-sm ring-1 ring-slate-300 aria-[invalid]:ring-red-500 dark:bg-slate-900";

export default function TaskCreationPage() {
  const { connection, setting, employees, activityCodes, workGroups } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const errors: Record<string, string> = actionData?.errors ?? {};
  return (
    <WizardPage
      title="Task creation"
      connectionName={connection.name}
      progress={<WizardProgress current="TASK_CREATION" reached={connection.step} connectionId={connection.id} integrationId={connection.integrationId} />}
    >
      <p className="text-sm text-slate-600 dark:text-slate-300">What happens when someone re-markets a policy from this connection.</p>
      <PostForm className="space-y-4 rounded-lg bg-white p-4 ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
        <label className="flex items-center gap-2 text-sm font-medium">
          <input type="checkbox" name="enabled" defaultChecked={setting.enabled} />
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
                <input type="radio" name="assigneeRule" value={value} defaultChecked={setting.assigneeRule === value} />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <label className="text-sm">
            <span className="font-medium">Fixed employee</span>
            <select name="fixedEmployeeAccountId" defaultValue={setting.fixedEmployeeAccountId ?? ""} className={select} aria-invalid={errors.fixedEmployeeAccountId ? true : undefined}>
              <option value="">—</option>
              {employees.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.name}
                  {e.role ? ` (${e.role})` : ""}
                </option>
              ))}
            </select>
            {errors.fixedEmployeeAccountId ? <span className="text-red-600">{errors.fixedEmployeeAccountId}</span> : null}
          </label>
          <CodeSelect label="Activity code" name="activityCode" value={setting.activityCode} options={activityCodes} />
          <CodeSelect label="Work group" name="workGroup" value={setting.workGroup} options={workGroups} />
          <label className="text-sm">
            <span className="font-medium">Due days before expiration</span>
            <input name="dueDaysBeforeExpiration" inputMode="numeric" defaultValue={String(setting.dueDaysBeforeExpiration)} className={select} aria-invalid={errors.dueDaysBeforeExpiration ? true : undefined} />
            {errors.dueDaysBeforeExpiration ? <span className="text-red-600">{errors.dueDaysBeforeExpiration}</span> : null}
          </label>
        </div>
        {errors.assigneeRule ? <Notice tone="error">{errors.assigneeRule}</Notice> : null}
        <WizardActions backTo={stepRoute("PREDICTION_SETTING", connection.id, connection.integrationId)} pending={navigation.formData?.get("intent") === "save"} />
      </PostForm>

      <div className="grid gap-4 md:grid-cols-3">
        <OptionList title="Employee accounts" kind="employee" items={employees.map((e) => ({ id: e.id, text: `${e.name}${e.email ? ` <${e.email}>` : ""}` }))} error={errors["add-employee"]} withEmail />
        <OptionList title="Activity codes" kind="activity_code" items={activityCodes.map((o) => ({ id: o.id, text: `${o.code} — ${o.label}` }))} error={errors["add-activity_code"]} withCode />
        <OptionList title="Work groups" kind="work_group" items={workGroups.map((o) => ({ id: o.id, text: `${o.code} — ${o.label}` }))} error={errors["add-work_group"]} withCode />
      </div>
    </WizardPage>
  );
}

/** A coded list from the connector (activity codes, work groups), with "—" for none. */
function CodeSelect({ label, name, value, options }: { label: string; name: string; value: string | null; options: { id: string; code: string; label: string }[] }) {
  return (
    <label className="text-sm">
      <span className="font-medium">{label}</span>
      <select name={name} defaultValue={value ?? ""} className={select}>
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

function OptionList({ title, kind, items, error, withEmail, withCode }: { title: string; kind: string; items: { id: string; text: string }[]; error?: string; withEmail?: boolean; withCode?: boolean }) {
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
              <button type="submit" name="intent" value="remove" className="text-xs text-red-700 hover:underline" aria-label={`Remove ${item.text}`}>
                Remove
              </button>
            </PostForm>
          </li>
        ))}
      </ul>
      <PostForm className="space-y-1">
        <input type="hidden" name="kind" value={kind} />
        {withCode ? <input name="code" placeholder="Code" aria-label={`${title}: code`} className={input} /> : null}
        <input name="label" placeholder={withCode ? "Description" : "Name"} aria-label={`${title}: name`} className={input} />
        {withEmail ? <input name="email" type="email" placeholder="E-mail (optional)" aria-label={`${title}: e-mail`} className={input} /> : null}
        {error ? <p className="text-red-600">{error}</p> : null}
        <Button type="submit" name="intent" value="add" variant="secondary">
          Add
        </Button>
      </PostForm>
    </section>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/error-page";
