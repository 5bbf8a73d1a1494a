import { and, eq, isNull } from "drizzle-orm";
import Stripe from "stripe";
import type { Db, DbOrTx } from "~/db/client.server";
import { billingAccounts, billingPaymentMethods, stripeEvents } from "~/db/schema";
import { getEnv } from "~/env.server";
import { applyInvoiceOutcome, applyPaymentMethod, applySubscriptionSnapshot, type ApplyOutcome } from "./billing-account.server";
import { ServiceError } from "../platform/errors.server";
import { notify } from "../platform/notifications.server";
import { idOf, snapshotOfPaymentMethod, snapshotOfSubscription } from "./stripe.server";

/** Verify the Stripe-Signature header against STRIPE_WEBHOOK_SECRET and parse the event. */
export async function verifyStripeWebhook(payload: string, signature: string | null) {
  const secret = getEnv().STRIPE_WEBHOOK_SECRET;
  if (!secret) throw new ServiceError("Stripe webhooks are not configured.", 404);
  if (!signature) throw new ServiceError("Missing Stripe-Signature header.", 400);
  try {
    return await Stripe.webhooks.constructEventAsync(payload, signature, secret);
  } catch {
    throw new ServiceError("Invalid Stripe signature.", 400);
  }
}

export type EventOutcome = ApplyOutcome | "duplicate";

/**
 * Apply one verified event, once: its id is recorded in the same transaction as its effect, so
 * a replay is acknowledged without effect and a failure leaves nothing recorded (Stripe retries).
 * Ordering: every write compares the event's creation time with the stored state's.
 * cross-tenant: a verified Stripe event is recorded by its own id; it names its tenant, not us.
 */
export async function handleStripeEvent(db: Db, event: Stripe.Event): Promise<EventOutcome> {
  const at = new Date(event.created * 1000);
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type, outcome: "pending", createdAt: at })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.id });
    if (!claimed) return "duplicate";
    const { outcome, tenantId } = await applyEvent(tx, event, at);
    await tx.update(stripeEvents).set({ outcome, tenantId }).where(eq(stripeEvents.id, event.id));
    return outcome;
  });
}

type Applied = { outcome: ApplyOutcome; tenantId: string | null };
const ignored: Applied = { outcome: "ignored", tenantId: null };

async function applyEvent(tx: DbOrTx, event: Stripe.Event, at: Date): Promise<Applied> {
  switch (event.type) {
    case "checkout.session.completed": {
      const session = event.data.object;
      const tenantId = await linkCustomer(tx, idOf(session.customer), session.client_reference_id ?? session.metadata?.tenantId);
      return { outcome: tenantId ? "applied" : "ignored", tenantId };
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const sub = event.data.object;
      const tenantId = await linkCustomer(tx, idOf(sub.customer), sub.metadata?.tenantId);
      if (!tenantId) return ignored;
      const snap = snapshotOfSubscription(sub);
      if (event.type === "customer.subscription.deleted") snap.status = "canceled";
      return { outcome: await applySubscriptionSnapshot(tx, tenantId, snap, at), tenantId };
    }
    case "invoice.paid":
    case "invoice.payment_failed": {
      const invoice = event.data.object;
      const tenantId = await tenantByCustomer(tx, idOf(invoice.customer));
      if (!tenantId) return ignored;
      const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription);
      const failed = event.type === "invoice.payment_failed";
      const outcome = await applyInvoiceOutcome(tx, tenantId, failed ? "failed" : "paid", subscriptionId, at);
      if (failed && outcome === "applied") {
        await notify(tx, {
          tenantId,
          kind: "billing.payment_failed",
          title: "Payment failed",
          message: `We could not collect your subscription payment. Update your payment method within ${getEnv().GRACE_PERIOD_DAYS} days to keep re-marketing.`,
          link: "/billing",
        });
      }
      return { outcome, tenantId };
    }
    case "payment_method.attached": {
      const pm = event.data.object;
      const tenantId = await tenantByCustomer(tx, idOf(pm.customer));
      if (!tenantId) return ignored;
      return { outcome: await applyPaymentMethod(tx, tenantId, snapshotOfPaymentMethod(pm), true, at), tenantId };
    }
    case "payment_method.detached": {
      const pm = event.data.object;
      // A detached card has no customer any more; the previous one (or our own row) tells whose it was.
      const previous = idOf(event.data.previous_attributes?.customer as string | { id: string } | null | undefined);
      const tenantId = (await tenantByCustomer(tx, previous)) ?? (await tenantByPaymentMethod(tx, pm.id));
      if (!tenantId) return ignored;
      return { outcome: await applyPaymentMethod(tx, tenantId, snapshotOfPaymentMethod(pm), false, at), tenantId };
    }
    default:
      return ignored;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** cross-tenant: a verified Stripe event names a Stripe customer; this finds which tenant it is. */
async function tenantByCustomer(tx: DbOrTx, customerId: string | null) {
  if (!customerId) return null;
  const [row] = await tx
    .select({ tenantId: billingAccounts.tenantId })
    .from(billingAccounts)
    .where(eq(billingAccounts.stripeCustomerId, customerId));
  return row?.tenantId ?? null;
}

/** cross-tenant: a verified Stripe event names a payment method; this finds which tenant it is. */
async function tenantByPaymentMethod(tx: DbOrTx, providerId: string) {
  const [row] = await tx
    .select({ tenantId: billingPaymentMethods.tenantId })
    .from(billingPaymentMethods)
    .where(eq(billingPaymentMethods.providerId, providerId));
  return row?.tenantId ?? null;
}

/**
 * The tenant of a Stripe customer. Checkout and subscriptions carry our tenant id (we set it
 * when creating them), which links a customer the tenant does not have yet; a tenant already
 * linked to another customer is never re-pointed.
 */
async function linkCustomer(tx: DbOrTx, customerId: string | null, tenantHint: string | null | undefined) {
  const known = await tenantByCustomer(tx, customerId);
  if (known || !customerId || !tenantHint || !UUID.test(tenantHint)) return known;
  const [linked] = await tx
    .update(billingAccounts)
    .set({ stripeCustomerId: customerId, updatedAt: new Date() })
    .where(and(eq(billingAccounts.tenantId, tenantHint), isNull(billingAccounts.stripeCustomerId)))
    .returning({ tenantId: billingAccounts.tenantId });
  return linked?.tenantId ?? null;
}
