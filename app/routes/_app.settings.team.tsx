import { useTimeZone } from "~/utils/use-time-zone";
import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { PostForm, resultFor, AlertPill, Notice, Button } from "~/components/shell";
import { ErrorList, Field, SelectField } from "~/components/ui/field";
import { inviteMember, listMembers, listPendingInvitations, removeMember, revokeInvitation } from "~/services/identity/team.server";
import { requireTenantContext } from "~/utils/auth.server";
import { applyFormOnce } from "~/utils/forms.server";
import { replyInvalid, replyWithServiceError } from "~/utils/submission.server";
import { redirectWithToast } from "~/utils/toast.server";
import { formatDate } from "~/utils/format";

export const meta: MetaFunction = () => [{ title: "Team | Remarket" }];

export const handle = { description: "Who is on your agency's team, their roles and open invitations." };

const InviteSchema = z.object({
  intent: z.literal("invite"),
  email: z.string({ error: "E-mail is required." }).trim().email("Enter a valid e-mail address."),
  role: z.enum(["staff", "admin"], { error: "Choose a role." }),
});
const IdSchema = z.object({ intent: z.enum(["revoke", "remove"]), id: z.string().uuid() });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const [members, invitations] = await Promise.all([listMembers(ctx), listPendingInvitations(ctx)]);
  return { members, invitations, isAdmin: ctx.role === "admin", me: ctx.userId };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const formData = await request.formData();
  if (formData.get("intent") === "invite") {
    const submission = parseWithZod(formData, { schema: InviteSchema });
    if (submission.status !== "success") return replyInvalid(submission);
    try {
      return await applyFormOnce(request, formData, async () => {
        await inviteMember(ctx, submission.value);
        return redirectWithToast("/settings/team", {
          type: "success",
          title: "Invitation sent",
          message: `We e-mailed ${submission.value.email} a link to join.`,
        });
      });
    } catch (error) {
      if (error instanceof Response) throw error;
      return replyWithServiceError(submission, error);
    }
  }
  const submission = parseWithZod(formData, { schema: IdSchema });
  if (submission.status !== "success") throw new Response("Bad request", { status: 400 });
  try {
    return await applyFormOnce(request, formData, async () => {
      if (submission.value.intent === "revoke") await revokeInvitation(ctx, submission.value.id);
      else await removeMember(ctx, submission.value.id);
      const message = submission.value.intent === "revoke" ? "The invitation was withdrawn." : "The team member was removed.";
      return redirectWithToast("/settings/team", { type: "success", message });
    });
  } catch (error) {
    return replyWithServiceError(submission, error);
  }
}

export default function TeamPage() {
  const timeZone = useTimeZone();
  const { members, invitations, isAdmin, me } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  // Remove and withdraw are buttons: what the service refuses is said above the table.
  const buttonErrors = lastResult?.initialValue?.intent !== "invite" ? lastResult?.error?.[""] : undefined;
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "invite",
    lastResult: resultFor(lastResult, { intent: "invite" }),
    defaultValue: { role: "staff" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: InviteSchema }),
    shouldRevalidate: "onInput",
  });
  return (
    <div className="max-w-3xl space-y-8">
      <h1 className="text-2xl font-bold">Team</h1>
      {buttonErrors ? <Notice tone="error">{buttonErrors.join(" ")}</Notice> : null}
      {/* A card, like every other table (the scroll frame's edge covers are white); on a phone each
          member stacks, Remove included. */}
      <div className="overflow-x-auto rounded-lg bg-white ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
        <table className="stack-table w-full text-left text-sm">
          <thead className="border-b border-slate-200 text-slate-500 dark:border-slate-700">
            <tr>
              <th className="px-3 py-2">Name</th>
              <th className="px-3 py-2">E-mail</th>
              <th className="px-3 py-2">Role</th>
              <th className="sr-only">Actions</th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.id} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
                <td className="px-3 py-2 font-medium">{m.name}</td>
                <td className="break-all px-3 py-2" data-label="E-mail">
                  {m.email}
                </td>
                <td className="px-3 py-2" data-label="Role">
                  <AlertPill tone={m.role === "admin" ? "success" : "neutral"}>{m.role === "admin" ? "Admin" : "Staff"}</AlertPill>
                </td>
                <td className="px-3 py-2 text-right">
                  {isAdmin && m.id !== me ? (
                    <PostForm>
                      <input type="hidden" name="id" value={m.id} />
                      <Button type="submit" name="intent" value="remove" variant="ghost" aria-label={`Remove ${m.name}`}>
                        Remove
                      </Button>
                    </PostForm>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {invitations.length > 0 ? (
        <section className="space-y-2">
          <h2 className="text-lg font-semibold">Pending invitations</h2>
          <ul className="space-y-1 text-sm">
            {invitations.map((i) => (
              <li key={i.id} className="flex items-center justify-between">
                <span>
                  {i.email} ({i.role}), expires {formatDate(i.expiresAt, timeZone)}
                </span>
                {isAdmin ? (
                  <PostForm>
                    <input type="hidden" name="id" value={i.id} />
                    <Button type="submit" name="intent" value="revoke" variant="ghost">
                      Withdraw
                    </Button>
                  </PostForm>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {isAdmin ? (
        <section className="space-y-3">
          <h2 className="text-lg font-semibold">Invite a teammate</h2>
          <PostForm {...getFormProps(form)} className="grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-end">
            <ErrorList id={form.errorId} errors={form.errors} />
            <Field label="E-mail" {...getInputProps(fields.email, { type: "email" })} id={fields.email.id} errors={fields.email.errors} />
            <SelectField
              label="Role"
              {...getSelectProps(fields.role)}
              id={fields.role.id}
              errors={fields.role.errors}
              options={[
                { value: "staff", label: "Staff" },
                { value: "admin", label: "Admin" },
              ]}
            />
            <Button type="submit" name="intent" value="invite" pending={navigation.state === "submitting"}>
              Send invitation
            </Button>
          </PostForm>
        </section>
      ) : (
        <p className="text-sm text-slate-500">Only admins can invite or remove teammates.</p>
      )}
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
