import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { auditEvents, billingAccounts } from "~/db/schema";
import { withEnv } from "../../../tests/support/env";
import { createTestTenant } from "../../../tests/support/factories";
import { startStripeStandIn, stripeEnvFor, type StripeStandIn } from "../../../tests/support/stripe-stand-in";
import { applySubscriptionSnapshot } from "./billing-account.server";
import { changePlan, ensureStripeCustomer, getBillingOverview, openBillingPortal, startAddPaymentMethod } from "./billing.server";
import { isServiceError } from "../platform/errors.server";
import { getRemarketAllowance } from "./quota.server";
import { loader as api } from "~/routes/api.$";
import { bearerFor } from "../../../tests/support/factories";

// Opening the per-worker database can take long on a busy machine: pay it in a hook, not a test.
beforeAll(async () => {
  await getDb();
});

describe("local mode (no STRIPE_SECRET_KEY)", () => {
  let restore: () => void;
  beforeAll(() => {
    restore = withEnv({ STRIPE_SECRET_KEY: undefined });
  });
  afterAll(() => restore());

  test("a new tenant is on the trial; a plan change applies at once and is audited", async () => {
    const { ctx, db } = await createTestTenant();
    const before = await getBillingOverview(ctx);
    expect(before).toMatchObject({
      mode: "local",
      planName: "Trial",
      statusLabel: "Trial",
      trialDaysLeft: 14,
      hasPaymentMethod: false,
      paid: true,
    });
    expect(await changePlan(ctx, "agency")).toEqual({ kind: "applied", message: "You are now on the Agency plan." });
    const after = await getBillingOverview(ctx);
    expect(after).toMatchObject({ planName: "Agency", statusLabel: "Active", trialDaysLeft: null, trialPeriodOver: true });
    expect(after.renewsOn).toBeTruthy();
    expect((await getRemarketAllowance(db, ctx.tenantId)).quota).toBe(2_400);
    const audit = await db
      .select({ action: auditEvents.action, details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.tenantId, ctx.tenantId));
    expect(audit).toEqual([{ action: "billing.plan_changed", details: { from: "trial", to: "agency", mode: "local" } }]);
  });

  test("payment method and portal explain that payments are not configured; staff users cannot change billing", async () => {
    const { ctx } = await createTestTenant();
    await expect(startAddPaymentMethod(ctx)).rejects.toThrow(/Payments are not configured/);
    await expect(openBillingPortal(ctx)).rejects.toThrow(
      "The billing portal is not available because payments are not configured on this server.",
    );
    const staff = await createTestTenant({ role: "staff" });
    await expect(changePlan(staff.ctx, "growth")).rejects.toSatisfy((e) => isServiceError(e) && e.status === 403);
  });
});

