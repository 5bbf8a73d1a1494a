import { describe, test } from "vitest";
import { addTestUser } from "../../../tests/support/factories";
import { expectTenantScoped, ids, sorted, twoTenants, type SeedTarget } from "../../../tests/support/tenant-scope";
import { createLoginSession, resolveSession } from "../identity/login-sessions.server";
import { countUnread, listNotifications, markAllNotificationsRead, markNotificationRead, notify } from "./notifications.server";

type Seed = { unreadIds: string[]; readIds: string[] };

/** Tenant-wide and personal notifications, some read, and one for a colleague (not the user's to see). */
async function seedNotifications(t: SeedTarget): Promise<Seed> {
  const colleague = await addTestUser(t.tenant.id);
  const raise = (userId: string | null, n: number) =>
    notify(t.db, { tenantId: t.tenant.id, userId, kind: "test", title: `Scope ${t.tag} ${n}` });
  const unreadIds: string[] = [];
  for (let i = 0; i < 2 + t.index; i++) unreadIds.push(await raise(null, i));
  unreadIds.push(await raise(t.user.id, 10));
  await raise(colleague.user.id, 20);
  const readIds: string[] = [];
  for (let i = 0; i < 1 + t.index; i++) {
    const id = await raise(null, 30 + i);
    await markNotificationRead(t.ctx, id);
    readIds.push(id);
  }
  return { unreadIds, readIds };
}

// The bell's count, the notifications page and mark-all-read touch only the tenant's own.
describe("notifications: tenant scope", () => {
  test("listNotifications (unread and read), countUnread and the session's unread count", async () => {
    const pair = await twoTenants(seedNotifications);
    await expectTenantScoped(
      pair,
      async (me) => {
        const { token } = await createLoginSession(me.db, { userId: me.user.id, tenantId: me.tenant.id });
        return {
          unread: await listNotifications(me.ctx, { filter: "unread", page: 1 }),
          read: await listNotifications(me.ctx, { filter: "read", page: 1 }),
          count: await countUnread(me.db, me.ctx),
          session: (await resolveSession(me.db, token))?.chrome.unreadNotifications,
        };
      },
      (r) => ({
        unread: ids(r.unread.notifications),
        unreadTotal: r.unread.total,
        read: ids(r.read.notifications),
        readTotal: r.read.total,
        count: r.count,
        session: r.session,
      }),
      (me) => ({
        unread: sorted(me.seed.unreadIds),
        unreadTotal: me.seed.unreadIds.length,
        read: sorted(me.seed.readIds),
        readTotal: me.seed.readIds.length,
        count: me.seed.unreadIds.length,
        session: me.seed.unreadIds.length,
      }),
    );
  });

  test("mark all as read marks (and counts) only the tenant's own", async () => {
    const pair = await twoTenants(seedNotifications);
    // Tenant A marks first: had it reached B's rows, A's count would include them and B's would be 0.
    await expectTenantScoped(
      pair,
      async (me) => ({ marked: await markAllNotificationsRead(me.ctx), left: await countUnread(me.db, me.ctx) }),
      (r) => r,
      (me) => ({ marked: me.seed.unreadIds.length, left: 0 }),
    );
  });
});
