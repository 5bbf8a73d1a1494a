import { inArray } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { idempotencyKeys, rateLimits, refreshTokens, sessions, verificationCodes } from "~/db/schema";
import { createTestTenant } from "../../../tests/support/factories";
import { pruneSpentRecords } from "./housekeeping.server";

const DAY = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms);

describe("pruning spent records", () => {
  test("removes old form tokens, rate-limit windows, ended sessions and used codes; keeps live ones", async () => {
    const { db, user, tenant } = await createTestTenant();
    const tag = crypto.randomUUID();
    await db.insert(idempotencyKeys).values([
      { key: `old-${tag}`, status: "done", createdAt: ago(2 * DAY) },
      { key: `new-${tag}`, status: "done", createdAt: ago(60_000) },
    ]);
    await db.insert(rateLimits).values([
      { key: `old-${tag}`, windowStart: ago(2 * DAY), count: 3 },
      { key: `new-${tag}`, windowStart: ago(60_000), count: 3 },
    ]);
    const session = (id: string, fields: Partial<typeof sessions.$inferInsert>) => ({
      id: `${id}-${tag}`,
      userId: user.id,
      tenantId: tenant.id,
      expiresAt: new Date(Date.now() + DAY),
      idleExpiresAt: new Date(Date.now() + 60_000),
      ...fields,
    });
    await db
      .insert(sessions)
      .values([
        session("expired", { expiresAt: ago(8 * DAY), idleExpiresAt: ago(8 * DAY) }),
        session("idle", { idleExpiresAt: ago(8 * DAY) }),
        session("revoked", { revokedAt: ago(8 * DAY) }),
        session("recently-revoked", { revokedAt: ago(DAY) }),
        session("live", {}),
      ]);
    const codes = await db
      .insert(verificationCodes)
      .values([
        { userId: user.id, purpose: "signup", codeHash: "x", expiresAt: ago(8 * DAY) },
        { userId: user.id, purpose: "reset", codeHash: "y", expiresAt: new Date(Date.now() + 600_000) },
      ])
      .returning({ id: verificationCodes.id });

    const pruned = await pruneSpentRecords(db);
    expect(pruned.idempotencyKeys).toBeGreaterThanOrEqual(1);
    expect(pruned.sessions).toBeGreaterThanOrEqual(3);

    const keys = await db
      .select({ key: idempotencyKeys.key })
      .from(idempotencyKeys)
      .where(inArray(idempotencyKeys.key, [`old-${tag}`, `new-${tag}`]));
    expect(keys.map((k) => k.key)).toEqual([`new-${tag}`]);
    const limits = await db
      .select({ key: rateLimits.key })
      .from(rateLimits)
      .where(inArray(rateLimits.key, [`old-${tag}`, `new-${tag}`]));
    expect(limits.map((k) => k.key)).toEqual([`new-${tag}`]);
    const left = await db
      .select({ id: sessions.id })
      .from(sessions)
      .where(
        inArray(
          sessions.id,
          ["expired", "idle", "revoked", "recently-revoked", "live"].map((s) => `${s}-${tag}`),
        ),
      );
    expect(left.map((s) => s.id).sort()).toEqual([`live-${tag}`, `recently-revoked-${tag}`]);
    const codesLeft = await db
      .select({ id: verificationCodes.id })
      .from(verificationCodes)
      .where(
        inArray(
          verificationCodes.id,
          codes.map((c) => c.id),
        ),
      );
    expect(codesLeft.map((c) => c.id)).toEqual([codes[1].id]);
  });

  test("removes expired and long-revoked refresh tokens; keeps a spent one until it would expire", async () => {
    const { db, user, tenant } = await createTestTenant();
    const tag = crypto.randomUUID();
    const token = (id: string, fields: Partial<typeof refreshTokens.$inferInsert>) => ({
      id: `${id}-${tag}`,
      familyId: crypto.randomUUID(),
      userId: user.id,
      tenantId: tenant.id,
      expiresAt: new Date(Date.now() + DAY),
      ...fields,
    });
    await db
      .insert(refreshTokens)
      .values([
        token("expired", { expiresAt: ago(8 * DAY) }),
        token("revoked", { revokedAt: ago(8 * DAY) }),
        token("spent", { spentAt: ago(8 * DAY) }),
        token("live", {}),
      ]);
    const pruned = await pruneSpentRecords(db);
    expect(pruned.refreshTokens).toBeGreaterThanOrEqual(2);
    const left = await db
      .select({ id: refreshTokens.id })
      .from(refreshTokens)
      .where(
        inArray(
          refreshTokens.id,
          ["expired", "revoked", "spent", "live"].map((s) => `${s}-${tag}`),
        ),
      );
    expect(left.map((t) => t.id).sort()).toEqual([`live-${tag}`, `spent-${tag}`]);
  });
});
