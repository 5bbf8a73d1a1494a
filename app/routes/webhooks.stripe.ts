import type { ActionFunctionArgs } from "@remix-run/node";
import { getDb } from "~/db/client.server";
import { isServiceError } from "~/services/errors.server";
import { handleStripeEvent, verifyStripeWebhook } from "~/services/stripe-webhooks.server";

/**
 * Stripe webhooks (POST /webhooks/stripe). Exempt from the Origin check in server/index.js;
 * the signature (STRIPE_WEBHOOK_SECRET) is the authentication. The raw body is verified as sent.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Method not allowed" }, { status: 405 });
  const payload = await request.text();
  let event;
  try {
    event = await verifyStripeWebhook(payload, request.headers.get("stripe-signature"));
  } catch (error) {
    if (isServiceError(error)) return Response.json({ error: error.message }, { status: error.status });
    throw error;
  }
  const outcome = await handleStripeEvent(await getDb(), event);
  return Response.json({ received: true, outcome });
}

export async function loader() {
  return Response.json({ error: "Not found" }, { status: 404 });
}
