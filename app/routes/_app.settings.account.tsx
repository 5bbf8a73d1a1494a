import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Form } from "@remix-run/react";
import { z } from "zod";
import { useClearPasswords } from "~/utils/use-clear-passwords";
import { FormToken, PostForm, Button } from "~/components/shell";
import { NewPasswordField } from "~/components/new-password-field";
import { ErrorList, Field } from "~/components/ui/field";
import { changePassword } from "~/services/identity/accounts.server";
import { renameUser } from "~/services/identity/team.server";
import { getPasswordPolicy } from "~/services/identity/passwords.server";
import { requireTenantContext } from "~/utils/auth.server";
import { personName } from "~/utils/account-schemas";
import { applyFormOnce } from "~/utils/forms.server";
import { newPasswordSchema, type PasswordPolicy } from "~/utils/password-policy";
import { replyInvalid, replyWithServiceError } from "~/utils/submission.server";
import { getEnv } from "~/env.server";
import { getDigestEmail, setDigestEmail } from "~/services/platform/daily-digest.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Account | Remarket" }];

export const handle = { description: "Your name, e-mail, password and sign-in methods." };

function changeSchema(policy: PasswordPolicy) {
  return z
    .object({
      currentPassword: z.string({ error: "Current password is required." }),
      newPassword: newPasswordSchema(policy, "New password is required."),
      confirmPassword: z.string({ error: "Please confirm your new password." }),
    })
    .refine((v) => v.newPassword === v.confirmPassword, { message: "The passwords do not match.", path: ["confirmPassword"] });
}

// Seed PATCH /user/{id}: the same rule as the API's (utils/account-schemas.ts).
const RenameSchema = z.object({ intent: z.literal("rename"), name: personName() });
const DigestSchema = z.object({ intent: z.literal("digest"), digestEmail: z.literal("on").optional() });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  return {
    email: ctx.auth.user.email,
    name: ctx.auth.user.name,
    policy: getPasswordPolicy(),
    digestEmail: await getDigestEmail(ctx),
    mailConfigured: Boolean(getEnv().SMTP_URL),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const formData = await request.formData();
  if (formData.get("intent") === "rename") {
    const rename = parseWithZod(formData, { schema: RenameSchema });
    if (rename.status !== "success") return { rename: rename.reply() };
    try {
      return await applyFormOnce(request, formData, async () => {
        await renameUser(ctx, ctx.userId, rename.value.name);
        return redirectWithToast("/settings/account", { type: "success", title: "Name saved", message: `You are ${rename.value.name}.` });
      });
    } catch (error) {
      if (error instanceof Response) throw error;
      return { rename: rename.reply({ formErrors: [error instanceof Error ? error.message : "The name was not saved."] }) };
    }
  }
  if (formData.get("intent") === "digest") {
    const digest = parseWithZod(formData, { schema: DigestSchema });
    if (digest.status !== "success") return { digest: digest.reply() };
    const on = digest.value.digestEmail === "on";
    // Setting a value (not toggling) makes a second submission of the same form harmless.
    await setDigestEmail(ctx, on);
    return redirectWithToast("/settings/account", {
      type: "success",
      title: "Daily digest saved",
      message: on ? "It comes in Remarket and by e-mail." : "It comes in Remarket only.",
    });
  }
  const submission = parseWithZod(formData, { schema: changeSchema(getPasswordPolicy()) });
  const hide = ["currentPassword", "newPassword", "confirmPassword"];
  if (submission.status !== "success") return replyInvalid(submission, hide);
  try {
    return await applyFormOnce(request, formData, async () => {
      await changePassword(ctx.db, {
        userId: ctx.userId,
        currentPassword: submission.value.currentPassword,
        newPassword: submission.value.newPassword,
        keepSessionId: ctx.auth.sessionId,
      });
      return redirectWithToast("/settings/account", {
        type: "success",
        title: "Password changed",
        message: "Your other sessions were signed out.",
      });
    });
  } catch (error) {
    if (error instanceof Response) throw error;
    return replyWithServiceError(submission, error, hide);
  }
}

export default function AccountPage() {
  const { email, name, policy, digestEmail, mailConfigured } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const renameResult = actionData && "rename" in actionData ? actionData.rename : undefined;
  const lastResult = actionData && !("rename" in actionData) && !("digest" in actionData) ? actionData : undefined;
  const navigation = useNavigation();
  const [renameForm, renameFields] = useForm({
    id: "rename",
    lastResult: renameResult,
    defaultValue: { name },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RenameSchema }),
    shouldRevalidate: "onInput",
  });
  const [form, fields] = useForm({
    id: "change-password",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: changeSchema(policy) }),
    shouldRevalidate: "onInput",
  });
  useClearPasswords(lastResult, [fields.currentPassword.id, fields.newPassword.id, fields.confirmPassword.id]);
  return (
    <div className="max-w-lg space-y-8">
      <h1 className="text-2xl font-bold">Account</h1>
      <p className="text-sm text-slate-600 dark:text-slate-300">Signed in as {email}.</p>
      <section className="space-y-4">
        <h2 className="text-lg font-semibold">Your name</h2>
        <PostForm {...getFormProps(renameForm)} className="space-y-4">
          <ErrorList id={renameForm.errorId} errors={renameForm.errors} />
          <Field
            label="Name"
            {...getInputProps(renameFields.name, { type: "text" })}
            id={renameFields.name.id}
            autoComplete="name"
            errors={renameFields.name.errors}
          />
          <Button type="submit" name="intent" value="rename">
            Save name
          </Button>
        </PostForm>
      </section>
      <section className="space-y-4">
        <h2 className="text-lg font-semibold">Change password</h2>
        <PostForm {...getFormProps(form)} className="space-y-4">
          <ErrorList id={form.errorId} errors={form.errors} />
          <Field
            label="Current password"
            {...getInputProps(fields.currentPassword, { type: "password" })}
            id={fields.currentPassword.id}
            autoComplete="current-password"
            errors={fields.currentPassword.errors}
          />
          <NewPasswordField label="New password" field={fields.newPassword} policy={policy} />
          <Field
            label="Confirm new password"
            {...getInputProps(fields.confirmPassword, { type: "password" })}
            id={fields.confirmPassword.id}
            autoComplete="new-password"
            errors={fields.confirmPassword.errors}
          />
          <Button type="submit" pending={navigation.state === "submitting" && navigation.formAction === "/settings/account"}>
            Change password
          </Button>
        </PostForm>
      </section>
      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Daily digest</h2>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Each morning (from 7:00 in the agency’s time zone) a notification tells you what needs you today: renewals newly flagged, your
          tasks due this week, and the re-market quota once 80% of it is used. On a day with nothing to tell, none is sent.
        </p>
        <PostForm className="space-y-3">
          <input type="hidden" name="intent" value="digest" />
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="digestEmail" defaultChecked={digestEmail} />
            E-mail it to me as well
          </label>
          {mailConfigured ? null : (
            <p className="text-xs text-slate-500">
              E-mail is not set up for Remarket yet, so the digest arrives here only; this setting applies once it is.
            </p>
          )}
          <Button type="submit" variant="secondary">
            Save digest setting
          </Button>
        </PostForm>
      </section>
      <section className="space-y-2">
        <h2 className="text-lg font-semibold">Sessions</h2>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Signed in on a shared or lost computer? End every session, this one included.
        </p>
        <Form method="post" action="/auth/logout">
          <FormToken />
          <Button type="submit" name="intent" value="everywhere" variant="danger">
            Sign out everywhere
          </Button>
        </Form>
      </section>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
