import { eq, inArray } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { sessions, tenants, users } from "~/db/schema";
import { createDemoTenant } from "./demo-data.server";
import { registerDemoSeeder } from "./demo.server";
import { createLoginSession } from "../identity/login-sessions.server";
import { createTenant, deleteExpiredDemoTenants } from "../identity/tenants.server";

const HOUR = 3_600_000;
const TTL = 24 * HOUR;

describe("demo tenants", () => {
  test("'Try the demo' creates an isolated demo tenant with a confirmed admin and teammates", async () => {
    const db = await getDb();
    const a = await createDemoTenant(db);
    const b = await createDemoTenant(db);
    expect(a.tenantId).not.toBe(b.tenantId);
    const [tenant] = await db.select().from(tenants).where(eq(tenants.id, a.tenantId));
    expect(tenant).toMatchObject({ isDemo: true, name: "Harbor Point Insurance (demo)" });
    const members = await db.select().from(users).where(eq(users.tenantId, a.tenantId));
    expect(members).toHaveLength(3);
    expect(members.find((m) => m.id === a.id)).toMatchObject({ role: "admin", passwordHash: null });
    expect(members.every((m) => m.emailVerifiedAt !== null)).toBe(true);
  });

  test("registered seeders fill the demo tenant, in order, inside its transaction", async () => {
    const db = await getDb();
    const calls: string[] = [];
    registerDemoSeeder("test-late", async ({ tenantId }) => void calls.push(`late:${tenantId}`), 900);
    registerDemoSeeder("test-early", async ({ tenantId }) => void calls.push(`early:${tenantId}`), 1);
    const user = await createDemoTenant(db);
    const mine = calls.filter((c) => c.endsWith(user.tenantId));
    expect(mine).toEqual([`early:${user.tenantId}`, `late:${user.tenantId}`]);
  });

  test("cleanup deletes only demo tenants older than the TTL, with everything they own", async () => {
    const db = await getDb();
    const now = new Date();
    const old = await createDemoTenant(db, new Date(now.getTime() - TTL - HOUR));
    const fresh = await createDemoTenant(db, new Date(now.getTime() - TTL + HOUR));
    const oldReal = await createTenant(db, { name: "Old real agency" }, new Date(now.getTime() - 30 * TTL));
    const { token } = await createLoginSession(db, { userId: old.id, tenantId: old.tenantId });
    expect(token).toBeTruthy();

    const deleted = await deleteExpiredDemoTenants(db, TTL, now);
    expect(deleted).toBeGreaterThanOrEqual(1);
    const left = await db
      .select({ id: tenants.id })
      .from(tenants)
      .where(inArray(tenants.id, [old.tenantId, fresh.tenantId, oldReal.id]));
    expect(left.map((t) => t.id).sort()).toEqual([fresh.tenantId, oldReal.id].sort());
    expect(await db.select().from(users).where(eq(users.tenantId, old.tenantId))).toHaveLength(0);
    expect(await db.select().from(sessions).where(eq(sessions.tenantId, old.tenantId))).toHaveLength(0);
  });
});
