import { beforeAll, describe, test } from "vitest";
import { createCustomer, createPolicy } from "../../../tests/support/book-factories";
import { expectTenantScoped, ids, sorted, twoTenants, type TenantPair } from "../../../tests/support/tenant-scope";
import { recomputeForecast } from "../renewals/forecast.server";
import {
  addTenantCarrier,
  bookCarriersNotAdded,
  carriersForPolicy,
  listCatalogue,
  listTenantCarriers,
  setCredentialsInvalid,
} from "./carriers.server";

type Seed = { tenantCarrierIds: string[]; invalidIds: string[]; policyId: string; shared: { carrierIds: string[] } };

// The agency's carriers, and the catalogue's "yours" markers, are each tenant's own. Both tenants
// add Travelers, so a join that forgot the tenant would show the other's row for it.
describe("carriers: tenant scope", () => {
  let pair: TenantPair<Seed>;
  beforeAll(async () => {
    pair = await twoTenants(async (t) => {
      const catalogue = await listCatalogue(t.ctx, {});
      const chosen = ["Travelers", "Progressive"].slice(0, 1 + t.index).map((name) => catalogue.find((c) => c.name === name)!.id);
      const tenantCarrierIds: string[] = [];
      for (const id of chosen) tenantCarrierIds.push((await addTenantCarrier(t.ctx, id)).id);
      const invalidIds = t.index ? [tenantCarrierIds[1]] : [];
      for (const id of invalidIds) await setCredentialsInvalid(t.ctx, id, true);
      const customer = await createCustomer(t.db, t.tenant.id, { name: `Scope ${t.tag}` });
      const policy = await createPolicy(t.db, t.tenant.id, { customerId: customer.id, lineOfBusiness: "HOME", riskState: "TX" });
      return { tenantCarrierIds, invalidIds, policyId: policy.id, shared: { carrierIds: chosen } };
    });
  });

  test("listTenantCarriers, all and with invalid credentials", async () => {
    await expectTenantScoped(
      pair,
      async (me) => ({ all: await listTenantCarriers(me.ctx), invalid: await listTenantCarriers(me.ctx, { invalidOnly: true }) }),
      (r) => ({ all: ids(r.all), invalid: ids(r.invalid) }),
      (me) => ({ all: sorted(me.seed.tenantCarrierIds), invalid: sorted(me.seed.invalidIds) }),
    );
  });

  test("the catalogue marks only the tenant's own carriers as added", async () => {
    await expectTenantScoped(
      pair,
      (me) => listCatalogue(me.ctx, {}),
      (r) => ({
        added: r.flatMap((c) => (c.tenantCarrierId ? [c.tenantCarrierId] : [])).sort(),
        rows: r.length === new Set(r.map((c) => c.id)).size,
      }),
      (me) => ({ added: sorted(me.seed.tenantCarrierIds), rows: true }),
    );
  });

  test("carriers for a policy: the agency's own first", async () => {
    await expectTenantScoped(
      pair,
      (me) => carriersForPolicy(me.ctx, me.seed.policyId),
      (r) =>
        r.carriers
          .filter((c) => c.agency)
          .map((c) => c.id)
          .sort(),
      (me) => sorted(me.seed.shared.carrierIds),
    );
  });
});

// Carriers the book is with but the agency has not added: from the tenant's own active policies,
// as its own last forecast computation found them, minus its own carriers.
describe("carriers in the book, not added: tenant scope", () => {
  let pair: TenantPair<{ notAdded: string[]; policyIds: string[] }>;
  beforeAll(async () => {
    pair = await twoTenants(async (t) => {
      const catalogue = await listCatalogue(t.ctx, {});
      const id = (name: string) => catalogue.find((c) => c.name === name)!.id;
      await addTenantCarrier(t.ctx, id("Travelers"));
      const customer = await createCustomer(t.db, t.tenant.id, { name: `Book ${t.tag}` });
      const policy = (carrierName: string, status: "active" | "cancelled" = "active") =>
        createPolicy(t.db, t.tenant.id, { customerId: customer.id, carrierId: id(carrierName), carrierName, status });
      const policyIds = [
        (await policy("Travelers")).id, // added: not pointed out
        (await policy(t.index ? "CNA" : "Kemper")).id,
        (await policy("Foremost", "cancelled")).id, // no active policy with it
      ];
      await recomputeForecast({ db: t.db, tenantId: t.tenant.id });
      return { notAdded: [t.index ? "CNA" : "Kemper"], policyIds };
    });
  });

  test("each agency sees the carriers of its own book that it has not added", async () => {
    await expectTenantScoped(
      pair,
      (me) => bookCarriersNotAdded(me.ctx),
      (r) => r.map((c) => c.name),
      (me) => me.seed.notAdded,
    );
  });
});
