import type { Db, DbOrTx } from "~/db/client.server";
import { users } from "~/db/schema";
import { randomToken } from "~/utils/crypto.server";
import type { AuthedUser } from "../identity/accounts.server";
import { createTenant } from "../identity/tenants.server";

export type DemoSeedContext = { db: DbOrTx; tenantId: string; userId: string; now: Date };
type DemoSeeder = { name: string; order: number; seed: (ctx: DemoSeedContext) => Promise<void> };

const seeders: DemoSeeder[] = [];

/**
 * Each capability adds its sample data here (connections, customers, policies, files…);
 * `order` lets data that others build on (customers before quotes) go first.
 */
export function registerDemoSeeder(name: string, seed: DemoSeeder["seed"], order = 100) {
  if (seeders.some((s) => s.name === name)) return;
  seeders.push({ name, seed, order });
  seeders.sort((a, b) => a.order - b.order);
}

const TEAMMATES = [
  { name: "Maria Lopez", role: "staff" as const, local: "maria.lopez" },
  { name: "James Carter", role: "staff" as const, local: "james.carter" },
];

/** "Try the demo": an isolated tenant with sample data and a signed-in demo admin. */
export async function createDemoTenant(db: Db, now = new Date()): Promise<AuthedUser> {
  const suffix = randomToken(6)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "x");
  return db.transaction(async (tx) => {
    const tenant = await createTenant(tx, { name: "Harbor Point Insurance (demo)", isDemo: true }, now);
    const [user] = await tx
      .insert(users)
      .values({
        tenantId: tenant.id,
        email: `demo-${suffix}@demo.remarket.test`,
        name: "Dana Whitfield",
        role: "admin",
        emailVerifiedAt: now,
        createdAt: now,
      })
      .returning({ id: users.id, tenantId: users.tenantId, email: users.email, name: users.name });
    await tx.insert(users).values(
      TEAMMATES.map((t) => ({
        tenantId: tenant.id,
        email: `${t.local}-${suffix}@demo.remarket.test`,
        name: t.name,
        role: t.role,
        emailVerifiedAt: now,
        createdAt: now,
      })),
    );
    for (const seeder of seeders) await seeder.seed({ db: tx, tenantId: tenant.id, userId: user.id, now });
    return user;
  });
}
