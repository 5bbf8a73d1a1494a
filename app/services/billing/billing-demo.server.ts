import { applySubscriptionSnapshot, readBillingState } from "./billing-account.server";
import { registerDemoSeeder } from "../platform/demo.server";

// The demo agency is a paying Growth customer (local billing), so its re-marketing history and
// the quota meter look like a real agency's rather than a trial's 25 re-markets.
registerDemoSeeder(
  "billing",
  async ({ db, tenantId, now }) => {
    await readBillingState(db, tenantId);
    const periodEnd = new Date(now);
    periodEnd.setUTCMonth(periodEnd.getUTCMonth() + 1);
    await applySubscriptionSnapshot(
      db,
      tenantId,
      { id: `local_${tenantId}`, status: "active", plan: "growth", currentPeriodEnd: periodEnd, trialEnd: null },
      now,
    );
  },
  10,
);
