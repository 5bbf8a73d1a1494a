import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { Honeypot } from "~/components/honeypot";
import { Button } from "~/components/shell";
import { Field } from "~/components/ui/field";
import { getDb } from "~/db/client.server";
import { requestPasswordReset } from "~/services/identity/accounts.server";
import { requireAnonymous } from "~/utils/auth.server";
import { assertNotBot } from "~/utils/honeypot.server";
import { replyInvalid } from "~/utils/submission.server";

export const meta: MetaFunction = () => [{ title: "Forgot password | Remarket" }];

export const handle = { description: "Reset your Remarket password with a code sent to your e-mail." };

const ForgotSchema = z.object({
  email: z.string({ error: "E-mail is required." }).trim().email("Enter a valid e-mail address."),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  assertNotBot(formData);
  const submission = parseWithZod(formData, { schema: ForgotSchema });
  if (submission.status !== "success") return replyInvalid(submission);
  await requestPasswordReset(await getDb(), submission.value.email);
  // The same next step whether or not the address has an account.
  return redirect(`/auth/reset-password?${new URLSearchParams({ email: submission.value.email, sent: "1" })}`);
}

export default function ForgotPasswordPage() {
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "forgot-password",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ForgotSchema }),
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold">Forgot your password?</h1>
      <p className="text-sm text-slate-600 dark:text-slate-300">Enter your e-mail and we will send you a code to choose a new one.</p>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <Honeypot />
        <Field
          label="E-mail"
          {...getInputProps(fields.email, { type: "email" })}
          id={fields.email.id}
          autoComplete="email"
          errors={fields.email.errors}
        />
        <Button type="submit" className="w-full" pending={navigation.state === "submitting"}>
          Send code
        </Button>
      </Form>
      <p className="text-center text-sm">
        <Link to="/auth/login" className="text-brand-600 hover:underline">
          Back to sign in
        </Link>
      </p>
    </div>
  );
}
