import type { Db } from "~/db/client.server";

export type Entitlements = { paid: boolean; reason?: string };

/**
 * Seed custom:paid. The billing capability derives it from the subscription; until then a
 * tenant counts as paid (it is in its trial), and every caller reads it through this function.
 */
export async function getEntitlements(_db: Db, _tenantId: string, _now = new Date()): Promise<Entitlements> {
  return { paid: true };
}
