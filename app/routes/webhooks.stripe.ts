import type { ActionFunctionArgs } from "@remix-run/node";
import { getDb } from "~/db/client.server";
import { handleStripeEvent, verifyStripeWebhook } from "~/services/billing/stripe-webhooks.server";
import { jsonRoute, methodNotAllowed } from "~/utils/api.server";

/**
 * Stripe webhooks (POST /webhooks/stripe). Exempt from the Origin check in server/index.js;
 * the signature (STRIPE_WEBHOOK_SECRET) is the authentication. The raw body is verified as sent.
 */
export async function action(args: ActionFunctionArgs) {
  return jsonRoute(args, ["POST"], async () => {
    const event = await verifyStripeWebhook(await args.request.text(), args.request.headers.get("stripe-signature"));
    const outcome = await handleStripeEvent(await getDb(), event);
    return { received: true, outcome };
  });
}

export const loader = methodNotAllowed;
