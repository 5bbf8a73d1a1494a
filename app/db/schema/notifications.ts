import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants, users } from "./identity";

/**
 * What the bell shows. `userId` null: for everyone in the tenant; set: private to that user.
 * Seed §3 names the card's fields file_name and created_at.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    title: text("title").notNull(),
    message: text("message").notNull().default(""),
    fileName: text("file_name"),
    link: text("link"),
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("notifications_tenant_idx").on(t.tenantId, t.createdAt),
    // The bell's unread count, in every signed-in page's session lookup: only unread rows are read.
    index("notifications_unread_idx")
      .on(t.tenantId, t.userId)
      .where(sql`${t.readAt} is null`),
  ],
);
