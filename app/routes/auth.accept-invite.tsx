import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { useClearPasswords } from "~/utils/use-clear-passwords";
import { NewPasswordField } from "~/components/new-password-field";
import { Notice, Button } from "~/components/shell";
import { ErrorList, Field } from "~/components/ui/field";
import { getDb } from "~/db/client.server";
import { getPasswordPolicy } from "~/services/identity/passwords.server";
import { acceptInvitation, findInvitation } from "~/services/identity/team.server";
import { getTenant } from "~/services/identity/tenants.server";
import { startSession } from "~/utils/auth.server";
import { newPasswordSchema, type PasswordPolicy } from "~/utils/password-policy";
import { replyInvalid, replyWithServiceError } from "~/utils/submission.server";
import { toastHeader } from "~/utils/toast.server";
import { singleLineText } from "~/utils/schemas";

export const meta: MetaFunction = () => [{ title: "Join your agency | Remarket" }];

function acceptSchema(policy: PasswordPolicy) {
  return z.object({
    token: z.string(),
    name: singleLineText({ error: "Your name is required." }).min(1).max(120),
    password: newPasswordSchema(policy, "Password is required."),
  });
}

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const db = await getDb();
  const invitation = token ? await findInvitation(db, token) : null;
  const tenant = invitation ? await getTenant(db, invitation.tenantId) : null;
  return {
    token,
    invitation: invitation && tenant ? { email: invitation.email, agency: tenant.name } : null,
    policy: getPasswordPolicy(),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: acceptSchema(getPasswordPolicy()) });
  if (submission.status !== "success") return replyInvalid(submission, ["password"]);
  try {
    const user = await acceptInvitation(await getDb(), submission.value);
    const toast = await toastHeader({ type: "success", title: "Welcome aboard", message: "You have joined your agency on Remarket." });
    return await startSession(request, user, "/", { "Set-Cookie": toast });
  } catch (error) {
    return replyWithServiceError(submission, error, ["password"]);
  }
}

export default function AcceptInvitePage() {
  const { token, invitation, policy } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "accept-invite",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: acceptSchema(policy) }),
    shouldRevalidate: "onInput",
  });
  useClearPasswords(lastResult, [fields.password.id]);
  if (!invitation) {
    return <Notice tone="error">This invitation is no longer valid. Ask your agency admin for a new one.</Notice>;
  }
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold">Join {invitation.agency}</h1>
      <p className="text-sm text-slate-600 dark:text-slate-300">You are joining as {invitation.email}.</p>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="token" value={token} />
        <ErrorList id={form.errorId} errors={form.errors} />
        <Field
          label="Your name"
          {...getInputProps(fields.name, { type: "text" })}
          id={fields.name.id}
          autoComplete="name"
          errors={fields.name.errors}
        />
        <NewPasswordField label="Choose a password" field={fields.password} policy={policy} />
        <Button type="submit" className="w-full" pending={navigation.state === "submitting"}>
          Join agency
        </Button>
      </Form>
    </div>
  );
}
