import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { z } from "zod";
import { useClearPasswords } from "~/utils/use-clear-passwords";
import { FormToken, Button } from "~/components/shell";
import { Honeypot } from "~/components/honeypot";
import { ErrorList, Field } from "~/components/ui/field";
import { getDb } from "~/db/client.server";
import { login } from "~/services/identity/accounts.server";
import { listSsoProviders } from "~/services/identity/sso.server";
import { getClientIp, requireAnonymous, startSession } from "~/utils/auth.server";
import { assertNotBot } from "~/utils/honeypot.server";
import { replyInvalid, replyWithServiceError } from "~/utils/submission.server";

export const meta: MetaFunction = () => [{ title: "Sign in | Remarket" }];

export const handle = { description: "Sign in to Remarket, or try the demo agency with sample data." };

const LoginSchema = z.object({
  email: z.string({ error: "E-mail is required." }).trim().email("Enter a valid e-mail address."),
  password: z.string({ error: "Password is required." }),
  redirectTo: z.string().optional(),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  return { providers: listSsoProviders() };
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  assertNotBot(formData);
  const submission = parseWithZod(formData, { schema: LoginSchema });
  if (submission.status !== "success") return replyInvalid(submission, ["password"]);
  const { email, password, redirectTo } = submission.value;
  try {
    const result = await login(await getDb(), { email, password, ip: getClientIp(request) });
    if (result.status === "unconfirmed") {
      throw redirect(`/auth/confirm-signup?${new URLSearchParams({ email: result.email })}`);
    }
    return await startSession(request, result.user, redirectTo ?? null);
  } catch (error) {
    if (error instanceof Response) throw error;
    return replyWithServiceError(submission, error, ["password"]);
  }
}

export default function LoginPage() {
  const { providers } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "login",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
    shouldRevalidate: "onInput",
  });
  useClearPasswords(lastResult, [fields.password.id]);
  const busy = navigation.state !== "idle" && navigation.formAction === "/auth/login";
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold">Sign in to your agency</h1>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <Honeypot />
        <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
        <ErrorList id={form.errorId} errors={form.errors} />
        <Field
          label="E-mail"
          {...getInputProps(fields.email, { type: "email" })}
          id={fields.email.id}
          autoComplete="email"
          errors={fields.email.errors}
        />
        <Field
          label="Password"
          {...getInputProps(fields.password, { type: "password" })}
          id={fields.password.id}
          autoComplete="current-password"
          errors={fields.password.errors}
        />
        <div className="flex items-center justify-between text-sm">
          <Link to="/auth/forgot-password" className="text-brand-600 hover:underline">
            Forgot password?
          </Link>
          <Link to="/auth/signup" className="text-brand-600 hover:underline">
            Create an account
          </Link>
        </div>
        <Button type="submit" className="w-full" pending={busy}>
          Sign in
        </Button>
      </Form>
      {providers.length > 0 ? (
        <div className="space-y-2">
          <p className="text-center text-xs uppercase tracking-wide text-slate-500">or</p>
          {providers.map((p) => (
            <Form key={p.id} method="post" action={`/auth/sso/${p.id}`}>
              <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
              <Button type="submit" variant="secondary" className="w-full">
                Continue with {p.label}
              </Button>
            </Form>
          ))}
        </div>
      ) : null}
      <Form method="post" action="/auth/demo" className="border-t border-slate-200 pt-4 dark:border-slate-700">
        <FormToken />
        <Button type="submit" variant="secondary" className="w-full">
          Try the demo
        </Button>
        <p className="mt-2 text-center text-xs text-slate-500">A sample agency, just for you, deleted after 24 hours.</p>
      </Form>
    </div>
  );
}
