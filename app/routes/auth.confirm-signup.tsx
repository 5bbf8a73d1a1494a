import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { CodeDeliveryNote } from "~/components/code-delivery-note";
import { Honeypot } from "~/components/honeypot";
import { Button, Notice } from "~/components/shell";
import { ErrorList, Field } from "~/components/ui/field";
import { getDb } from "~/db/client.server";
import { confirmSignUp, resendSignUpCode } from "~/services/identity/accounts.server";
import { getClientIp, requireAnonymous, startSession } from "~/utils/auth.server";
import { codeDeliveryFor } from "~/utils/dev-outbox.server";
import { assertNotBot } from "~/utils/honeypot.server";
import { replyInvalid, replyWithServiceError } from "~/utils/submission.server";
import { toastHeader } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Confirm your e-mail | Remarket" }];

// One schema for both buttons: "Send a new code" needs only the e-mail.
const ConfirmSchema = z
  .object({
    intent: z.enum(["confirm", "resend"]).default("confirm"),
    email: z.string({ error: "E-mail is required." }).trim().email("Enter a valid e-mail address."),
    code: z.string().trim().optional(),
  })
  .superRefine((value, ctx) => {
    if (value.intent === "resend") return;
    if (!value.code) ctx.addIssue({ code: "custom", path: ["code"], message: "Enter the 6-digit code." });
    else if (!/^\d{6}$/.test(value.code)) ctx.addIssue({ code: "custom", path: ["code"], message: "The code has 6 digits." });
  });

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  const email = new URL(request.url).searchParams.get("email") ?? "";
  return { email, codeDelivery: codeDeliveryFor(request, context) };
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  assertNotBot(formData);
  const submission = parseWithZod(formData, { schema: ConfirmSchema });
  if (submission.status !== "success") return replyInvalid(submission);
  if (submission.value.intent === "resend") {
    try {
      await resendSignUpCode(await getDb(), submission.value.email);
    } catch (error) {
      return replyWithServiceError(submission, error);
    }
    return data({ ...submission.reply({ resetForm: false }), resent: true });
  }
  try {
    const { email, code = "" } = submission.value;
    const user = await confirmSignUp(await getDb(), { email, code, ip: getClientIp(request) });
    const welcome = await toastHeader({ type: "success", title: "Welcome to Remarket", message: "Your e-mail is confirmed." });
    return await startSession(request, user, "/", { "Set-Cookie": welcome });
  } catch (error) {
    return replyWithServiceError(submission, error);
  }
}

export default function ConfirmSignUpPage() {
  const { email, codeDelivery } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "confirm-signup",
    lastResult,
    defaultValue: { email },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ConfirmSchema }),
    shouldRevalidate: "onInput",
  });
  const resent = lastResult && "resent" in lastResult && lastResult.resent;
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold">Confirm your e-mail</h1>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        We sent a 6-digit code to your e-mail address. It is valid for 10 minutes.
        <CodeDeliveryNote delivery={codeDelivery} />
      </p>
      {resent ? <Notice tone="success">If this address is waiting for confirmation, a new code is on its way.</Notice> : null}
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
          label="Confirmation code"
          {...getInputProps(fields.code, { type: "text" })}
          id={fields.code.id}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          errors={fields.code.errors}
        />
        <div className="flex gap-3">
          <Button type="submit" name="intent" value="confirm" className="flex-1" pending={navigation.state === "submitting"}>
            Confirm
          </Button>
          <Button type="submit" name="intent" value="resend" variant="secondary" formNoValidate>
            Send a new code
          </Button>
        </div>
      </Form>
    </div>
  );
}
