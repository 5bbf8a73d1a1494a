import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import type { DbOrTx } from "~/db/client.server";
import { auditEvents, quotes, remarkets, remarketUsageEvents, renewalFlags } from "~/db/schema";
import { describeChange } from "~/routes/__dashboard.server";
import { loader } from "~/routes/_app._index";
import { describeAudit } from "~/utils/audit";
import { createCustomer, createPolicy } from "../../../tests/support/book-factories";
import { addTestUser, createTestTenant, makeRequest, sessionCookieFor } from "../../../tests/support/factories";
import { setRemarketQuotaForTests } from "../../../tests/support/quota";
import { DASHBOARD_ACTIVITY, getDashboard } from "./dashboard.server";
import { recomputeForecast } from "./forecast.server";

// The tenant's clock: 1 March 2026, noon in New York. This week is 23 Feb – 1 Mar (local
// midnight of 23 Feb is 05:00 UTC); the week before, 16–22 Feb; this month, March; last, February.
const NOW = new Date("2026-03-01T17:00:00Z");
const TZ = "America/New_York";
const at = (iso: string) => new Date(iso);

/** `times.length` flagged renewals of `tenantId`, raised at those instants. */
async function seedFlags(db: DbOrTx, tenantId: string, times: string[]) {
  for (const time of times) {
    const c = await createCustomer(db, tenantId);
    const p = await createPolicy(db, tenantId, { customerId: c.id, expirationDate: "2026-03-20", premium: 1000, renewalPremium: 1300 });
    await recomputeForecast({ db, tenantId, now: () => NOW });
    await db
      .update(renewalFlags)
      .set({ flaggedAt: at(time) })
      .where(eq(renewalFlags.policyId, p.id));
  }
}

/** A re-market of a new policy of `tenantId`, with `quoteCount` quotes. */
async function seedRemarket(
  db: DbOrTx,
  tenantId: string,
  r: { year: number; status: "open" | "closed"; outcome?: "rewritten" | "renewed" | "lost"; saved?: number; quoteCount: number },
) {
  const c = await createCustomer(db, tenantId);
  const p = await createPolicy(db, tenantId, { customerId: c.id, status: "quoted" });
  const [row] = await db
    .insert(remarkets)
    .values({
      tenantId,
      policyId: p.id,
      customerId: c.id,
      quotaYear: r.year,
      remarketedAt: at(`${r.year}-01-15T15:00:00Z`),
      incumbentCarrierName: "Travelers",
      status: r.status,
      outcome: r.outcome ?? null,
      premiumSaved: r.saved ?? null,
    })
    .returning({ id: remarkets.id });
  for (let i = 0; i < r.quoteCount; i++)
    await db
      .insert(quotes)
      .values({ tenantId, remarketId: row.id, policyId: p.id, carrierName: "Safeco", premium: 900, effectiveDate: "2026-06-01" });
  return { remarketId: row.id, policyId: p.id, policyNumber: p.policyNumber, customerId: c.id };
}

async function seedUsage(db: DbOrTx, tenantId: string, localDates: string[]) {
  for (const localDate of localDates)
    await db
      .insert(remarketUsageEvents)
      .values({ tenantId, quotaYear: Number(localDate.slice(0, 4)), localDate, usedAt: at(`${localDate}T15:00:00Z`) });
}

