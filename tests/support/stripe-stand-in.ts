import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Stands in for the Stripe API at the HTTP boundary, for the official SDK pointed at it with
 * its host/port/protocol options. It answers only the endpoints Remarket uses: customers
 * (create, list by e-mail), Checkout sessions, billing portal sessions and subscriptions
 * (retrieve, update), and replays a POST repeated with its Idempotency-Key as Stripe does. Every
 * request is recorded for assertions.
 */
export type RecordedRequest = { method: string; path: string; query: URLSearchParams; body: URLSearchParams };

type Customer = { id: string; object: "customer"; email: string | null; name: string | null; metadata: Record<string, string> };
type Subscription = Record<string, unknown> & { id: string; metadata: Record<string, string> };

export async function startStripeStandIn() {
  const requests: RecordedRequest[] = [];
  const customers: Customer[] = [];
  const subscriptions = new Map<string, Subscription>();
  // Stripe answers a POST repeated with the same Idempotency-Key with the first answer (24 hours).
  const answered = new Map<string, [number, unknown]>();

  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://stand-in");
      const body = new URLSearchParams(raw);
      const recorded = { method: req.method ?? "GET", path: url.pathname, query: url.searchParams, body };
      requests.push(recorded);
      const key = req.method === "POST" ? req.headers["idempotency-key"] : undefined;
      const replay = typeof key === "string" ? answered.get(key) : undefined;
      const [status, payload] = replay ?? route(recorded);
      if (typeof key === "string" && !replay) answered.set(key, [status, payload]);
      res.writeHead(status, { "Content-Type": "application/json", "Request-Id": `req_${randomUUID().slice(0, 12)}` });
      res.end(JSON.stringify(payload));
    });
  });

  function metadataOf(body: URLSearchParams, prefix = "metadata") {
    const out: Record<string, string> = {};
    for (const [key, value] of body) {
      const match = key.match(new RegExp(`^${prefix.replace(/[[\]]/g, "\\$&")}\\[(\\w+)\\]$`));
      if (match) out[match[1]] = value;
    }
    return out;
  }

  function route({ method, path, query, body }: RecordedRequest): [number, unknown] {
    if (method === "GET" && path === "/v1/customers") {
      const email = query.get("email");
      const data = customers.filter((c) => !email || c.email === email);
      return [200, { object: "list", url: "/v1/customers", has_more: false, data }];
    }
    if (method === "POST" && path === "/v1/customers") {
      const customer: Customer = {
        id: `cus_${randomUUID().replace(/-/g, "").slice(0, 14)}`,
        object: "customer",
        email: body.get("email"),
        name: body.get("name"),
        metadata: metadataOf(body),
      };
      customers.push(customer);
      return [200, customer];
    }
    if (method === "POST" && path === "/v1/checkout/sessions") {
      const id = `cs_test_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
      return [
        200,
        {
          id,
          object: "checkout.session",
          mode: body.get("mode"),
          customer: body.get("customer"),
          url: `https://checkout.stripe.test/c/pay/${id}`,
        },
      ];
    }
    if (method === "POST" && path === "/v1/billing_portal/sessions") {
      const id = `bps_${randomUUID().replace(/-/g, "").slice(0, 14)}`;
      return [
        200,
        {
          id,
          object: "billing_portal.session",
          customer: body.get("customer"),
          return_url: body.get("return_url"),
          url: `https://billing.stripe.test/p/session/${id}`,
        },
      ];
    }
    const sub = path.match(/^\/v1\/subscriptions\/([\w]+)$/);
    if (sub) {
      const existing = subscriptions.get(sub[1]);
      if (!existing) return [404, { error: { type: "invalid_request_error", message: `No such subscription: '${sub[1]}'` } }];
      if (method === "POST") {
        const price = body.get("items[0][price]");
        const items = existing.items as { data: { id: string; price: { id: string }; current_period_end: number }[] };
        if (price) items.data[0].price = { id: price };
        existing.metadata = { ...existing.metadata, ...metadataOf(body) };
      }
      return [200, existing];
    }
    return [404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${path})` } }];
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    requests,
    customers,
    /** Add a customer as if created earlier (e.g. by another system). */
    addCustomer(input: Omit<Customer, "object">) {
      customers.push({ object: "customer", ...input });
    },
    /** Add a subscription the SDK can retrieve and update. */
    addSubscription(input: Subscription) {
      subscriptions.set(input.id, input);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type StripeStandIn = Awaited<ReturnType<typeof startStripeStandIn>>;

/** Point the app's Stripe configuration at the stand-in (call `resetEnvForTests` and `resetStripeForTests` after). */
export function stripeEnvFor(standIn: StripeStandIn) {
  return {
    STRIPE_SECRET_KEY: "sk_test_stand_in",
    STRIPE_API_HOST: "127.0.0.1",
    STRIPE_API_PORT: String(standIn.port),
    STRIPE_API_PROTOCOL: "http",
  };
}
