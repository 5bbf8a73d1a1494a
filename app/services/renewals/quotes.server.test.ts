import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { tenantCarriers } from "~/db/schema";
import { openSecret } from "~/utils/secret-box.server";
import { createCustomer, createPolicy } from "../../../tests/support/book-factories";
import { createTestTenant } from "../../../tests/support/factories";
import {
  addTenantCarrier,
  carriersForPolicy,
  listCatalogue,
  listTenantCarriers,
  saveCredentials,
  setCredentialsInvalid,
} from "../connections/carriers.server";
import { customerCounts, getCustomerDetail, listCustomers } from "./customers.server";
import { getRemarket, markLost, recordIncumbentOffer, saveQuote, selectQuote } from "./quotes.server";
import { remarketPolicy } from "./remarket.server";
import { quotaReturn, retentionBy } from "./reports.server";

const in20Days = () => new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);

describe("quotes and outcomes", () => {
  test("another carrier's quote rewrites, the incumbent's renews, lost closes without savings; reports add them up", async () => {
    const { db, tenant, ctx } = await createTestTenant();
    const c = await createCustomer(db, tenant.id, { name: "Rita Quote", email: "Rita@Example.com", state: "TX" });
    const p1 = await createPolicy(db, tenant.id, {
      customerId: c.id,
      carrierName: "Travelers",
      expirationDate: in20Days(),
      premium: 1000,
      renewalPremium: 1300,
      producer: "Ann",
    });
    const p2 = await createPolicy(db, tenant.id, {
      customerId: c.id,
      carrierName: "Safeco",
      lineOfBusiness: "PAUTO",
      expirationDate: in20Days(),
      premium: 800,
      renewalPremium: 1000,
      producer: "Ann",
    });
    const p3 = await createPolicy(db, tenant.id, {
      customerId: c.id,
      carrierName: "Chubb",
      expirationDate: in20Days(),
      premium: 2000,
      renewalPremium: 2500,
      producer: "Bo",
    });
    const [r1, r2, r3] = [await remarketPolicy(ctx, p1.id), await remarketPolicy(ctx, p2.id), await remarketPolicy(ctx, p3.id)];

    const cheaper = await saveQuote(ctx, r1.remarketId, {
      carrierName: "Nationwide",
      premium: 1150,
      effectiveDate: in20Days(),
      coverageNotes: "Same limits",
    });
    await saveQuote(ctx, r1.remarketId, { carrierName: "Travelers", premium: 1300, effectiveDate: in20Days() });
    await saveQuote(ctx, r1.remarketId, {
      quoteId: cheaper,
      carrierName: "Nationwide",
      premium: 1100,
      effectiveDate: in20Days(),
      coverageNotes: "Edited",
    });
    expect(await selectQuote(ctx, cheaper)).toEqual({
      remarketId: r1.remarketId,
      outcome: "rewritten",
      premiumSaved: 200,
      savingsBasis: "offer",
    });
    const detail = await getRemarket(ctx, r1.remarketId);
    expect(detail).toMatchObject({ status: "closed", outcome: "rewritten", boundPremium: 1100, premiumSaved: 200 });
    expect(detail.quotes.map((q) => [q.carrierName, q.premium, q.selected])).toEqual([
      ["Nationwide", 1100, true],
      ["Travelers", 1300, false],
    ]);

    const incumbent = await saveQuote(ctx, r2.remarketId, { carrierName: "safeco", premium: 950, effectiveDate: in20Days() });
    expect((await selectQuote(ctx, incumbent)).outcome).toBe("renewed");
    await markLost(ctx, r3.remarketId);
    expect((await getRemarket(ctx, r3.remarketId)).outcome).toBe("lost");

    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());
    const byProducer = await retentionBy(ctx, "producer", { from: today, to: today });
    expect(byProducer).toEqual([
      { key: "Ann", renewed: 1, rewritten: 1, lost: 0, retainedPremium: 2050, lostPremium: 0 },
      { key: "Bo", renewed: 0, rewritten: 0, lost: 1, retainedPremium: 0, lostPremium: 2500 },
    ]);
    const month = (await quotaReturn(ctx, Number(today.slice(0, 4))))[Number(today.slice(5, 7)) - 1];
    expect(month).toMatchObject({ used: 3, rewrites: 1, savedVsOffer: 250, savedVsCurrent: 0 });

    const customer = await getCustomerDetail(ctx, c.id);
    expect(customer.remarkets).toHaveLength(3);
    expect(customer.quotes).toHaveLength(3);
    expect(customer.tasks).toHaveLength(3);
    expect(customer.audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(["policy.remarketed", "quote.created", "quote.updated", "quote.selected", "remarket.lost"]),
    );
  });
});

