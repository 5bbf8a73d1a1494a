import { getFormProps, getInputProps, useServerForm } from "~/components/server-form";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { z } from "zod";
import { PostForm, resultFor, useFormId, AlertPill, Button } from "~/components/shell";
import { getDb } from "~/db/client.server";
import {
  extendTrial,
  listStaffAudit,
  listTenantsWithBilling,
  setQuotaOverride,
  setTenantFlag,
} from "~/services/identity/staff-admin.server";
import { requireStaff } from "~/utils/auth.server";
import { KNOWN_FLAGS } from "~/utils/feature-flag-names";
import { applyFormOnce } from "~/utils/forms.server";
import { replyInvalid, replyWithServiceError } from "~/utils/submission.server";
import { redirectWithToast } from "~/utils/toast.server";
import { formatCount, formatDate, formatDateTime } from "~/utils/format";

export const meta: MetaFunction = () => [{ title: "Staff admin | Remarket" }];

const ActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("extend-trial"),
    tenantId: z.string().uuid(),
    days: z.coerce
      .number({ error: "Enter a number of days from 1 to 365." })
      .int("Enter whole days.")
      .min(1, "Enter a number of days from 1 to 365.")
      .max(365, "Enter a number of days from 1 to 365."),
  }),
  z.object({
    intent: z.literal("set-quota"),
    tenantId: z.string().uuid(),
    // Blank: back to the plan's quota.
    quota: z.preprocess(
      (v) => (v === "" || v === undefined ? null : v),
      z.coerce
        .number({ error: "Enter a quota of 0 or more, or leave it blank." })
        .int("Enter a whole number.")
        .min(0, "Enter a quota of 0 or more, or leave it blank.")
        .max(1_000_000, "That quota is too large.")
        .nullable(),
    ),
  }),
  z.object({
    intent: z.literal("set-flag"),
    tenantId: z.string().uuid(),
    flag: z.enum(KNOWN_FLAGS),
    value: z.enum(["on", "off", "default"]),
  }),
]);

