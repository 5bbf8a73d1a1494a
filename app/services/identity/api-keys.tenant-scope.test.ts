import { describe, expect, test } from "vitest";
import { expectTenantScoped, ids, sorted, twoTenants } from "../../../tests/support/tenant-scope";
import { createApiKey, listApiKeys, revokeApiKey } from "./api-keys.server";

// Settings ▸ API keys: each agency (and each user in it) sees and revokes only its own keys.
describe("API keys: tenant scope", () => {
  test("the list is the agency's own, and another agency's key cannot be revoked by id", async () => {
    const pair = await twoTenants(async (t) => {
      const keyIds = [];
      for (let i = 0; i <= t.index; i++) keyIds.push((await createApiKey(t.ctx, { name: `key ${t.tag} ${i}`, scope: "read" })).id);
      return { keyIds };
    });
    await expectTenantScoped(
      pair,
      (me) => listApiKeys(me.ctx),
      (keys) => ids(keys),
      (me) => sorted(me.seed.keyIds),
    );
    const [a, b] = pair;
    await expect(revokeApiKey(a.ctx, b.seed.keyIds[0])).rejects.toMatchObject({ status: 404 });
    expect(ids(await listApiKeys(b.ctx))).toEqual(sorted(b.seed.keyIds));
  });
});