describe("premium saved and its basis", () => {
  test("never against the prediction: current premium until the offer is typed, then the offer; reports keep the bases apart", async () => {
    const { db, tenant, ctx } = await createTestTenant();
    const c = await createCustomer(db, tenant.id, { name: "Pat Dearer", state: "TX" });
    // No renewal premium in the export: the worklist would predict one; savings must not use it.
    const p = await createPolicy(db, tenant.id, { customerId: c.id, carrierName: "Safeco", premium: 5_936, expirationDate: in20Days() });
    const r = await remarketPolicy(ctx, p.id);
    const rewrite = await saveQuote(ctx, r.remarketId, { carrierName: "Travelers", premium: 6_150, effectiveDate: in20Days() });
    expect(await selectQuote(ctx, rewrite)).toMatchObject({ outcome: "rewritten", premiumSaved: -214, savingsBasis: "current" });

    expect(await recordIncumbentOffer(ctx, r.remarketId, 6_480)).toEqual({ premiumSaved: 330, savingsBasis: "offer" });
    expect(await getRemarket(ctx, r.remarketId)).toMatchObject({ incumbentOffer: 6_480, premiumSaved: 330, savingsBasis: "offer" });

    const p2 = await createPolicy(db, tenant.id, { customerId: c.id, carrierName: "Chubb", premium: 1_000, expirationDate: in20Days() });
    const r2 = await remarketPolicy(ctx, p2.id);
    await selectQuote(ctx, await saveQuote(ctx, r2.remarketId, { carrierName: "Chubb", premium: 1_100, effectiveDate: in20Days() }));
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());
    const month = (await quotaReturn(ctx, Number(today.slice(0, 4))))[Number(today.slice(5, 7)) - 1];
    expect(month).toMatchObject({ savedVsOffer: 330, savedVsCurrent: -100 });
  });
});

describe("the incumbent, whichever spelling", () => {
  test("a catalogue pick on an 'Erie' policy renews; a typed 'Erie' on an 'Erie Insurance' policy renews and is the catalogue carrier", async () => {
    const { db, tenant, ctx } = await createTestTenant();
    const erie = (await listCatalogue(ctx, { q: "erie" })).find((c) => c.name === "Erie Insurance")!;
    const c = await createCustomer(db, tenant.id, { name: "Ed Erie", state: "PA" });
    const typedPolicy = await createPolicy(db, tenant.id, {
      customerId: c.id,
      carrierName: "Erie",
      riskState: "PA",
      expirationDate: in20Days(),
    });
    const importedPolicy = await createPolicy(db, tenant.id, {
      customerId: c.id,
      carrierName: "Erie Insurance",
      carrierId: erie.id,
      riskState: "PA",
      expirationDate: in20Days(),
    });
    const picked = await remarketPolicy(ctx, typedPolicy.id);
    const fromList = await saveQuote(ctx, picked.remarketId, { carrierId: erie.id, premium: 900, effectiveDate: in20Days() });
    expect((await selectQuote(ctx, fromList)).outcome).toBe("renewed");

    const typed = await remarketPolicy(ctx, importedPolicy.id);
    const typedQuote = await saveQuote(ctx, typed.remarketId, { carrierName: "ERIE INS CO", premium: 900, effectiveDate: in20Days() });
    const saved = (await getRemarket(ctx, typed.remarketId)).quotes.find((q) => q.id === typedQuote)!;
    expect(saved).toMatchObject({ carrierId: erie.id, carrierName: "Erie Insurance" });
    expect((await selectQuote(ctx, typedQuote)).outcome).toBe("renewed");

    const other = await saveQuote(ctx, typed.remarketId, { carrierName: "Erie & Niagara", premium: 800, effectiveDate: in20Days() });
    expect((await selectQuote(ctx, other)).outcome).toBe("rewritten");
  });
});

