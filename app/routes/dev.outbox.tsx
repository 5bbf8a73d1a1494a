import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { formatDateTime } from "~/utils/format";
import { getDb } from "~/db/client.server";
import { listOutbox } from "~/services/platform/email.server";
import { outboxOpenTo } from "~/utils/dev-outbox.server";
import { singleLineText } from "~/utils/schemas";

export const meta: MetaFunction = () => [{ title: "Development outbox | Remarket" }];

/**
 * Mail that would have been sent, for a laptop without a mail server. It holds every agency's
 * sign-up and reset codes, so anyone else gets the same 404 as a missing page (decision record 003).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!outboxOpenTo(request, context)) throw new Response("Not found", { status: 404 });
  const to =
    singleLineText()
      .catch("")
      .parse(new URL(request.url).searchParams.get("to") ?? "") || undefined;
  const emails = await listOutbox(await getDb(), { to });
  return { emails: emails.map((e) => ({ ...e, createdAt: formatDateTime(e.createdAt) })) };
}

export default function OutboxPage() {
  const { emails } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-3xl space-y-4 px-4 py-8">
      <h1 className="text-2xl font-bold">Development outbox</h1>
      <p className="text-sm text-slate-600">
        No mail server is configured, so e-mails land here (newest first). Set SMTP_URL to send real mail.
      </p>
      {emails.length === 0 ? <p>No e-mails yet.</p> : null}
      <ul className="space-y-3">
        {emails.map((e) => (
          <li key={e.id} className="rounded-md bg-white p-4 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900" data-testid="outbox-email">
            <p className="text-xs text-slate-500">{e.createdAt}</p>
            <p className="text-sm">
              To: <span data-testid="outbox-to">{e.to}</span>
            </p>
            <p className="font-semibold">{e.subject}</p>
            <pre className="mt-2 whitespace-pre-wrap text-sm" data-testid="outbox-text">
              {e.text}
            </pre>
          </li>
        ))}
      </ul>
    </main>
  );
}
