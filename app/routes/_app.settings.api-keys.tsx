import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { PostForm, resultFor, useFormId, AlertPill, Notice, Button } from "~/components/shell";
import { ErrorList, Field, SelectField } from "~/components/ui/field";
import { API_KEY_REQUESTS_PER_MINUTE, createApiKey, listApiKeys, revokeApiKey } from "~/services/identity/api-keys.server";
import { getCookies } from "~/sessions.server";
import { requireTenantContext } from "~/utils/auth.server";
import { formatDateTime } from "~/utils/format";
import { applyFormOnce } from "~/utils/forms.server";
import { replyInvalid, replyWithServiceError } from "~/utils/submission.server";
import { redirectWithToast } from "~/utils/toast.server";
import { useTimeZone } from "~/utils/use-time-zone";

export const meta: MetaFunction = () => [{ title: "API keys | Remarket" }];

export const handle = { description: "Keys that let your integrations call the Remarket API as you." };

const PAGE = "/settings/api-keys";

const CreateSchema = z.object({
  intent: z.literal("create"),
  name: z.string({ error: "Name the key." }).trim().min(1, "Name the key.").max(60, "Keep the name under 60 characters."),
  scope: z.enum(["read", "write"], { error: "Choose what the key may do." }),
});
const RevokeSchema = z.object({ intent: z.literal("revoke"), id: z.string().uuid() });
const RevealSchema = z.object({ id: z.string(), name: z.string(), secret: z.string() });