describe("customers", () => {
  test("search by name or e-mail, counts and segments", async () => {
    const { db, tenant, ctx } = await createTestTenant();
    const a = await createCustomer(db, tenant.id, { name: "Zed Alpha", email: "zed@alpha.test", state: "OK" });
    const b = await createCustomer(db, tenant.id, { name: "Yan Beta", email: "yan@beta.test", state: "TX" });
    await createCustomer(db, tenant.id, { name: "Xu Gamma", email: "xu@gamma.test", state: "TX" });
    await createPolicy(db, tenant.id, { customerId: a.id, expirationDate: in20Days() });
    const p = await createPolicy(db, tenant.id, { customerId: b.id, expirationDate: in20Days() });
    await createPolicy(db, tenant.id, { customerId: b.id, status: "expired", expirationDate: "2024-01-01" });
    await remarketPolicy(ctx, p.id);
    expect(await customerCounts(ctx)).toMatchObject({ total: 3, active: 2, remarketed: 1 });
    expect((await listCustomers(ctx, { q: "BETA.T" }, 1)).rows.map((r) => r.name)).toEqual(["Yan Beta"]);
    expect((await listCustomers(ctx, { q: "zed" }, 1)).rows.map((r) => [r.name, r.activePolicies])).toEqual([["Zed Alpha", 1]]);
    expect((await listCustomers(ctx, { segment: "remarketed" }, 1)).rows.map((r) => r.name)).toEqual(["Yan Beta"]);
    expect((await listCustomers(ctx, { segment: "active", state: "TX" }, 1)).rows.map((r) => r.name)).toEqual(["Yan Beta"]);
    expect((await listCustomers(ctx, { q: "%" }, 1)).total).toBe(0);
  });
});

describe("carriers", () => {
  test("agency carriers, encrypted credentials, invalid filter, and who writes a policy's line in its state", async () => {
    const { db, tenant, ctx } = await createTestTenant();
    const catalogue = await listCatalogue(ctx, { line: "WC", state: "ND" });
    expect(catalogue.map((c) => c.name)).not.toContain("Employers"); // Employers does not write in ND
    expect(catalogue.map((c) => c.name)).toContain("The Hartford");
    const hartford = catalogue.find((c) => c.name === "The Hartford")!;
    const mine = await addTenantCarrier(ctx, hartford.id);
    await expect(addTenantCarrier(ctx, hartford.id)).rejects.toThrow("already one of your carriers");
    await saveCredentials(ctx, mine.id, { username: "agent7", password: "s3cret!" });
    const [row] = await db.select().from(tenantCarriers).where(eq(tenantCarriers.id, mine.id));
    expect(row.portalSecret).not.toContain("s3cret");
    expect(openSecret(row.portalSecret!)).toBe("s3cret!");
    expect(await listTenantCarriers(ctx, { invalidOnly: true })).toHaveLength(0);
    await setCredentialsInvalid(ctx, mine.id, true);
    expect((await listTenantCarriers(ctx, { invalidOnly: true })).map((c) => c.name)).toEqual(["The Hartford"]);

    const c = await createCustomer(db, tenant.id);
    const wc = await createPolicy(db, tenant.id, { customerId: c.id, lineOfBusiness: "WC", riskState: "ND" });
    const choices = await carriersForPolicy(ctx, wc.id);
    expect(choices.carriers[0]).toMatchObject({ name: "The Hartford", agency: true });
    expect(choices.carriers.map((x) => x.name)).not.toContain("Employers");
    expect(choices.carriers.map((x) => x.name)).not.toContain("Safeco");
  });
});
