import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { billingAccounts, notifications, stripeEvents } from "~/db/schema";
import { getEntitlements } from "~/services/billing/entitlements.server";
import { getBillingOverview } from "~/services/billing/billing.server";
import { withEnv } from "../../tests/support/env";
import { createTestTenant } from "../../tests/support/factories";
import { action } from "./webhooks.stripe";

// Opening the per-worker database can take long on a busy machine: pay it in a hook, not a test.
beforeAll(async () => {
  await getDb();
});

const SECRET = "whsec_test_remarket_webhooks";
let restore: () => void;
beforeAll(() => {
  restore = withEnv({ STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_SECRET_KEY: undefined });
});
afterAll(() => restore());

// The SDK's own helper signs the payloads; the route verifies them with the real code.
const signer = new Stripe("sk_test_signer");

function stripeEvent(type: string, object: Record<string, unknown>, created: number, extra: Record<string, unknown> = {}) {
  return {
    id: `evt_${randomUUID().replace(/-/g, "").slice(0, 24)}`,
    object: "event",
    api_version: Stripe.API_VERSION,
    created,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object, ...extra },
  };
}

async function deliver(event: object, secret = SECRET) {
  const payload = JSON.stringify(event);
  const header = signer.webhooks.generateTestHeaderString({ payload, secret });
  const request = new Request("http://localhost/webhooks/stripe", {
    method: "POST",
    headers: { "Content-Type": "application/json", "Stripe-Signature": header },
    body: payload,
  });
  const response = await action({ request, params: {}, context: {} });
  return { status: response.status, body: (await response.json()) as { outcome?: string; detail?: string } };
}

function subscription(customer: string, status: string, plan: string, periodEnd: number, id = "sub_main") {
  return {
    id,
    object: "subscription",
    customer,
    status,
    metadata: { plan },
    trial_end: null,
    items: {
      object: "list",
      data: [{ id: "si_1", object: "subscription_item", price: { id: "price_x", object: "price" }, current_period_end: periodEnd }],
    },
  };
}

async function linkedTenant() {
  const t = await createTestTenant();
  const customer = `cus_${randomUUID().replace(/-/g, "").slice(0, 14)}`;
  const linked = await deliver(
    stripeEvent(
      "checkout.session.completed",
      { id: "cs_1", object: "checkout.session", customer, client_reference_id: t.tenant.id, mode: "subscription", metadata: {} },
      1_780_000_000,
    ),
  );
  expect(linked).toEqual({ status: 200, body: { received: true, outcome: "applied" } });
  return { ...t, customer };
}

async function account(db: Awaited<ReturnType<typeof createTestTenant>>["db"], tenantId: string) {
  const [row] = await db.select().from(billingAccounts).where(eq(billingAccounts.tenantId, tenantId));
  return row;
}

