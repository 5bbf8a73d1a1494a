import { and, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "~/db/client.server";
import { featureFlagOverrides } from "~/db/schema";
import { getEnv } from "~/env.server";
import { KNOWN_FLAGS, type FlagName } from "~/utils/feature-flag-names";

export { KNOWN_FLAGS, type FlagName };
export type Flags = Record<FlagName, boolean>;

/** Defaults from FEATURE_FLAGS ("billing,-other": listed means on, a leading '-' means off). */
export function defaultFlags(): Flags {
  const listed = getEnv()
    .FEATURE_FLAGS.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const flags = Object.fromEntries(KNOWN_FLAGS.map((f) => [f, false])) as Flags;
  for (const entry of listed) {
    const name = entry.replace(/^-/, "") as FlagName;
    if (name in flags) flags[name] = !entry.startsWith("-");
  }
  return flags;
}

/** The tenant's flags: env defaults with its overrides applied. */
export async function getFlags(db: Db, tenantId: string): Promise<Flags> {
  const overrides = await db
    .select({ flag: featureFlagOverrides.flag, enabled: featureFlagOverrides.enabled })
    .from(featureFlagOverrides)
    .where(eq(featureFlagOverrides.tenantId, tenantId));
  return applyFlagOverrides(Object.fromEntries(overrides.map((o) => [o.flag, o.enabled])));
}

/** Env defaults with `overrides` (flag → enabled) applied; unknown flags are ignored. */
export function applyFlagOverrides(overrides: Record<string, boolean>): Flags {
  const flags = defaultFlags();
  for (const [flag, enabled] of Object.entries(overrides)) if (flag in flags) flags[flag as FlagName] = enabled;
  return flags;
}

/** Set or clear (enabled = null) a tenant's override. */
export async function setFlagOverride(db: DbOrTx, tenantId: string, flag: FlagName, enabled: boolean | null) {
  if (enabled === null) {
    await db.delete(featureFlagOverrides).where(and(eq(featureFlagOverrides.tenantId, tenantId), eq(featureFlagOverrides.flag, flag)));
    return;
  }
  await db
    .insert(featureFlagOverrides)
    .values({ tenantId, flag, enabled })
    .onConflictDoUpdate({
      target: [featureFlagOverrides.tenantId, featureFlagOverrides.flag],
      set: { enabled, updatedAt: new Date() },
    });
}