describe("Stripe mode, SDK pointed at the stand-in", () => {
  let standIn: StripeStandIn;
  let restore: () => void;
  beforeAll(async () => {
    standIn = await startStripeStandIn();
    restore = withEnv({ ...stripeEnvFor(standIn), STRIPE_PRICE_AGENCY: "price_agency_monthly" });
  });
  afterAll(async () => {
    restore();
    await standIn.close();
  });

  test("starting a subscription creates the customer once and opens Checkout", async () => {
    const { ctx, user, db } = await createTestTenant();
    const first = await changePlan(ctx, "growth");
    expect(first).toMatchObject({ kind: "redirect", url: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\//) });
    const mine = standIn.requests.filter((r) => r.body.get("metadata[tenantId]") === ctx.tenantId || r.query.get("email") === user.email);
    expect(mine.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/customers", "POST /v1/customers", "POST /v1/checkout/sessions"]);
    const checkout = mine[2].body;
    expect(checkout.get("mode")).toBe("subscription");
    expect(checkout.get("client_reference_id")).toBe(ctx.tenantId);
    expect(checkout.get("subscription_data[metadata][plan]")).toBe("growth");
    expect(checkout.get("line_items[0][price_data][unit_amount]")).toBe("24900");
    const [row] = await db.select().from(billingAccounts).where(eq(billingAccounts.tenantId, ctx.tenantId));
    expect(row.stripeCustomerId).toBe(mine[1] && standIn.customers.find((c) => c.metadata.tenantId === ctx.tenantId)?.id);

    const count = standIn.requests.length;
    await startAddPaymentMethod(ctx);
    const added = standIn.requests.slice(count);
    expect(added.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /v1/checkout/sessions"]);
    expect(added[0].body.get("mode")).toBe("setup");
    expect(added[0].body.get("customer")).toBe(row.stripeCustomerId);
  });

  test("POST /api/stripe/create-stripe-customer with an Idempotency-Key: a retry replays the first answer, one customer made", async () => {
    const { ctx, user } = await createTestTenant();
    const auth = await bearerFor(user);
    const post = async (key: string) => {
      const response = await api({
        request: new Request("http://localhost/api/stripe/create-stripe-customer", {
          method: "POST",
          headers: { Authorization: auth, "Idempotency-Key": key },
        }),
        params: {},
        context: {},
      });
      return {
        status: response.status,
        replayed: response.headers.get("Idempotent-Replayed"),
        body: (await response.json()) as { data: { customerId: string } },
      };
    };
    const created = () =>
      standIn.requests.filter(
        (r) => r.method === "POST" && r.path === "/v1/customers" && r.body.get("metadata[tenantId]") === ctx.tenantId,
      );
    const first = await post("create-customer-0001");
    expect(first.status).toBe(200);
    expect(first.replayed).toBeNull();
    expect(first.body.data.customerId).toMatch(/^cus_/);
    const retry = await post("create-customer-0001");
    expect(retry).toEqual({ status: 200, replayed: "true", body: first.body });
    // Another key runs again and finds the customer the first made: still one.
    const again = await post("create-customer-0002");
    expect(again.replayed).toBeNull();
    expect(again.body.data.customerId).toBe(first.body.data.customerId);
    expect(created()).toHaveLength(1);
    expect(standIn.customers.filter((c) => c.metadata.tenantId === ctx.tenantId)).toHaveLength(1);
  });

  test("two requests at once create one Stripe customer (Stripe's own Idempotency-Key per agency)", async () => {
    const { ctx } = await createTestTenant();
    const [a, b] = await Promise.all([ensureStripeCustomer(ctx), ensureStripeCustomer(ctx)]);
    expect(a).toBe(b);
    expect(standIn.customers.filter((c) => c.metadata.tenantId === ctx.tenantId)).toHaveLength(1);
  });

  test("an existing customer is found by e-mail (seed get-payment-customer-id)", async () => {
    const { ctx, user } = await createTestTenant();
    const existing = `cus_existing_${ctx.tenantId.slice(0, 8)}`;
    standIn.addCustomer({ id: existing, email: user.email, name: "Test Admin", metadata: { tenantId: ctx.tenantId } });
    expect(await ensureStripeCustomer(ctx)).toBe(existing);
    expect(standIn.requests.some((r) => r.method === "POST" && r.path === "/v1/customers" && r.body.get("email") === user.email)).toBe(
      false,
    );
  });

  test("billing portal for the tenant's own customer only", async () => {
    const a = await createTestTenant();
    const b = await createTestTenant();
    const customerOfB = await ensureStripeCustomer(b.ctx);
    const portal = await openBillingPortal(a.ctx);
    expect(portal).toMatchObject({ kind: "redirect", url: expect.stringMatching(/^https:\/\/billing\.stripe\.test\//) });
    const customerOfA = await ensureStripeCustomer(a.ctx);
    expect(await openBillingPortal(a.ctx, customerOfA)).toMatchObject({ kind: "redirect" });
    await expect(openBillingPortal(a.ctx, customerOfB)).rejects.toSatisfy((e) => isServiceError(e) && e.status === 404);
  });

  test("switching a live Stripe subscription goes through the SDK and lands like a webhook", async () => {
    const { ctx, db } = await createTestTenant();
    standIn.addSubscription({
      id: "sub_switch_1",
      object: "subscription",
      customer: "cus_switch",
      status: "active",
      metadata: { plan: "growth", tenantId: ctx.tenantId },
      trial_end: null,
      items: { object: "list", data: [{ id: "si_switch", price: { id: "price_growth" }, current_period_end: 1_900_000_000 }] },
    });
    await db.transaction((tx) =>
      applySubscriptionSnapshot(
        tx,
        ctx.tenantId,
        { id: "sub_switch_1", status: "active", plan: "growth", currentPeriodEnd: null, trialEnd: null },
        new Date(Date.now() - 60_000),
      ),
    );
    expect(await changePlan(ctx, "agency")).toEqual({ kind: "applied", message: "You are now on the Agency plan." });
    const update = standIn.requests.find((r) => r.method === "POST" && r.path === "/v1/subscriptions/sub_switch_1");
    expect(update?.body.get("items[0][price]")).toBe("price_agency_monthly");
    expect(update?.body.get("items[0][id]")).toBe("si_switch");
    expect(await getBillingOverview(ctx)).toMatchObject({ planName: "Agency", mode: "stripe" });
    // Without a configured price id the switch is sent to the portal instead.
    await expect(changePlan(ctx, "starter")).rejects.toThrow(/Manage billing/);
  });
});