/** Internal staff only (STAFF_EMAILS); everyone else gets a 404. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const db = await getDb();
  const [tenants, audit] = await Promise.all([listTenantsWithBilling(db), listStaffAudit(db)]);
  return {
    tenants: tenants.map((t) => ({
      ...t,
      createdAt: formatDate(t.createdAt, t.timeZone),
      // In the agency's own time zone, as its billing page shows it.
      trialEndsAt: t.trialEndsAt ? formatDate(t.trialEndsAt, t.timeZone) : null,
    })),
    audit: audit.map((a) => ({ ...a, createdAt: formatDateTime(a.createdAt) })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireStaff(request, context);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: ActionSchema });
  if (submission.status !== "success") return replyInvalid(submission);
  const input = submission.value;
  const db = await getDb();
  const actor = { userId: auth.user.id, email: auth.user.email };
  try {
    return await applyFormOnce(request, formData, async () => {
      let message: string;
      if (input.intent === "extend-trial") {
        const until = await extendTrial(db, actor, input.tenantId, input.days);
        message = `Trial extended by ${formatCount(input.days, "day")}, to ${formatDate(until)}.`;
      } else if (input.intent === "set-quota") {
        await setQuotaOverride(db, actor, input.tenantId, input.quota);
        message = input.quota === null ? "Quota reset to the plan's." : `Quota set to ${input.quota} a year.`;
      } else {
        await setTenantFlag(db, actor, input.tenantId, input.flag, input.value);
        message = `Flag ${input.flag} set to ${input.value}.`;
      }
      return redirectWithToast("/admin", { type: "success", title: "Saved", message });
    });
  } catch (error) {
    return replyWithServiceError(submission, error);
  }
}

const ACTION_LABELS: Record<string, string> = {
  "staff.trial_extended": "Trial extended",
  "staff.quota_changed": "Quota changed",
  "staff.flag_changed": "Flag changed",
};

export default function AdminPage() {
  const { tenants, audit } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-bold">Staff admin</h1>
      <div className="overflow-x-auto">
        <table className="w-full min-w-[64rem] text-left text-sm [&_td]:px-2 [&_th]:px-2">
          <thead className="border-b border-slate-200 text-slate-500">
            <tr>
              <th className="py-2">Agency</th>
              <th>Plan</th>
              <th>Status</th>
              <th>Trial ends</th>
              <th>Usage</th>
              <th>Users</th>
              <th>Connections</th>
              <th>Extend trial</th>
              <th>Yearly quota</th>
              <th>Flags</th>
            </tr>
          </thead>
          <tbody>
            {tenants.map((t) => (
              <tr key={t.id} className="border-b border-slate-100 align-top dark:border-slate-800" data-testid="admin-tenant-row">
                <td className="py-2">
                  <div className="font-medium">{t.name}</div>
                  <div className="text-xs text-slate-500">
                    {t.isDemo ? "Demo, " : ""}since {t.createdAt}
                  </div>
                </td>
                <td>{t.plan}</td>
                <td>{t.status}</td>
                <td>{t.trialEndsAt ?? "—"}</td>
                <td data-testid="admin-usage">
                  {t.used} of {t.quota ?? "—"} ({t.quotaYear})
                  {t.quotaOverride !== null ? <div className="text-xs text-slate-500">staff quota</div> : null}
                </td>
                <td>{t.users}</td>
                <td>{t.connections ?? "—"}</td>
                <td>
                  <RowNumberForm
                    tenantId={t.id}
                    intent="extend-trial"
                    name="days"
                    label={`Days to add for ${t.name}`}
                    defaultValue={14}
                    min={1}
                    max={365}
                    className="w-16"
                  >
                    <Button type="submit" name="intent" value="extend-trial" variant="secondary" aria-label={`Extend trial of ${t.name}`}>
                      Extend
                    </Button>
                  </RowNumberForm>
                </td>
                <td>
                  <RowNumberForm
                    tenantId={t.id}
                    intent="set-quota"
                    name="quota"
                    label={`Yearly quota for ${t.name}`}
                    defaultValue={t.quotaOverride ?? ""}
                    min={0}
                    placeholder="plan"
                    className="w-20"
                  >
                    <Button type="submit" name="intent" value="set-quota" variant="secondary" aria-label={`Set quota of ${t.name}`}>
                      Set
                    </Button>
                  </RowNumberForm>
                </td>
                <td>
                  {Object.entries(t.flags).map(([flag, enabled]) => (
                    <PostForm key={flag} className="flex items-center gap-1">
                      <input type="hidden" name="tenantId" value={t.id} />
                      <input type="hidden" name="flag" value={flag} />
                      <input type="hidden" name="value" value={enabled ? "off" : "on"} />
                      <AlertPill tone={enabled ? "success" : "neutral"}>
                        {flag}: {enabled ? "on" : "off"}
                      </AlertPill>
                      <Button
                        type="submit"
                        name="intent"
                        value="set-flag"
                        variant="ghost"
                        aria-label={`Turn ${flag} ${enabled ? "off" : "on"} for ${t.name}`}
                      >
                        Turn {enabled ? "off" : "on"}
                      </Button>
                    </PostForm>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <section aria-labelledby="audit-title" className="space-y-2">
        <h2 id="audit-title" className="text-lg font-semibold">
          Staff actions
        </h2>
        {audit.length === 0 ? (
          <p className="text-sm text-slate-500">No staff actions yet.</p>
        ) : (
          <ul className="space-y-1 text-sm" data-testid="staff-audit">
            {audit.map((a) => (
              <li key={a.id}>
                <span className="text-slate-500">{a.createdAt}</span> · {a.actorEmail} · {ACTION_LABELS[a.action] ?? a.action} ·{" "}
                {a.tenantName ?? "deleted agency"} <span className="text-slate-500">{describe(a.details)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function describe(details: Record<string, unknown> | null) {
  if (!details) return "";
  return Object.entries(details)
    .filter(([key]) => key !== "from" || details.from !== null)
    .map(([key, value]) => `${key}: ${value === null ? "plan default" : String(value)}`)
    .join(", ");
}

/**
 * One tenant's number form (days to extend, yearly quota). The action's answer is shown by the
 * row it came from: the entered value stays, with the message under it.
 */
function RowNumberForm({
  tenantId,
  intent,
  name,
  label,
  defaultValue,
  min,
  max,
  placeholder,
  className,
  children,
}: {
  tenantId: string;
  intent: "extend-trial" | "set-quota";
  name: "days" | "quota";
  label: string;
  defaultValue: number | string;
  min: number;
  max?: number;
  placeholder?: string;
  className: string;
  children: ReactNode;
}) {
  const actionData = useActionData<typeof action>();
  const [form, fields] = useServerForm({
    id: useFormId(`${intent}-${tenantId}`, actionData),
    lastResult: resultFor(actionData, { tenantId, intent }),
    defaultValue: { [name]: String(defaultValue) },
  });
  const field = fields[name];
  const message = field.errors?.[0] ?? form.errors?.[0] ?? Object.values(form.allErrors).flat()[0] ?? null;
  return (
    <>
      <PostForm {...getFormProps(form)} className="flex items-center gap-1">
        <input type="hidden" name="tenantId" value={tenantId} />
        <label className="sr-only" htmlFor={field.id}>
          {label}
        </label>
        <input
          {...getInputProps(field, { type: "number" })}
          aria-describedby={message ? field.errorId : undefined}
          min={min}
          max={max}
          placeholder={placeholder}
          className={`${className} rounded border border-slate-300 px-1 py-1`}
        />
        {children}
      </PostForm>
      {message ? (
        <p id={field.errorId} role="alert" className="mt-1 text-xs text-red-600">
          {message}
        </p>
      ) : null}
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
