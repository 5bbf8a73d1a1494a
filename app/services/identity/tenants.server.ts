import { and, count, desc, eq, lt } from "drizzle-orm";
import type { Db, DbOrTx } from "~/db/client.server";
import { tenants, users } from "~/db/schema";
import { startTrial } from "../billing/billing-account.server";

/** Hooks other capabilities register to set up a new tenant (billing trial, defaults). */
type TenantCreatedHook = (db: DbOrTx, tenantId: string, now: Date) => Promise<void>;
const onTenantCreated: TenantCreatedHook[] = [];

export function registerTenantCreatedHook(hook: TenantCreatedHook) {
  onTenantCreated.push(hook);
}

// Registered here rather than by the billing module so every path that creates a tenant
// (sign-up, SSO, demo, tests) starts the trial without remembering a side-effect import.
registerTenantCreatedHook(startTrial);

export async function createTenant(db: DbOrTx, input: { name: string; isDemo?: boolean; timeZone?: string }, now = new Date()) {
  const [tenant] = await db
    .insert(tenants)
    .values({ name: input.name, isDemo: input.isDemo ?? false, timeZone: input.timeZone, createdAt: now })
    .returning({ id: tenants.id, name: tenants.name });
  for (const hook of onTenantCreated) await hook(db, tenant.id, now);
  return tenant;
}

export async function getTenant(db: Db, tenantId: string) {
  const [tenant] = await db
    .select({ id: tenants.id, name: tenants.name, isDemo: tenants.isDemo, timeZone: tenants.timeZone })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  return tenant ?? null;
}

/** Staff view: every tenant with its user count, newest first. */
export async function listTenantsForStaff(db: Db) {
  return db
    .select({
      id: tenants.id,
      name: tenants.name,
      isDemo: tenants.isDemo,
      createdAt: tenants.createdAt,
      users: count(users.id),
    })
    .from(tenants)
    .leftJoin(users, eq(users.tenantId, tenants.id))
    .groupBy(tenants.id)
    .orderBy(desc(tenants.createdAt))
    .limit(200);
}

/** Demo tenants older than `maxAgeMs` are deleted with everything they own (FK cascades). */
export async function deleteExpiredDemoTenants(db: Db, maxAgeMs: number, now = new Date()) {
  const cutoff = new Date(now.getTime() - maxAgeMs);
  const deleted = await db
    .delete(tenants)
    .where(and(eq(tenants.isDemo, true), lt(tenants.createdAt, cutoff)))
    .returning({ id: tenants.id });
  return deleted.length;
}
