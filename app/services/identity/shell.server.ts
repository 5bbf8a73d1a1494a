import type { Db } from "~/db/client.server";
import { getEnv } from "~/env.server";
import type { SubscriptionStatus } from "~/db/schema";
import { derivePaid, getEntitlements } from "../billing/entitlements.server";
import { applyFlagOverrides } from "./feature-flags.server";
import type { SessionUser } from "./login-sessions.server";
import { isStaffEmail } from "./staff.server";

/**
 * What every signed-in page's chrome needs (flags, paid state, counts for the header). The
 * session lookup read the facts in its one statement, so a page costs no extra round trip;
 * only a tenant that predates billing goes through getEntitlements (which opens its trial).
 */
export async function getShellData(db: Db, auth: SessionUser, now = new Date()) {
  const { billing, unreadNotifications } = auth.chrome;
  const entitlements = billing
    ? derivePaid(
        {
          trialEndsAt: billing.trialEndsAt,
          trialPeriodOver: billing.trialPeriodOver,
          timeZone: auth.tenant.timeZone,
          subscription: billing.subscriptionStatus
            ? { status: billing.subscriptionStatus as SubscriptionStatus, pastDueSince: billing.pastDueSince }
            : null,
        },
        now,
        getEnv().GRACE_PERIOD_DAYS,
      )
    : await getEntitlements(db, auth.tenant.id, now);
  return {
    flags: applyFlagOverrides(auth.tenant.flagOverrides),
    paid: entitlements.paid,
    unpaidReason: entitlements.reason ?? null,
    isStaff: isStaffEmail(auth.user.email),
    unreadNotifications,
  };
}
