import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { auditEvents, billingAccounts, users } from "~/db/schema";
import { ensureStripeCustomer } from "~/services/billing/billing.server";
import { consumeRemarketQuota } from "~/services/billing/quota.server";
import { withEnv } from "../../tests/support/env";
import { unwrapData } from "../../tests/support/route-results";
import { bearerFor, createTestTenant, makeRequest, sessionCookieFor } from "../../tests/support/factories";
import { startStripeStandIn, stripeEnvFor, type StripeStandIn } from "../../tests/support/stripe-stand-in";
import { action as adminAction, loader as adminLoader } from "./_app.admin";
import { action as billingAction, loader as billingLoader } from "./_app.billing";
import { loader as usageApi } from "./api.billing-subscription.remarket-usage";
import { loader as monthlyApi } from "./api.billing-subscription.monthly-usage";
import { action as portalApi } from "./api.stripe.billing-portal-session";
import { loader as customerIdApi } from "./api.stripe.get-payment-customer-id";

// Opening the per-worker database can take long on a busy machine: pay it in a hook, not a test.
beforeAll(async () => {
  await getDb();
});

const args = (request: Request) => ({ request, params: {}, context: {} });

/** Call a loader or action; a thrown Response is returned instead. */
async function call<T>(fn: () => Promise<T>): Promise<T | Response> {
  try {
    return await fn();
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

const statusOf = (result: unknown) =>
  result instanceof Response ? result.status : ((result as { init?: { status?: number } })?.init?.status ?? 200);

async function signedIn(role: "admin" | "staff" = "admin") {
  const t = await createTestTenant({ role });
  return { ...t, cookie: await sessionCookieFor(t.user), bearer: await bearerFor(t.user) };
}

async function trialEnd(db: Awaited<ReturnType<typeof createTestTenant>>["db"], tenantId: string) {
  const [row] = await db
    .select({ trialEndsAt: billingAccounts.trialEndsAt })
    .from(billingAccounts)
    .where(eq(billingAccounts.tenantId, tenantId));
  return row.trialEndsAt.getTime();
}

describe("/billing in local mode", () => {
  let restore: () => void;
  beforeAll(() => {
    restore = withEnv({ STRIPE_SECRET_KEY: undefined });
  });
  afterAll(() => restore());

  test("an admin sees the trial and usage, and changes plan with a form", async () => {
    const { cookie, ctx, db } = await signedIn();
    await db.transaction((tx) => consumeRemarketQuota(tx, ctx.tenantId));
    const page = (await billingLoader(args(makeRequest("/billing", { cookie })))) as Awaited<ReturnType<typeof billingLoader>>;
    expect(page.overview).toMatchObject({ planName: "Trial", statusLabel: "Trial", trialDaysLeft: 14, mode: "local" });
    expect(page.usage).toMatchObject({ currentYearUsage: 1, annualQuota: 25, percent: 4 });
    expect(page.monthly?.total).toBe(1);

    const response = await call(() =>
      billingAction(args(makeRequest("/billing", { cookie, form: { intent: "change-plan", plan: "starter" } }))),
    );
    expect(response).toBeInstanceOf(Response);
    expect((response as Response).headers.get("Location")).toBe("/billing");
    const after = (await billingLoader(args(makeRequest("/billing", { cookie })))) as Awaited<ReturnType<typeof billingLoader>>;
    expect(after.overview).toMatchObject({ planName: "Starter", statusLabel: "Active" });
    expect(after.usage?.annualQuota).toBe(120);
  });

  test("an unknown plan is a field error, not a 500; a bad usage query falls back", async () => {
    const { cookie } = await signedIn();
    const result = await call(() =>
      billingAction(args(makeRequest("/billing", { cookie, form: { intent: "change-plan", plan: "platinum" } }))),
    );
    expect(statusOf(result)).toBe(400);
    const page = (await billingLoader(args(makeRequest("/billing?year=abc&month=13", { cookie })))) as Awaited<
      ReturnType<typeof billingLoader>
    >;
    expect(page.monthly?.month).toBeNull();
    expect(page.monthly?.buckets).toHaveLength(12);
  });

  test("a non-admin user cannot change billing", async () => {
    const { cookie } = await signedIn("staff");
    const result = await call(() =>
      billingAction(args(makeRequest("/billing", { cookie, form: { intent: "change-plan", plan: "agency" } }))),
    );
    expect(statusOf(result)).toBe(403);
  });

  test("the billing flag gates the usage query", async () => {
    const { cookie, bearer, ctx } = await signedIn();
    const { setFlagOverride } = await import("~/services/identity/feature-flags.server");
    await setFlagOverride(ctx.db, ctx.tenantId, "billing", false);
    const page = (await billingLoader(args(makeRequest("/billing", { cookie })))) as Awaited<ReturnType<typeof billingLoader>>;
    expect(page.usage).toBeNull();
    expect(page.monthly).toBeNull();
    expect(
      statusOf(await usageApi(args(makeRequest("/api/billing-subscription/remarket-usage", { headers: { Authorization: bearer } })))),
    ).toBe(404);
  });
});

describe("tenant isolation", () => {
  let standIn: StripeStandIn;
  let restore: () => void;
  beforeAll(async () => {
    standIn = await startStripeStandIn();
    restore = withEnv({ ...stripeEnvFor(standIn), STAFF_EMAILS: "" });
  });
  afterAll(async () => {
    restore();
    await standIn.close();
  });

  test("a tenant admin cannot read or change another tenant's billing by any id", async () => {
    const a = await signedIn();
    const b = await signedIn();
    const customerOfB = await ensureStripeCustomer(b.ctx);
    await b.db.transaction(async (tx) => {
      for (let i = 0; i < 3; i++) await consumeRemarketQuota(tx, b.ctx.tenantId);
    });

    // The usage APIs answer for the session's tenant, whatever id is passed.
    const usage = (await usageApi(
      args(makeRequest(`/api/billing-subscription/remarket-usage?tenantId=${b.ctx.tenantId}`, { headers: { Authorization: a.bearer } })),
    )) as Response;
    expect((await usage.json()).data.remarketQuota).toMatchObject({ currentYearUsage: 0, annual_quota: 25 });
    const monthly = (await monthlyApi(
      args(makeRequest(`/api/billing-subscription/monthly-usage?tenantId=${b.ctx.tenantId}`, { headers: { Authorization: a.bearer } })),
    )) as Response;
    expect((await monthly.json()).data.total).toBe(0);

    // B's Stripe customer: no portal session and no lookup by B's e-mail.
    const portal = (await portalApi(
      args(
        makeRequest(`/api/stripe/billing-portal-session?customer_id=${customerOfB}`, {
          headers: { Authorization: a.bearer },
          method: "POST",
        }),
      ),
    )) as Response;
    expect(portal.status).toBe(404);
    const lookup = (await customerIdApi(
      args(
        makeRequest(`/api/stripe/get-payment-customer-id?email=${encodeURIComponent(b.user.email)}`, {
          headers: { Authorization: a.bearer },
        }),
      ),
    )) as Response;
    expect(lookup.status).toBe(404);
    const ownLookup = (await customerIdApi(
      args(
        makeRequest(`/api/stripe/get-payment-customer-id?email=${encodeURIComponent(b.user.email)}`, {
          headers: { Authorization: b.bearer },
        }),
      ),
    )) as Response;
    expect((await ownLookup.json()).data.customerId).toBe(customerOfB);

    // The staff admin (trial, quota, flags by tenant id) is a 404 for a tenant admin.
    const before = await trialEnd(b.db, b.ctx.tenantId);
    const admin = await call(() =>
      adminAction(
        args(makeRequest("/admin", { cookie: a.cookie, form: { intent: "extend-trial", tenantId: b.ctx.tenantId, days: "30" } })),
      ),
    );
    expect(statusOf(admin)).toBe(404);
    expect(statusOf(await call(() => adminLoader(args(makeRequest("/admin", { cookie: a.cookie })))))).toBe(404);
    expect(await trialEnd(b.db, b.ctx.tenantId)).toBe(before);

    // A tenant id smuggled into the billing form changes nothing but the admin's own tenant.
    const smuggled = await call(() =>
      billingAction(args(makeRequest("/billing", { cookie: a.cookie, form: { intent: "portal", tenantId: b.ctx.tenantId } }))),
    );
    expect((smuggled as Response).headers.get("Location")).toMatch(/^https:\/\/billing\.stripe\.test\//);
    const lastPortal = standIn.requests.filter((r) => r.path === "/v1/billing_portal/sessions").at(-1);
    expect(lastPortal?.body.get("customer")).not.toBe(customerOfB);
  });
});

describe("/admin for staff", () => {
  let restore: () => void;
  const staffLocal = `staff.${randomUUID().slice(0, 8)}`;
  beforeAll(() => {
    // Written with other case and spaces, as operators do.
    restore = withEnv({ STAFF_EMAILS: `  ${staffLocal.toUpperCase()}@Example.TEST , someone@example.test`, STRIPE_SECRET_KEY: undefined });
  });
  afterAll(() => restore());

  test("staff extend a trial, change a quota and toggle a flag; each action is audited and listed", async () => {
    const staff = await signedIn();
    await staff.db
      .update(users)
      .set({ email: `${staffLocal}@example.test` })
      .where(eq(users.id, staff.user.id));
    const target = await signedIn();
    const post = (form: Record<string, string>) => call(() => adminAction(args(makeRequest("/admin", { cookie: staff.cookie, form }))));

    const before = await trialEnd(target.db, target.ctx.tenantId);
    expect(statusOf(await post({ intent: "extend-trial", tenantId: target.ctx.tenantId, days: "10" }))).toBe(302);
    expect(await trialEnd(target.db, target.ctx.tenantId)).toBe(before + 10 * 86_400_000);
    expect(statusOf(await post({ intent: "set-quota", tenantId: target.ctx.tenantId, quota: "7" }))).toBe(302);
    expect(statusOf(await post({ intent: "set-flag", tenantId: target.ctx.tenantId, flag: "billing", value: "off" }))).toBe(302);

    const invalid = await post({ intent: "extend-trial", tenantId: target.ctx.tenantId, days: "-3" });
    expect(statusOf(invalid)).toBe(400);
    // The row's form gets the message on its field and the entered value back.
    expect(unwrapData(invalid).data).toMatchObject({
      initialValue: { tenantId: target.ctx.tenantId, intent: "extend-trial", days: "-3" },
      error: { days: ["Enter a number of days from 1 to 365."] },
    });
    expect(await trialEnd(target.db, target.ctx.tenantId)).toBe(before + 10 * 86_400_000);
    expect(statusOf(await post({ intent: "extend-trial", tenantId: randomUUID(), days: "3" }))).toBe(404);

    const page = (await adminLoader(args(makeRequest("/admin", { cookie: staff.cookie })))) as Awaited<ReturnType<typeof adminLoader>>;
    const row = page.tenants.find((t) => t.id === target.ctx.tenantId);
    expect(row).toMatchObject({ plan: "Trial", status: "Trial", quota: 7, used: 0, users: 1, connections: 0 });
    expect(row?.flags.billing).toBe(false);
    const mine = page.audit.filter((a) => a.tenantName === row?.name).map((a) => a.action);
    expect(mine.sort()).toEqual(["staff.flag_changed", "staff.quota_changed", "staff.trial_extended"]);
    const stored = await target.db
      .select({ actorEmail: auditEvents.actorEmail })
      .from(auditEvents)
      .where(eq(auditEvents.tenantId, target.ctx.tenantId));
    expect(stored.every((a) => a.actorEmail === `${staffLocal}@example.test`)).toBe(true);
  });
});
