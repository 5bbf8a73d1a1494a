import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { useClearPasswords } from "~/utils/use-clear-passwords";
import { PostForm, Button } from "~/components/shell";
import { Honeypot } from "~/components/honeypot";
import { NewPasswordField } from "~/components/new-password-field";
import { ErrorList, Field } from "~/components/ui/field";
import { getDb } from "~/db/client.server";
import { signUp } from "~/services/identity/accounts.server";
import { getPasswordPolicy } from "~/services/identity/passwords.server";
import { requireAnonymous } from "~/utils/auth.server";
import { applyFormOnce } from "~/utils/forms.server";
import { assertNotBot } from "~/utils/honeypot.server";
import { signUpFields } from "~/utils/account-schemas";
import { type PasswordPolicy } from "~/utils/password-policy";
import { replyInvalid, replyWithServiceError } from "~/utils/submission.server";

export const meta: MetaFunction = () => [{ title: "Create an account | Remarket" }];

export const handle = { description: "Create a Remarket account for your agency and start re-marketing the renewals that matter." };

function signUpSchema(policy: PasswordPolicy) {
  return signUpFields(policy)
    .extend({ confirmPassword: z.string({ error: "Please confirm your password." }) })
    .refine((v) => v.password === v.confirmPassword, {
      message: "The passwords do not match.",
      path: ["confirmPassword"],
    });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  return { policy: getPasswordPolicy() };
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  assertNotBot(formData);
  const submission = parseWithZod(formData, { schema: signUpSchema(getPasswordPolicy()) });
  const hide = ["password", "confirmPassword"];
  if (submission.status !== "success") return replyInvalid(submission, hide);
  try {
    return await applyFormOnce(request, formData, async () => {
      const { email } = await signUp(await getDb(), submission.value);
      return redirect(`/auth/confirm-signup?${new URLSearchParams({ email })}`);
    });
  } catch (error) {
    if (error instanceof Response) throw error;
    return replyWithServiceError(submission, error, hide);
  }
}

export default function SignUpPage() {
  const { policy } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "signup",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signUpSchema(policy) }),
    shouldRevalidate: "onInput",
  });
  useClearPasswords(lastResult, [fields.password.id, fields.confirmPassword.id]);
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold">Create your agency's account</h1>
      <PostForm {...getFormProps(form)} className="space-y-4">
        <Honeypot />
        <ErrorList id={form.errorId} errors={form.errors} />
        <Field
          label="Agency name"
          {...getInputProps(fields.agencyName, { type: "text" })}
          id={fields.agencyName.id}
          autoComplete="organization"
          errors={fields.agencyName.errors}
        />
        <Field
          label="Your name"
          {...getInputProps(fields.name, { type: "text" })}
          id={fields.name.id}
          autoComplete="name"
          errors={fields.name.errors}
        />
        <Field
          label="E-mail"
          {...getInputProps(fields.email, { type: "email" })}
          id={fields.email.id}
          autoComplete="email"
          errors={fields.email.errors}
        />
        <NewPasswordField label="Password" field={fields.password} policy={policy} />
        <Field
          label="Confirm password"
          {...getInputProps(fields.confirmPassword, { type: "password" })}
          id={fields.confirmPassword.id}
          autoComplete="new-password"
          errors={fields.confirmPassword.errors}
        />
        <Button type="submit" className="w-full" pending={navigation.state === "submitting"}>
          Create account
        </Button>
      </PostForm>
      <p className="text-center text-sm">
        Already have an account?{" "}
        <Link to="/auth/login" className="text-brand-600 underline">
          Sign in
        </Link>
      </p>
    </div>
  );
}
