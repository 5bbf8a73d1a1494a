import type { DbOrTx } from "~/db/client.server";
import { notifications } from "~/db/schema";

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
