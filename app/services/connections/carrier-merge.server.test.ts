import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { policies } from "~/db/schema";
import { createCustomer, createPolicy } from "../../../tests/support/book-factories";
import { createTestTenant } from "../../../tests/support/factories";
import { getRemarket, saveQuote, selectQuote } from "../renewals/quotes.server";
import { remarketPolicy } from "../renewals/remarket.server";
import { mergeCarriers } from "./carrier-merge.server";
import { createCarrierResolver } from "./carrier-matching.server";
import { assignNumbers, listTenantCarriers } from "./carriers.server";

const in20Days = () => new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);

describe("merging two carriers", () => {
  test("policies, quotes and outcomes follow; numbers fill the kept carrier's blanks; admins only", async () => {
    const { db, tenant, ctx } = await createTestTenant();
    const resolver = createCarrierResolver(tenant.id);
    await resolver.resolve(db, ["Keystone Farmers Mutual", "KFM Insurance"]);
    const keep = resolver.get("Keystone Farmers Mutual")!;
    const drop = resolver.get("KFM Insurance")!;
    const c = await createCustomer(db, tenant.id, { name: "Kay Merge" });
    const p = await createPolicy(db, tenant.id, {
      customerId: c.id,
      carrierId: drop.id,
      carrierName: drop.name,
      expirationDate: in20Days(),
      premium: 1000,
    });
    const r = await remarketPolicy(ctx, p.id);
    const quote = await saveQuote(ctx, r.remarketId, { carrierId: keep.id, premium: 950, effectiveDate: in20Days() });
    expect((await selectQuote(ctx, quote)).outcome).toBe("rewritten");

    const links = await listTenantCarriers(ctx);
    const linkOf = (name: string) => links.find((l) => l.name === name)!.id;
    await assignNumbers(ctx, linkOf(drop.name), { agencyCode: "AG-7" });

    const staff = await createTestTenant({ role: "staff" });
    await expect(mergeCarriers({ ...ctx, role: staff.ctx.role }, { fromId: linkOf(drop.name), intoId: linkOf(keep.name) })).rejects.toThrow(
      "Only agency admins",
    );
    await expect(mergeCarriers(ctx, { fromId: linkOf(keep.name), intoId: linkOf(keep.name) })).rejects.toThrow("two different");

    expect(await mergeCarriers(ctx, { fromId: linkOf(drop.name), intoId: linkOf(keep.name) })).toEqual({
      from: "KFM Insurance",
      into: "Keystone Farmers Mutual",
      policies: 1,
      quotes: 0,
      renewed: 1,
    });
    const [policy] = await db.select({ id: policies.carrierId, name: policies.carrierName }).from(policies).where(eq(policies.id, p.id));
    expect(policy).toEqual({ id: keep.id, name: "Keystone Farmers Mutual" });
    expect(await getRemarket(ctx, r.remarketId)).toMatchObject({ incumbent: "Keystone Farmers Mutual", outcome: "renewed" });
    expect((await listTenantCarriers(ctx)).map((l) => [l.name, l.agencyCode])).toEqual([["Keystone Farmers Mutual", "AG-7"]]);
  });
});
