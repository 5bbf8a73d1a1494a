import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { PostForm, AlertPill, Notice, Button } from "~/components/shell";
import { Pagination } from "~/components/pagination";
import { ListTable, rowClass, StatusTabs } from "~/components/renewals-ui";
import { TASKS_PAGE_SIZE, listTasks, setTaskStatus } from "~/services/renewals/tasks.server";
import { requireTenantContext } from "~/utils/auth.server";
import { applyFormOnce } from "~/utils/forms.server";
import { pageCountFor, readPage } from "~/utils/pagination";
import { replyWithServiceError } from "~/utils/submission.server";
import { redirectWithToast } from "~/utils/toast.server";
import { formatDate } from "~/utils/format";

export const meta: MetaFunction = () => [{ title: "Tasks | Remarket" }];

export const handle = { description: "Follow-up tasks for re-marketed renewals, by assignee and due date." };

const StatusSchema = z.enum(["open", "done", "all"]).catch("open");
const TaskActionSchema = z.object({ intent: z.enum(["done", "reopen"]), taskId: z.string().uuid() });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const url = new URL(request.url);
  const status = StatusSchema.parse(url.searchParams.get("status") ?? undefined);
  const page = readPage(url);
  const list = await listTasks(ctx, { status, page });
  return { ...list, status, page, pageCount: pageCountFor(list.total, TASKS_PAGE_SIZE) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: TaskActionSchema });
  // Only buttons and a hidden id: input that does not parse names no task of this agency.
  if (submission.status !== "success") throw new Response("Task not found", { status: 404 });
  const { intent, taskId } = submission.value;
  const url = new URL(request.url);
  try {
    return await applyFormOnce(request, formData, async () => {
      await setTaskStatus(ctx, taskId, intent === "done" ? "done" : "open");
      return redirectWithToast(`${url.pathname}${url.search}`, {
        type: "success",
        message: intent === "done" ? "Task marked done." : "Task reopened.",
      });
    });
  } catch (error) {
    return replyWithServiceError(submission, error);
  }
}

const WRITEBACK: Record<string, string> = {
  none: "Export as CSV",
  queued: "Sending to AMS",
  done: "In AMS",
  failed: "Not sent",
  skipped: "Export as CSV",
};

export default function TasksPage() {
  const { rows, status, page, pageCount } = useLoaderData<typeof loader>();
  const formErrors = useActionData<typeof action>()?.error?.[""];
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">Tasks</h1>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            Follow-ups created when a policy is re-marketed, per your task-creation settings.
          </p>
        </div>
        <a
          href="/tasks/export.csv"
          className="rounded-md px-3.5 py-2 text-sm font-semibold ring-1 ring-inset ring-slate-300 hover:bg-slate-50 dark:ring-slate-600"
          download
        >
          Download open tasks (CSV)
        </a>
      </div>
      {formErrors ? <Notice tone="error">{formErrors.join(" ")}</Notice> : null}
      <StatusTabs
        label="Task status"
        basePath="/tasks"
        current={status}
        options={[
          { value: "open", label: "Open" },
          { value: "done", label: "Done" },
          { value: "all", label: "All" },
        ]}
      />
      <ListTable
        testId="tasks"
        columns={[
          { label: "Task" },
          { label: "Assignee" },
          { label: "Activity / work group" },
          { label: "Due" },
          { label: "Status" },
          { label: "AMS" },
          { label: "Actions", srOnly: true },
        ]}
        empty={rows.length === 0 ? "No tasks here yet. Re-marketing a policy creates one." : null}
      >
        {rows.map((t) => (
          <tr key={t.id} className={rowClass}>
            <td className="px-3 py-2">
              {t.title}
              {t.customerId ? (
                <div className="text-xs">
                  <Link to={`/customers/${t.customerId}`} className="text-brand-600 hover:underline">
                    {t.customerName}
                  </Link>
                  {t.remarketId ? (
                    <>
                      {" · "}
                      <Link to={`/quotes/${t.remarketId}`} className="text-brand-600 hover:underline">
                        Quotes
                      </Link>
                    </>
                  ) : null}
                </div>
              ) : null}
            </td>
            <td className="pr-3">{t.assignee ?? <span className="text-slate-500">Unassigned</span>}</td>
            <td className="pr-3 text-xs">
              {t.activityCode ?? "—"} / {t.workGroup ?? "—"}
            </td>
            <td className="whitespace-nowrap pr-3">{formatDate(t.dueDate)}</td>
            <td className="pr-3">
              <AlertPill tone={t.status === "done" ? "success" : "warning"}>{t.status === "done" ? "Done" : "Open"}</AlertPill>
            </td>
            <td className="pr-3 text-xs">
              {WRITEBACK[t.writeback]}
              {t.writeback === "done" && t.writebackExternalId ? (
                <span className="block text-slate-500">{t.writebackExternalId}</span>
              ) : null}
              {t.writeback === "failed" && t.writebackError ? <span className="block text-red-700">{t.writebackError}</span> : null}
            </td>
            <td className="pr-3">
              <PostForm>
                <input type="hidden" name="taskId" value={t.id} />
                {t.status === "open" ? (
                  <Button
                    type="submit"
                    name="intent"
                    value="done"
                    variant="secondary"
                    className="whitespace-nowrap"
                    aria-label={`Mark done: ${t.title}`}
                  >
                    Mark done
                  </Button>
                ) : (
                  <Button type="submit" name="intent" value="reopen" variant="ghost" aria-label={`Reopen: ${t.title}`}>
                    Reopen
                  </Button>
                )}
              </PostForm>
            </td>
          </tr>
        ))}
      </ListTable>
      <Pagination page={page} pageCount={pageCount} />
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