describe("Stripe webhooks", () => {
  test("a bad signature is refused and nothing is recorded", async () => {
    const { db, tenant } = await createTestTenant();
    const event = stripeEvent(
      "checkout.session.completed",
      { id: "cs_x", object: "checkout.session", customer: "cus_forged", client_reference_id: tenant.id },
      1_780_000_000,
    );
    const result = await deliver(event, "whsec_someone_else");
    expect(result.status).toBe(400);
    expect(await db.select().from(stripeEvents).where(eq(stripeEvents.id, event.id))).toHaveLength(0);
    expect((await account(db, tenant.id)).stripeCustomerId).toBeNull();
  });

  test("checkout links the customer; subscription events set plan, status and period end", async () => {
    const { db, tenant, customer } = await linkedTenant();
    expect((await account(db, tenant.id)).stripeCustomerId).toBe(customer);
    const result = await deliver(
      stripeEvent("customer.subscription.created", subscription(customer, "active", "growth", 1_782_600_000), 1_780_000_100),
    );
    expect(result.body.outcome).toBe("applied");
    const row = await account(db, tenant.id);
    expect(row).toMatchObject({ subscriptionId: "sub_main", subscriptionStatus: "active", plan: "growth", trialPeriodOver: true });
    expect(row.currentPeriodEnd?.getTime()).toBe(1_782_600_000 * 1000);
    const overview = await getBillingOverview({
      db,
      tenantId: tenant.id,
      userId: "",
      role: "admin",
      now: () => new Date(1_780_000_200 * 1000),
    });
    expect(overview).toMatchObject({ planName: "Growth", statusLabel: "Active", trialDaysLeft: null });
  });

  test("a replayed event is applied once (one payment-failed notification)", async () => {
    const { db, tenant, customer } = await linkedTenant();
    await deliver(stripeEvent("customer.subscription.created", subscription(customer, "active", "starter", 1_782_600_000), 1_780_000_100));
    const failed = stripeEvent(
      "invoice.payment_failed",
      {
        id: "in_1",
        object: "invoice",
        customer,
        parent: { type: "subscription_details", subscription_details: { subscription: "sub_main", metadata: {} } },
      },
      1_780_000_200,
    );
    expect((await deliver(failed)).body.outcome).toBe("applied");
    expect((await deliver(failed)).body.outcome).toBe("duplicate");
    const raised = await db
      .select({ title: notifications.title })
      .from(notifications)
      .where(and(eq(notifications.tenantId, tenant.id), eq(notifications.kind, "billing.payment_failed")));
    expect(raised).toEqual([{ title: "Payment failed" }]);
    const row = await account(db, tenant.id);
    expect(row.subscriptionStatus).toBe("past_due");
    expect(row.pastDueSince?.getTime()).toBe(1_780_000_200 * 1000);
    // Within the 7-day grace period the tenant is still paid; after it, not.
    expect((await getEntitlements(db, tenant.id, new Date((1_780_000_200 + 6 * 86_400) * 1000))).paid).toBe(true);
    expect((await getEntitlements(db, tenant.id, new Date((1_780_000_200 + 8 * 86_400) * 1000))).paid).toBe(false);

    const paid = stripeEvent(
      "invoice.paid",
      {
        id: "in_1",
        object: "invoice",
        customer,
        parent: { type: "subscription_details", subscription_details: { subscription: "sub_main", metadata: {} } },
      },
      1_780_000_300,
    );
    expect((await deliver(paid)).body.outcome).toBe("applied");
    expect(await account(db, tenant.id)).toMatchObject({ subscriptionStatus: "active", pastDueSince: null });
  });

  test("an older event arriving after a newer one does not overwrite it", async () => {
    const { db, tenant, customer } = await linkedTenant();
    const older = stripeEvent("customer.subscription.updated", subscription(customer, "active", "growth", 1_782_600_000), 1_780_000_100);
    const newer = stripeEvent("customer.subscription.deleted", subscription(customer, "canceled", "growth", 1_782_600_000), 1_780_000_500);
    expect((await deliver(newer)).body.outcome).toBe("applied");
    expect((await deliver(older)).body.outcome).toBe("stale");
    expect((await account(db, tenant.id)).subscriptionStatus).toBe("canceled");
    expect(await getEntitlements(db, tenant.id)).toEqual({ paid: false, reason: "Your subscription was canceled." });
  });

  test("an old subscription's deletion does not cancel the new live one", async () => {
    const { db, tenant, customer } = await linkedTenant();
    await deliver(
      stripeEvent("customer.subscription.created", subscription(customer, "active", "agency", 1_782_600_000, "sub_new"), 1_780_000_100),
    );
    const result = await deliver(
      stripeEvent("customer.subscription.deleted", subscription(customer, "canceled", "starter", 1_782_600_000, "sub_old"), 1_780_000_200),
    );
    expect(result.body.outcome).toBe("ignored");
    expect(await account(db, tenant.id)).toMatchObject({ subscriptionId: "sub_new", subscriptionStatus: "active", plan: "agency" });
  });

  test("payment methods: attach, detach, and a late attach that must not revive the card", async () => {
    const { db, tenant, customer } = await linkedTenant();
    const card = {
      id: `pm_${randomUUID().replace(/-/g, "").slice(0, 14)}`,
      object: "payment_method",
      type: "card",
      customer,
      card: { brand: "visa", last4: "4242", exp_month: 4, exp_year: 2030 },
    };
    const attachedEarly = stripeEvent("payment_method.attached", card, 1_780_000_100);
    expect((await deliver(attachedEarly)).body.outcome).toBe("applied");
    let overview = await getBillingOverview({ db, tenantId: tenant.id, userId: "", role: "admin" });
    expect(overview.hasPaymentMethod).toBe(true);
    expect(overview.paymentMethods).toEqual([expect.objectContaining({ brand: "visa", last4: "4242", expMonth: 4, expYear: 2030 })]);

    const detached = stripeEvent("payment_method.detached", { ...card, customer: null }, 1_780_000_300, {
      previous_attributes: { customer },
    });
    expect((await deliver(detached)).body.outcome).toBe("applied");
    // A redelivered, older "attached" (another event id) arrives after the detach.
    const attachedLate = stripeEvent("payment_method.attached", card, 1_780_000_200);
    expect((await deliver(attachedLate)).body.outcome).toBe("stale");
    overview = await getBillingOverview({ db, tenantId: tenant.id, userId: "", role: "admin" });
    expect(overview.hasPaymentMethod).toBe(false);
    expect(overview.paymentMethods).toEqual([]);
  });

  test("events for customers Remarket does not know are acknowledged and ignored", async () => {
    const result = await deliver(
      stripeEvent("customer.subscription.updated", subscription("cus_unknown", "active", "growth", 1_782_600_000), 1_780_000_100),
    );
    expect(result).toEqual({ status: 200, body: { received: true, outcome: "ignored" } });
  });
});
