import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { apiKeys } from "~/db/schema";
import { sha256 } from "~/utils/crypto.server";
import { createApiKey, resolveApiKey } from "./api-keys.server";
import { createTestTenant } from "../../../tests/support/factories";

const at = (start: Date, ms: number) => new Date(start.getTime() + ms);

describe("API keys", () => {
  test("the secret is rmk_<prefix>_<secret>; only its hash is stored", async () => {
    const { ctx, db } = await createTestTenant();
    const key = await createApiKey(ctx, { name: "Zapier", scope: "write" });
    expect(key.secret).toMatch(/^rmk_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{43}$/);
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row.prefix).toBe(key.prefix);
    expect(row.secretHash).toBe(sha256(key.secret.split("_").slice(2).join("_")));
    expect(JSON.stringify(row)).not.toContain(key.secret.slice(13));
  });

  test("the last-used time is written at most once a minute", async () => {
    const { ctx, db, user, tenant } = await createTestTenant();
    const key = await createApiKey(ctx, { name: "Poller", scope: "read" });
    const lastUsed = async () => (await db.select({ at: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, key.id)))[0].at;
    const start = new Date();

    expect(await resolveApiKey(db, key.secret, start)).toMatchObject({ scope: "read", user: { id: user.id }, tenant: { id: tenant.id } });
    expect(await lastUsed()).toEqual(start);
    await resolveApiKey(db, key.secret, at(start, 30_000));
    expect(await lastUsed()).toEqual(start);
    await resolveApiKey(db, key.secret, at(start, 61_000));
    expect(await lastUsed()).toEqual(at(start, 61_000));
  });

  test("a right prefix with a wrong secret is refused", async () => {
    const { ctx, db } = await createTestTenant();
    const key = await createApiKey(ctx, { name: "Guess", scope: "read" });
    expect(await resolveApiKey(db, `rmk_${key.prefix}_${"A".repeat(43)}`)).toBeNull();
  });
});
