import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { useClearPasswords } from "~/utils/use-clear-passwords";
import { CodeDeliveryNote } from "~/components/code-delivery-note";
import { Honeypot } from "~/components/honeypot";
import { NewPasswordField } from "~/components/new-password-field";
import { Notice, Button } from "~/components/shell";
import { ErrorList, Field } from "~/components/ui/field";
import { getDb } from "~/db/client.server";
import { resetPassword } from "~/services/identity/accounts.server";
import { getPasswordPolicy } from "~/services/identity/passwords.server";
import { getClientIp, requireAnonymous, startSession } from "~/utils/auth.server";
import { codeDeliveryFor } from "~/utils/dev-outbox.server";
import { assertNotBot } from "~/utils/honeypot.server";
import { newPasswordSchema, type PasswordPolicy } from "~/utils/password-policy";
import { replyInvalid, replyWithServiceError } from "~/utils/submission.server";
import { toastHeader } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Choose a new password | Remarket" }];

function resetSchema(policy: PasswordPolicy) {
  return z
    .object({
      email: z.string({ error: "E-mail is required." }).trim().email("Enter a valid e-mail address."),
      code: z
        .string({ error: "Enter the 6-digit code." })
        .trim()
        .regex(/^\d{6}$/, "The code has 6 digits."),
      // seed §5: 'New password is required.'
      password: newPasswordSchema(policy, "New password is required."),
      confirmPassword: z.string({ error: "Please confirm your new password." }),
    })
    .refine((v) => v.password === v.confirmPassword, { message: "The passwords do not match.", path: ["confirmPassword"] });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  const params = new URL(request.url).searchParams;
  return {
    email: params.get("email") ?? "",
    sent: params.get("sent") === "1",
    policy: getPasswordPolicy(),
    codeDelivery: codeDeliveryFor(request, context),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  assertNotBot(formData);
  const submission = parseWithZod(formData, { schema: resetSchema(getPasswordPolicy()) });
  const hide = ["password", "confirmPassword"];
  if (submission.status !== "success") return replyInvalid(submission, hide);
  try {
    const user = await resetPassword(await getDb(), { ...submission.value, ip: getClientIp(request) });
    const toast = await toastHeader({ type: "success", title: "Password changed", message: "You are signed in with your new password." });
    return await startSession(request, user, "/", { "Set-Cookie": toast });
  } catch (error) {
    return replyWithServiceError(submission, error, hide);
  }
}

export default function ResetPasswordPage() {
  const { email, sent, policy, codeDelivery } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "reset-password",
    lastResult,
    defaultValue: { email },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resetSchema(policy) }),
    shouldRevalidate: "onInput",
  });
  useClearPasswords(lastResult, [fields.password.id, fields.confirmPassword.id]);
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold">Choose a new password</h1>
      {sent ? (
        <Notice tone="success">
          If an account uses this e-mail, we sent it a 6-digit code.
          <CodeDeliveryNote delivery={codeDelivery} />
        </Notice>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <Honeypot />
        <ErrorList id={form.errorId} errors={form.errors} />
        <Field
          label="E-mail"
          {...getInputProps(fields.email, { type: "email" })}
          id={fields.email.id}
          autoComplete="email"
          errors={fields.email.errors}
        />
        <Field
          label="Code"
          {...getInputProps(fields.code, { type: "text" })}
          id={fields.code.id}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          errors={fields.code.errors}
        />
        <NewPasswordField label="New password" field={fields.password} policy={policy} />
        <Field
          label="Confirm new password"
          {...getInputProps(fields.confirmPassword, { type: "password" })}
          id={fields.confirmPassword.id}
          autoComplete="new-password"
          errors={fields.confirmPassword.errors}
        />
        <Button type="submit" className="w-full" pending={navigation.state === "submitting"}>
          Save new password
        </Button>
      </Form>
    </div>
  );
}