const SCOPES = [
  { value: "read", label: "Read-only" },
  { value: "write", label: "Read and write" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const url = new URL(request.url);
  const keys = await listApiKeys(ctx);
  // The secret of a key just created rides in a one-minute cookie from the action; it is shown
  // on this one answer and the cookie is cleared, so a reload no longer shows it.
  const { apiKeyRevealCookie } = getCookies();
  const carried = RevealSchema.safeParse(await apiKeyRevealCookie.parse(request.headers.get("Cookie")));
  const createdId = url.searchParams.get("created");
  const reveal = carried.success && carried.data.id === createdId ? carried.data : null;
  const created = !reveal && createdId ? (keys.find((k) => k.id === createdId) ?? null) : null;
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (carried.success) headers.append("Set-Cookie", await apiKeyRevealCookie.serialize("", { maxAge: 0 }));
  return data(
    {
      keys,
      reveal,
      createdName: created?.name ?? null,
      confirmRevoke: keys.find((k) => k.id === url.searchParams.get("revoke")) ?? null,
      perMinute: API_KEY_REQUESTS_PER_MINUTE,
    },
    { headers },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const formData = await request.formData();
  if (formData.get("intent") === "create") {
    const submission = parseWithZod(formData, { schema: CreateSchema });
    if (submission.status !== "success") return replyInvalid(submission);
    try {
      // A second submission of the same form (double click, retry) gets the first one's redirect
      // back, without the secret: the page then says the key was made and its secret shown once.
      return await applyFormOnce(request, formData, async () => {
        const { name, scope } = submission.value;
        const key = await createApiKey(ctx, { name, scope });
        const reveal = await getCookies().apiKeyRevealCookie.serialize({ id: key.id, name, secret: key.secret });
        return redirectWithToast(
          `${PAGE}?created=${key.id}`,
          { type: "success", message: `API key “${name}” created. Copy it now.` },
          { headers: { "Set-Cookie": reveal } },
        );
      });
    } catch (error) {
      if (error instanceof Response) throw error;
      return replyWithServiceError(submission, error);
    }
  }
  const submission = parseWithZod(formData, { schema: RevokeSchema });
  if (submission.status !== "success") throw new Response("Bad request", { status: 400 });
  try {
    return await applyFormOnce(request, formData, async () => {
      await revokeApiKey(ctx, submission.value.id);
      return redirectWithToast(PAGE, { type: "success", message: "The API key was revoked. Calls with it are refused from now on." });
    });
  } catch (error) {
    if (error instanceof Response) throw error;
    return replyWithServiceError(submission, error);
  }
}

export default function ApiKeysPage() {
  const timeZone = useTimeZone();
  const { keys, reveal, createdName, confirmRevoke, perMinute } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const revokeErrors = lastResult?.initialValue?.intent === "revoke" ? lastResult?.error?.[""] : undefined;
  const navigation = useNavigation();
  const [form, fields] = useForm({
    // A new key starts the form afresh (a success redirects, so no action result says so).
    id: useFormId(reveal ? `create-api-key-${reveal.id}` : "create-api-key", lastResult),
    lastResult: resultFor(lastResult, { intent: "create" }),
    defaultValue: { scope: "read" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CreateSchema }),
    shouldRevalidate: "onInput",
  });
  return (
    <div className="max-w-3xl space-y-8">
      <div className="space-y-2">
        <h1 className="text-2xl font-bold">API keys</h1>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          A key lets an integration call the <a href="/api/docs">Remarket API</a> as you, in this agency. Send it as{" "}
          <code className="whitespace-nowrap">Authorization: Bearer rmk_…</code>. Each key may make {perMinute} requests a minute.
        </p>
      </div>

      {reveal ? (
        <Notice tone="success">
          <div className="space-y-2">
            <p className="font-semibold">Copy the key “{reveal.name}” now: it will not be shown again.</p>
            <label htmlFor="new-api-key" className="block">
              Select it and copy it (Ctrl+C, or ⌘C on a Mac), then keep it somewhere safe, such as a password manager.
            </label>
            <input
              id="new-api-key"
              readOnly
              value={reveal.secret}
              onFocus={(event) => event.currentTarget.select()}
              className="w-full rounded-md border border-green-600/40 bg-white px-3 py-2 font-mono text-xs text-slate-900 dark:bg-slate-900 dark:text-slate-100"
            />
          </div>
        </Notice>
      ) : createdName ? (
        <Notice tone="warning">
          The key “{createdName}” was created and its secret shown once; it cannot be shown again. If you did not copy it, revoke the key
          and create another.
        </Notice>
      ) : null}

      {revokeErrors ? <Notice tone="error">{revokeErrors.join(" ")}</Notice> : null}

      {confirmRevoke ? (
        <section aria-labelledby="confirm-revoke" className="space-y-3 rounded-md border border-red-300 p-4 dark:border-red-800">
          <h2 id="confirm-revoke" className="text-lg font-semibold">
            Revoke “{confirmRevoke.name}”?
          </h2>
          <p className="text-sm">
            Integrations using <code>rmk_{confirmRevoke.prefix}_…</code> are refused from the next call. This cannot be undone.
          </p>
          <PostForm className="flex flex-wrap items-center gap-3">
            <input type="hidden" name="id" value={confirmRevoke.id} />
            <Button type="submit" name="intent" value="revoke" variant="danger" pending={navigation.state === "submitting"}>
              Revoke key
            </Button>
            <Link to={PAGE} className="text-sm font-medium text-slate-700 underline dark:text-slate-300">
              Cancel
            </Link>
          </PostForm>
        </section>
      ) : null}

      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Your keys</h2>
        {keys.length === 0 ? (
          <p className="text-sm text-slate-500">You have no API keys.</p>
        ) : (
          <ul className="divide-y divide-slate-100 border-y border-slate-200 text-sm dark:divide-slate-800 dark:border-slate-700">
            {keys.map((k) => (
              <li key={k.id} className="grid gap-1 py-3 sm:grid-cols-[1fr_auto] sm:items-center sm:gap-x-4">
                <div className="min-w-0 space-y-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-medium break-words">{k.name}</span>
                    <AlertPill tone={k.scope === "write" ? "warning" : "neutral"}>
                      {k.scope === "write" ? "Read and write" : "Read-only"}
                    </AlertPill>
                  </div>
                  <div className="font-mono text-xs text-slate-600 dark:text-slate-400">rmk_{k.prefix}_…</div>
                  <div className="text-xs text-slate-500">
                    Created {formatDateTime(k.createdAt, timeZone)} ·{" "}
                    {k.lastUsedAt ? `Last used ${formatDateTime(k.lastUsedAt, timeZone)}` : "Never used"}
                  </div>
                </div>
                <Link
                  to={`${PAGE}?revoke=${k.id}`}
                  className="justify-self-start text-sm font-medium text-red-700 underline sm:justify-self-end dark:text-red-400"
                  aria-label={`Revoke ${k.name}`}
                >
                  Revoke
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Create a key</h2>
        <PostForm key={form.id} {...getFormProps(form)} className="grid gap-3 sm:grid-cols-[1fr_12rem_auto] sm:items-end">
          <ErrorList id={form.errorId} errors={form.errors} />
          <Field
            label="Name"
            hint="What uses it, e.g. “Zapier”"
            {...getInputProps(fields.name, { type: "text" })}
            id={fields.name.id}
            errors={fields.name.errors}
          />
          <SelectField
            label="Access"
            {...getSelectProps(fields.scope)}
            id={fields.scope.id}
            errors={fields.scope.errors}
            options={SCOPES}
          />
          <Button type="submit" name="intent" value="create" pending={navigation.state === "submitting"}>
            Create key
          </Button>
        </PostForm>
      </section>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
