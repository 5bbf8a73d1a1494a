import { and, count, eq, isNotNull, isNull, or } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { notifications } from "~/db/schema";
import { LIST_LIMIT_DEFAULT, listSort, type SortOf } from "~/utils/cursor.server";
import { clock, type TenantContext } from "./context.server";
import { NotFoundError } from "./errors.server";

export type NotifyInput = {
  tenantId: string;
  /** Null or absent: everyone in the tenant sees it. */
  userId?: string | null;
  kind: string;
  title: string;
  message?: string;
  fileName?: string | null;
  link?: string | null;
};

/** Raise a notification (file processed, import finished, payment failed…). */
export async function notify(db: DbOrTx, input: NotifyInput, now = new Date()) {
  const [row] = await db
    .insert(notifications)
    .values({
      tenantId: input.tenantId,
      userId: input.userId ?? null,
      kind: input.kind,
      title: input.title,
      message: input.message ?? "",
      fileName: input.fileName ?? null,
      link: input.link ?? null,
      createdAt: now,
    })
    .returning({ id: notifications.id });
  return row.id;
}

/** Who sees a notification: everyone in its tenant when userId is null, else only that user. */
function visibleTo(ctx: { tenantId: string; userId: string }) {
  return and(eq(notifications.tenantId, ctx.tenantId), or(isNull(notifications.userId), eq(notifications.userId, ctx.userId)))!;
}

/** Unread notifications for the header bell. */
export async function countUnread(db: DbOrTx, ctx: { tenantId: string; userId: string }) {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(visibleTo(ctx), isNull(notifications.readAt)));
  return Number(row?.n ?? 0);
}

export const NOTIFICATIONS_PAGE_SIZE = 20;

/** The notification list's order: newest first (notifications_tenant_idx) unless asked, ties by id. */
export const NOTIFICATION_SORT = listSort({
  fields: { createdAt: { expr: notifications.createdAt, kind: "timestamp" } },
  then: [{ expr: notifications.id, kind: "uuid", descending: true }],
  default: "-createdAt",
});

/**
 * The user's notifications, newest first: unread (default) or read (seed files/file-user-information),
 * by page or, for the API, `limit` rows after `cursor` in a NOTIFICATION_SORT order.
 */
export async function listNotifications(
  ctx: TenantContext,
  input: { filter: "unread" | "read"; page: number; limit?: number; cursor?: string; sort?: SortOf<typeof NOTIFICATION_SORT> },
) {
  const where = and(visibleTo(ctx), input.filter === "read" ? isNotNull(notifications.readAt) : isNull(notifications.readAt));
  const keyset = input.limit !== undefined || input.cursor !== undefined;
  const size = keyset ? (input.limit ?? LIST_LIMIT_DEFAULT) : NOTIFICATIONS_PAGE_SIZE;
  const sort = input.sort ?? NOTIFICATION_SORT.default;
  const [{ total }] = await ctx.db.select({ total: count() }).from(notifications).where(where);
  const rows = await ctx.db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      title: notifications.title,
      message: notifications.message,
      fileName: notifications.fileName,
      link: notifications.link,
      readAt: notifications.readAt,
      createdAt: notifications.createdAt,
      cursorKey: NOTIFICATION_SORT.key(sort),
    })
    .from(notifications)
    .where(and(where, NOTIFICATION_SORT.after(sort, input.cursor)))
    .orderBy(...NOTIFICATION_SORT.orderBy(sort))
    .limit(size + 1)
    .offset(keyset ? 0 : (input.page - 1) * NOTIFICATIONS_PAGE_SIZE);
  const page = NOTIFICATION_SORT.page(rows, size, sort);
  return { total: Number(total), nextCursor: page.nextCursor, notifications: page.rows };
}

/** Mark one notification read (seed files/update-read-status); another tenant's or user's → 404. */
export async function markNotificationRead(ctx: TenantContext, id: string) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw new NotFoundError("Notification not found");
  const [row] = await ctx.db
    .update(notifications)
    .set({ readAt: clock(ctx) })
    .where(and(eq(notifications.id, id), visibleTo(ctx)))
    .returning({ id: notifications.id });
  if (!row) throw new NotFoundError("Notification not found");
}

/** Mark every unread notification the user can see as read; returns how many. */
export async function markAllNotificationsRead(ctx: TenantContext) {
  const rows = await ctx.db
    .update(notifications)
    .set({ readAt: clock(ctx) })
    .where(and(visibleTo(ctx), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length;
}

/** Mark the user's unread notifications about one file read (seed files/update-read-status with file_name); returns how many. */
export async function markFileNotificationsRead(ctx: TenantContext, fileName: string) {
  const rows = await ctx.db
    .update(notifications)
    .set({ readAt: clock(ctx) })
    .where(and(visibleTo(ctx), isNull(notifications.readAt), eq(notifications.fileName, fileName)))
    .returning({ id: notifications.id });
  return rows.length;
}