describe("dashboard trends", () => {
  test("flagged this week and the week before: local-midnight boundaries, another agency's flags never counted", async () => {
    const { db, tenant } = await createTestTenant();
    await seedFlags(db, tenant.id, [
      "2026-03-01T16:00:00Z", // today
      "2026-02-23T05:00:00Z", // the first instant of this week
      "2026-02-25T12:00:00Z",
      "2026-02-23T04:59:59Z", // the last second of the week before
      "2026-02-16T05:00:00Z", // the first instant of the week before
      "2026-02-16T04:59:59Z", // three weeks ago: neither
    ]);
    const other = await createTestTenant();
    await seedFlags(db, other.tenant.id, ["2026-03-01T12:00:00Z", "2026-02-20T12:00:00Z"]);

    const d = await getDashboard({ db, tenantId: tenant.id, timeZone: TZ, now: () => NOW });
    expect(d.trends.flagged).toEqual({ since: "2026-02-23", week: 3, prevWeek: 2 });
    const theirs = await getDashboard({ db, tenantId: other.tenant.id, timeZone: TZ, now: () => NOW });
    expect(theirs.trends.flagged).toEqual({ since: "2026-02-23", week: 1, prevWeek: 1 });
  });

  test("re-markets used this month and last, by the agency's local date; another agency's use never counted", async () => {
    const { db, tenant } = await createTestTenant();
    await seedUsage(db, tenant.id, ["2026-03-01", "2026-03-01", "2026-02-01", "2026-02-14", "2026-02-28", "2026-01-31"]);
    const other = await createTestTenant();
    await seedUsage(db, other.tenant.id, ["2026-03-01", "2026-03-01", "2026-03-01", "2026-02-10"]);
    const d = await getDashboard({ db, tenantId: tenant.id, timeZone: TZ, now: () => NOW });
    expect(d.trends.remarkets).toEqual({ month: 2, prevMonth: 3 });
  });

  test("outcomes of this quota year's re-markets: quotes, won with the premium saved, kept, lost, open", async () => {
    const { db, tenant } = await createTestTenant();
    await seedRemarket(db, tenant.id, { year: 2026, status: "open", quoteCount: 2 });
    await seedRemarket(db, tenant.id, { year: 2026, status: "open", quoteCount: 0 });
    await seedRemarket(db, tenant.id, { year: 2026, status: "closed", outcome: "rewritten", saved: 300, quoteCount: 1 });
    await seedRemarket(db, tenant.id, { year: 2026, status: "closed", outcome: "rewritten", saved: 150.5, quoteCount: 3 });
    await seedRemarket(db, tenant.id, { year: 2026, status: "closed", outcome: "renewed", saved: 40, quoteCount: 1 });
    await seedRemarket(db, tenant.id, { year: 2026, status: "closed", outcome: "lost", quoteCount: 0 });
    // Last year's, and another agency's this year: neither counts.
    await seedRemarket(db, tenant.id, { year: 2025, status: "closed", outcome: "rewritten", saved: 999, quoteCount: 1 });
    const other = await createTestTenant();
    await seedRemarket(db, other.tenant.id, { year: 2026, status: "closed", outcome: "rewritten", saved: 500, quoteCount: 2 });

    const d = await getDashboard({ db, tenantId: tenant.id, timeZone: TZ, now: () => NOW });
    expect(d.trends.outcomes).toEqual({ remarkets: 6, quoted: 4, won: 2, kept: 1, lost: 1, open: 2, savedWon: 450.5 });
    const theirs = await getDashboard({ db, tenantId: other.tenant.id, timeZone: TZ, now: () => NOW });
    expect(theirs.trends.outcomes).toEqual({ remarkets: 1, quoted: 1, won: 1, kept: 0, lost: 0, open: 0, savedWon: 500 });
  });

  test("recent activity: this agency's latest events, newest first, with who and the policy, customer and re-market they name", async () => {
    const { db, tenant, user } = await createTestTenant();
    const colleague = await addTestUser(tenant.id, { name: "Dana Colleague" });
    const r = await seedRemarket(db, tenant.id, { year: 2026, status: "closed", outcome: "rewritten", saved: 120, quoteCount: 1 });
    const events: (typeof auditEvents.$inferInsert)[] = [];
    // Ten events a minute apart; the last two are the newest.
    for (let i = 0; i < 8; i++)
      events.push({
        tenantId: tenant.id,
        actorUserId: user.id,
        action: "carrier.added",
        subjectType: "carrier",
        subjectId: crypto.randomUUID(),
        details: { name: `Carrier ${i}` },
        createdAt: at(`2026-02-27T15:0${i}:00Z`),
      });
    events.push({
      tenantId: tenant.id,
      actorUserId: colleague.user.id,
      action: "policy.remarketed",
      subjectType: "policy",
      subjectId: r.policyId,
      details: { remarketId: r.remarketId },
      createdAt: at("2026-02-28T15:00:00Z"),
    });
    events.push({
      tenantId: tenant.id,
      actorUserId: null,
      actorEmail: "ops@remarket.example",
      action: "staff.flag_changed",
      subjectType: "feature_flag",
      subjectId: "not-a-uuid",
      details: { flag: "x", value: "on" },
      createdAt: at("2026-03-01T14:00:00Z"),
    });
    await db.insert(auditEvents).values(events);
    // Another agency's event, newer than all of them, naming this agency's policy: never listed.
    const other = await createTestTenant();
    await db.insert(auditEvents).values({
      tenantId: other.tenant.id,
      actorUserId: other.user.id,
      action: "policy.remarketed",
      subjectType: "policy",
      subjectId: r.policyId,
      details: { remarketId: r.remarketId },
      createdAt: at("2026-03-01T16:00:00Z"),
    });

    const d = await getDashboard({ db, tenantId: tenant.id, timeZone: TZ, now: () => NOW });
    expect(d.activity).toHaveLength(DASHBOARD_ACTIVITY);
    expect(d.activity.map((a) => a.at.toISOString())).toEqual([
      "2026-03-01T14:00:00.000Z",
      "2026-02-28T15:00:00.000Z",
      ...[7, 6, 5, 4, 3, 2].map((i) => `2026-02-27T15:0${i}:00.000Z`),
    ]);
    expect(d.activity[0]).toMatchObject({ action: "staff.flag_changed", actor: "ops@remarket.example", policyNumber: null });
    expect(d.activity[1]).toMatchObject({
      action: "policy.remarketed",
      actor: "Dana Colleague",
      policyNumber: r.policyNumber,
      customerId: r.customerId,
      customerName: "Pat Customer",
      remarketId: r.remarketId,
    });
    expect(d.activity[2]).toMatchObject({ actor: "Test Admin", details: { name: "Carrier 7" }, customerId: null, remarketId: null });

    const theirs = await getDashboard({ db, tenantId: other.tenant.id, timeZone: TZ, now: () => NOW });
    // Their event names this agency's policy and re-market by id: nothing of ours comes back with it.
    expect(theirs.activity).toHaveLength(1);
    expect(theirs.activity[0]).toMatchObject({ policyNumber: null, customerId: null, customerName: null, remarketId: null });
  });

  test("the page's words: changes, what each figure rests on, activity with who, when and where it leads", async () => {
    const { db, tenant, user } = await createTestTenant();
    await setRemarketQuotaForTests(db, tenant.id, 25);
    const c = await createCustomer(db, tenant.id, { name: "Jo Client" });
    await createPolicy(db, tenant.id, { customerId: c.id, expirationDate: "2026-12-01" });
    const r = await seedRemarket(db, tenant.id, { year: new Date().getFullYear(), status: "open", quoteCount: 1 });
    await db.insert(auditEvents).values({
      tenantId: tenant.id,
      actorUserId: user.id,
      action: "quote.selected",
      subjectType: "policy",
      subjectId: r.policyId,
      details: { remarketId: r.remarketId, outcome: "rewritten" },
      createdAt: at("2026-02-28T23:30:00Z"),
    });
    const response = await loader({ request: makeRequest("/", { cookie: await sessionCookieFor(user) }), params: {}, context: {} });
    const data = (response instanceof Response ? await response.json() : response) as Awaited<ReturnType<typeof loader>>;
    // Nothing flagged in either week: no "+100%", a sentence.
    expect(data.empty).toBe(false);
    expect(data.trends?.flagged.change).toEqual({ direction: "none", text: "No flags in the 7 days before to compare with" });
    expect(data.trends?.outcomes.basis).toMatch(/^From 1 re-market since 01 Jan \d{4} \(this quota year\)\.$/);
    expect(data.trends?.outcomes.figures).toEqual({ quoted: "1 of 1", won: "0", kept: "0", lost: "0", open: "1" });
    expect(data.trends?.outcomes.saved).toBeNull();
    expect(data.activity).toEqual([
      {
        id: expect.any(String),
        at: "2026-02-28T23:30:00.000Z",
        // The agency's time zone (the test tenant's default) decides the day and hour.
        when: expect.stringMatching(/^\d{2} (Feb|Mar) 2026 \| \d{2}:30$/),
        who: "Test Admin",
        what: `Quote selected ${r.policyNumber}: rewritten with another carrier · Pat Customer`,
        href: `/quotes/${r.remarketId}`,
      },
    ]);
  });

  test("a new agency (no book, no connection) gets the checklist: no trends or activity are sent", async () => {
    const { user } = await createTestTenant();
    const response = await loader({ request: makeRequest("/", { cookie: await sessionCookieFor(user) }), params: {}, context: {} });
    const data = (response instanceof Response ? await response.json() : response) as Awaited<ReturnType<typeof loader>>;
    expect(data).toMatchObject({ empty: true, trends: null, activity: [] });
  });

  test("a change in words: up, down, the same, and nothing before to compare with", () => {
    const period = "in the 7 days before";
    expect(describeChange(5, 2, period, "flags")).toEqual({ direction: "up", text: "Up 3 from 2 in the 7 days before" });
    expect(describeChange(1, 4, period, "flags")).toEqual({ direction: "down", text: "Down 3 from 4 in the 7 days before" });
    expect(describeChange(2, 2, period, "flags")).toEqual({ direction: "same", text: "Same as in the 7 days before (2)" });
    expect(describeChange(7, 0, period, "flags")).toEqual({ direction: "none", text: "No flags in the 7 days before to compare with" });
  });

  test("audit events in words, shared with the customer page", () => {
    expect(describeAudit({ action: "policy.remarketed", details: { policyNumber: "HO-1" } })).toBe("Re-marketed HO-1");
    expect(describeAudit({ action: "remarket.lost", details: {}, policyNumber: "HO-2" })).toBe("Closed as lost HO-2");
    expect(describeAudit({ action: "renewal.dismissed", details: { policyNumber: "HO-3", reason: "Customer moving" } })).toBe(
      "Dismissed from the worklist HO-3 (Customer moving)",
    );
    expect(describeAudit({ action: "carrier.merged", details: { from: "Safeco Ins", into: "Safeco" } })).toBe(
      "Carriers merged (Safeco Ins into Safeco)",
    );
    expect(describeAudit({ action: "team.invited", details: { email: "a@b.test" } })).toBe("Invited to the team: a@b.test");
    expect(describeAudit({ action: "something.new", details: null })).toBe("something.new");
  });
});
