import type { Db } from "~/db/client.server";
import { getEntitlements } from "./entitlements.server";
import { getFlags } from "./feature-flags.server";
import { countUnread } from "./notifications.server";
import type { SessionUser } from "./login-sessions.server";
import { isStaffEmail } from "./staff.server";

/**
 * What every signed-in page's chrome needs (flags, paid state, counts for the header).
 * Capabilities add their counts here (unread notifications…).
 */
export async function getShellData(db: Db, auth: SessionUser) {
  const [flags, entitlements, unreadNotifications] = await Promise.all([
    getFlags(db, auth.tenant.id),
    getEntitlements(db, auth.tenant.id),
    countUnread(db, { tenantId: auth.tenant.id, userId: auth.user.id }),
  ]);
  return {
    flags,
    paid: entitlements.paid,
    unpaidReason: entitlements.reason ?? null,
    isStaff: isStaffEmail(auth.user.email),
    unreadNotifications,
  };
}
