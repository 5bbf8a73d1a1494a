import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ClientActionFunctionArgs } from "@remix-run/react";
import { data, redirect } from "@remix-run/node";
import { Link, useLoaderData, useLocation, type ShouldRevalidateFunction } from "@remix-run/react";
import { z } from "zod";
import { PostForm, Button } from "~/components/shell";
import { NotificationCard } from "~/components/notification-card";
import { Pagination } from "~/components/pagination";
import { isServiceError } from "~/services/platform/errors.server";
import {
  NOTIFICATIONS_PAGE_SIZE,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
} from "~/services/platform/notifications.server";
import { requireTenantContext } from "~/utils/auth.server";
import { dayKey, dayLabel } from "~/utils/date-time";
import { applyFormOnce } from "~/utils/forms.server";
import { isConnectionError } from "~/utils/network";
import { pageCountFor, readPage } from "~/utils/pagination";
import { safeRedirect } from "~/utils/redirect";
import { redirectWithToast } from "~/utils/toast.server";
import { cn } from "~/utils/cn";
import { formatDateTime } from "~/utils/format";

export const meta: MetaFunction = () => [{ title: "Notifications | Remarket" }];

export const handle = { description: "Import results, quota alerts and other notices for your agency." };

const ActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("read"), id: z.string(), via: z.string().optional(), redirectTo: z.string().optional() }),
  z.object({ intent: z.literal("read-all"), redirectTo: z.string().optional() }),
]);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const url = new URL(request.url);
  const filter = url.searchParams.get("filter") === "read" ? "read" : "unread";
  const page = readPage(url);
  const tz = ctx.auth.tenant.timeZone;
  const { notifications, total } = await listNotifications(ctx, { filter, page });
  const now = new Date();
  const groups: { key: string; label: string; items: ReturnType<typeof toItem>[] }[] = [];
  function toItem(n: (typeof notifications)[number]) {
    return {
      id: n.id,
      title: n.title,
      message: n.message,
      fileName: n.fileName,
      link: n.link,
      kind: n.kind,
      read: n.readAt !== null,
      createdAt: formatDateTime(n.createdAt, tz),
      createdAtIso: n.createdAt.toISOString(),
    };
  }
  for (const n of notifications) {
    const key = dayKey(n.createdAt, tz);
    let group = groups.at(-1);
    if (!group || group.key !== key) groups.push((group = { key, label: dayLabel(key, now, tz), items: [] }));
    group.items.push(toItem(n));
  }
  return { filter, groups, total, page, pageCount: pageCountFor(total, NOTIFICATIONS_PAGE_SIZE) };
}

/**
 * Seed §4 mark as read (files/update-read-status), and mark all as read. The answer is the card
 * fetcher's `{ ok }`, not a form reply: these forms are a button with hidden fields, and on a
 * failure the seed re-reads the list without a message.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: ActionSchema });
  if (submission.status !== "success") return data({ ok: false }, { status: 400 });
  const input = submission.value;
  const back = safeRedirect(input.redirectTo ?? "/notifications", "/notifications");
  if (input.intent === "read-all") {
    return applyFormOnce(request, formData, async () => {
      const n = await markAllNotificationsRead(ctx);
      return redirectWithToast(back, {
        type: "success",
        title: "All caught up",
        message: `${n} notification${n === 1 ? "" : "s"} marked as read.`,
      });
    });
  }
  try {
    await markNotificationRead(ctx, input.id);
  } catch (error) {
    // Another tenant's or another user's notification looks like a missing one.
    if (isServiceError(error) && error.status === 404) return data({ ok: false }, { status: 404 });
    throw error;
  }
  // The fetcher fades the card out itself; a plain form comes back to the list without it.
  return input.via === "fetcher" ? data({ ok: true }) : redirect(back);
}

/**
 * Seed §9 failed mark-as-read: re-read the list, no message. The card's request is marked to
 * fail at once (not held for a retry), and a lost answer comes back as `{ ok: false }`, which the
 * card answers by re-reading the list: the card stays if it was not marked, goes if it was.
 */
export async function clientAction({ serverAction }: ClientActionFunctionArgs) {
  try {
    return await serverAction<typeof action>();
  } catch (error) {
    if (isConnectionError(error)) return { ok: false };
    throw error;
  }
}

/** Keep the card on screen while it fades: the list is re-read after the fade instead. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) => {
  if (formData?.get("intent") === "read" && formData.get("via") === "fetcher") return false;
  return defaultShouldRevalidate;
};

export default function NotificationsPage() {
  const { filter, groups, total, page, pageCount } = useLoaderData<typeof loader>();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">Notifications</h1>
          <p className="text-sm text-slate-600 dark:text-slate-300">Files that finished processing or failed.</p>
        </div>
        {filter === "unread" && total > 0 ? (
          <PostForm>
            <input type="hidden" name="intent" value="read-all" />
            <input type="hidden" name="redirectTo" value={here} />
            <Button type="submit" variant="secondary">
              Mark all as read
            </Button>
          </PostForm>
        ) : null}
      </div>
      <nav className="flex gap-2" aria-label="Filter notifications">
        {(["unread", "read"] as const).map((f) => (
          <Link
            key={f}
            to={f === "unread" ? "/notifications" : "/notifications?filter=read"}
            aria-current={filter === f ? "page" : undefined}
            className={cn(
              "rounded-md px-3 py-1.5 text-sm font-medium ring-1 ring-inset ring-slate-300 dark:ring-slate-600",
              filter === f && "bg-brand-600 text-white ring-brand-600",
            )}
          >
            {f === "unread" ? "Unread" : "Read"}
          </Link>
        ))}
      </nav>
      {groups.length === 0 ? (
        <p className="rounded-lg bg-white p-6 text-sm text-slate-600 ring-1 ring-slate-200 dark:bg-slate-900 dark:text-slate-300 dark:ring-slate-800">
          {filter === "unread" ? "You are all caught up." : "No read notifications yet."}
        </p>
      ) : (
        groups.map((group) => (
          <section key={group.key} aria-label={group.label} className="space-y-2">
            <h2 className="text-sm font-semibold text-slate-500">{group.label}</h2>
            {group.items.map((n) => (
              <NotificationCard key={n.id} notification={n} redirectTo={here} />
            ))}
          </section>
        ))
      )}
      <Pagination page={page} pageCount={pageCount} />
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
