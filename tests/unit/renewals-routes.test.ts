import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { quotes, remarkets, renewalFlags, tasks, tenantCarriers } from "~/db/schema";
import * as apiQoutesPolicy from "~/routes/api.qoutes.policy.$policyId";
import * as apiQoutesSelection from "~/routes/api.qoutes.$id.selection";
import * as apiQuotesPolicy from "~/routes/api.quotes.policy.$policyId";
import * as apiQuotesSelection from "~/routes/api.quotes.$id.selection";
import * as carriersRoute from "~/routes/_app.carriers";
import * as customerRoute from "~/routes/_app.customers.$id";
import * as quoteRoute from "~/routes/_app.quotes.$remarketId";
import * as remarketRoute from "~/routes/_app.remarket";
import * as tasksRoute from "~/routes/_app.tasks";
import { addTenantCarrier } from "~/services/connections/carriers.server";
import { recomputeForecast } from "~/services/renewals/forecast.server";
import { getRemarketAllowance } from "~/services/billing/quota.server";
import { saveQuote } from "~/services/renewals/quotes.server";
import { remarketPolicy } from "~/services/renewals/remarket.server";
import { ensureCarrierCatalogue } from "~/services/connections/carrier-catalogue.server";
import { createCustomer, createPolicy } from "../support/book-factories";
import { bearerFor, createTestTenant, makeRequest, sessionCookieFor } from "../support/factories";
import { unwrapData } from "../support/route-results";

type Args = { request: Request; params: Record<string, string>; context: Record<string, unknown> };
type Handler = (args: Args) => Promise<unknown>;

/** The status a loader/action answers with, whether it returns or throws a Response. */
async function statusOf(handler: Handler, request: Request, params: Record<string, string> = {}) {
  try {
    const result = await handler({ request, params, context: {} });
    if (result instanceof Response) return result.status;
    const init = (result as { init?: ResponseInit | null })?.init;
    return init?.status ?? 200;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

const in30Days = () => new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

async function tenantWithBook() {
  const t = await createTestTenant();
  const customer = await createCustomer(t.db, t.tenant.id, { name: "Isolated Ivy" });
  const a = await createPolicy(t.db, t.tenant.id, {
    customerId: customer.id,
    expirationDate: in30Days(),
    premium: 1000,
    renewalPremium: 1400,
  });
  const b = await createPolicy(t.db, t.tenant.id, {
    customerId: (await createCustomer(t.db, t.tenant.id, { name: "Other Otto" })).id,
    expirationDate: in30Days(),
    premium: 1000,
    renewalPremium: 1500,
  });
  await recomputeForecast({ db: t.db, tenantId: t.tenant.id });
  const [flag] = await t.db
    .select({ id: renewalFlags.id })
    .from(renewalFlags)
    .where(and(eq(renewalFlags.tenantId, t.tenant.id), eq(renewalFlags.policyId, b.id)));
  const rm = await remarketPolicy(t.ctx, a.id);
  const quoteId = await saveQuote(t.ctx, rm.remarketId, { carrierName: "Safeco", premium: 1200, effectiveDate: in30Days() });
  const [task] = await t.db.select({ id: tasks.id }).from(tasks).where(eq(tasks.remarketId, rm.remarketId));
  await ensureCarrierCatalogue(t.db);
  const catalogue = await carriersRoute.loader({
    request: makeRequest("/carriers", { cookie: await sessionCookieFor(t.user) }),
    params: {},
    context: {},
  });
  const carrier = await addTenantCarrier(t.ctx, catalogue.catalogue[0].id);
  return {
    ...t,
    cookie: await sessionCookieFor(t.user),
    bearer: await bearerFor(t.user),
    customerId: customer.id,
    policyId: a.id,
    flagId: flag.id,
    remarketId: rm.remarketId,
    quoteId,
    taskId: task.id,
    tenantCarrierId: carrier.id,
  };
}

describe("tenant isolation: another tenant's ids are 404 everywhere", () => {
  let mine: Awaited<ReturnType<typeof tenantWithBook>>;
  let theirs: Awaited<ReturnType<typeof tenantWithBook>>;
  beforeAll(async () => {
    mine = await tenantWithBook();
    theirs = await tenantWithBook();
  });

  test("pages that take an id", async () => {
    const get = (path: string) => makeRequest(path, { cookie: mine.cookie });
    expect(await statusOf(customerRoute.loader as Handler, get(`/customers/${mine.customerId}`), { id: mine.customerId })).toBe(200);
    expect(await statusOf(customerRoute.loader as Handler, get(`/customers/${theirs.customerId}`), { id: theirs.customerId })).toBe(404);
    expect(await statusOf(customerRoute.loader as Handler, get("/customers/not-a-uuid"), { id: "not-a-uuid" })).toBe(404);
    expect(await statusOf(quoteRoute.loader as Handler, get(`/quotes/${mine.remarketId}`), { remarketId: mine.remarketId })).toBe(200);
    expect(await statusOf(quoteRoute.loader as Handler, get(`/quotes/${theirs.remarketId}`), { remarketId: theirs.remarketId })).toBe(404);
  });

  test("quote actions", async () => {
    const post = (form: Record<string, string>, remarketId: string) =>
      statusOf(quoteRoute.action as Handler, makeRequest(`/quotes/${remarketId}`, { cookie: mine.cookie, form }), { remarketId });
    const quote = { intent: "save", carrierName: "Chubb", premium: "1100", effectiveDate: in30Days() };
    expect(await post(quote, theirs.remarketId)).toBe(404);
    expect(await post({ intent: "select", quoteId: theirs.quoteId }, theirs.remarketId)).toBe(404);
    expect(await post({ intent: "lost" }, theirs.remarketId)).toBe(404);
    // Their quote through my re-market's page: still theirs.
    expect(await post({ intent: "select", quoteId: theirs.quoteId }, mine.remarketId)).toBe(404);
    expect(await post({ ...quote, quoteId: theirs.quoteId }, mine.remarketId)).toBe(404);
    const [untouched] = await theirs.db
      .select({ selected: quotes.selected, premium: quotes.premium })
      .from(quotes)
      .where(eq(quotes.id, theirs.quoteId));
    expect(untouched).toEqual({ selected: false, premium: 1200 });
  });

  test("worklist actions, one row and in bulk", async () => {
    const post = (form: Record<string, string>) =>
      statusOf(remarketRoute.action as Handler, makeRequest("/remarket", { cookie: mine.cookie, form }));
    expect(await post({ row: `remarket:${theirs.flagId}` })).toBe(404);
    expect(await post({ row: `dismiss:${theirs.flagId}`, [`reason-${theirs.flagId}`]: "x" })).toBe(404);
    expect(await post({ row: `snooze:${theirs.flagId}`, [`until-${theirs.flagId}`]: in30Days() })).toBe(404);
    expect(await post({ intent: "bulk-remarket", ids: theirs.flagId })).toBe(404);
    expect(await post({ intent: "bulk-dismiss", ids: theirs.flagId, reason: "Not ours" })).toBe(404);
    expect(await post({ intent: "bulk-snooze", ids: theirs.flagId, until: in30Days() })).toBe(404);
    const [flag] = await theirs.db.select({ status: renewalFlags.status }).from(renewalFlags).where(eq(renewalFlags.id, theirs.flagId));
    expect(flag.status).toBe("open");
    expect((await getRemarketAllowance(theirs.db, theirs.tenant.id)).used).toBe(1);
  });

  test("tasks and carriers", async () => {
    expect(
      await statusOf(
        tasksRoute.action as Handler,
        makeRequest("/tasks", { cookie: mine.cookie, form: { intent: "done", taskId: theirs.taskId } }),
      ),
    ).toBe(404);
    const carrier = (form: Record<string, string>) =>
      statusOf(carriersRoute.action as Handler, makeRequest("/carriers", { cookie: mine.cookie, form }));
    expect(await carrier({ intent: "remove", id: theirs.tenantCarrierId })).toBe(404);
    expect(await carrier({ intent: "numbers", id: theirs.tenantCarrierId, agencyCode: "X" })).toBe(404);
    expect(await carrier({ intent: "credentials", id: theirs.tenantCarrierId, username: "u", password: "p" })).toBe(404);
    expect(await carrier({ intent: "invalid", id: theirs.tenantCarrierId, value: "true" })).toBe(404);
    const [row] = await theirs.db.select().from(tenantCarriers).where(eq(tenantCarriers.id, theirs.tenantCarrierId));
    expect(row).toMatchObject({ agencyCode: null, portalUsername: null, credentialsInvalid: false });
    const [task] = await theirs.db.select({ status: tasks.status }).from(tasks).where(eq(tasks.id, theirs.taskId));
    expect(task.status).toBe("open");
  });

  test("JSON API, both spellings", async () => {
    for (const route of [apiQoutesPolicy, apiQuotesPolicy]) {
      const ok = await route.loader({
        request: makeRequest(`/api/qoutes/policy/${mine.policyId}`, { headers: { Authorization: mine.bearer } }),
        params: { policyId: mine.policyId },
        context: {},
      });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as { data: unknown[] }).data).toHaveLength(1);
      const other = await route.loader({
        request: makeRequest(`/api/qoutes/policy/${theirs.policyId}`, { headers: { Authorization: mine.bearer } }),
        params: { policyId: theirs.policyId },
        context: {},
      });
      expect(other.status).toBe(404);
    }
    for (const route of [apiQoutesSelection, apiQuotesSelection]) {
      const request = new Request(`http://localhost/api/qoutes/${theirs.quoteId}/selection`, {
        method: "POST",
        headers: { Authorization: mine.bearer, "Content-Type": "application/json" },
        body: "{}",
      });
      const response = await route.action({ request, params: { id: theirs.quoteId }, context: {} });
      expect(response.status).toBe(404);
    }
    const [rm] = await theirs.db.select({ status: remarkets.status }).from(remarkets).where(eq(remarkets.id, theirs.remarketId));
    expect(rm.status).toBe("open");
  });
});

describe("worklist route", () => {
  test("re-marketing a row counts one unit; the same form submitted again counts nothing", async () => {
    const t = await tenantWithBook();
    const before = (await getRemarketAllowance(t.db, t.tenant.id)).used;
    // Spending quota asks first: the answer to the first press is the question, and nothing is counted.
    const question = await remarketRoute.action({
      request: makeRequest("/remarket?carrier=Travelers", {
        cookie: t.cookie,
        form: { row: `remarket:${t.flagId}`, _formToken: "question-token-0123456789" },
      }),
      params: {},
      context: {},
    });
    expect(question).toMatchObject({
      confirm: { message: expect.stringMatching(/^This uses 1 of your \d+ re-markets? left in \d{4}\.$/) },
    });
    expect((await getRemarketAllowance(t.db, t.tenant.id)).used).toBe(before);

    const form = { row: `remarket:${t.flagId}`, confirmed: "yes", _formToken: "resubmitted-token-0123456789" };
    const first = await remarketRoute.action({
      request: makeRequest("/remarket?carrier=Travelers", { cookie: t.cookie, form }),
      params: {},
      context: {},
    });
    expect(first).toBeInstanceOf(Response);
    // Back to the same filters, with the re-market it made offered for undo.
    expect((first as Response).headers.get("Location")).toMatch(/^\/remarket\?carrier=Travelers&undo=[0-9a-f-]{36}$/);
    const again = await remarketRoute.action({
      request: makeRequest("/remarket?carrier=Travelers", { cookie: t.cookie, form }),
      params: {},
      context: {},
    });
    expect((again as Response).status).toBe(302);
    expect((await getRemarketAllowance(t.db, t.tenant.id)).used).toBe(before + 1);
    // A new form (new token) on the same flag is refused by the unique constraint, nothing counted.
    const third = await statusOf(
      remarketRoute.action as Handler,
      makeRequest("/remarket", {
        cookie: t.cookie,
        form: { row: `remarket:${t.flagId}`, confirmed: "yes", _formToken: "another-token-0123456789abc" },
      }),
    );
    expect(third).toBe(409);
    expect((await getRemarketAllowance(t.db, t.tenant.id)).used).toBe(before + 1);
  });

  test("dismissing needs a reason; filters narrow the list", async () => {
    const t = await tenantWithBook();
    const missing = await remarketRoute.action({
      request: makeRequest("/remarket", { cookie: t.cookie, form: { row: `dismiss:${t.flagId}`, [`reason-${t.flagId}`]: " " } }),
      params: {},
      context: {},
    });
    expect(unwrapData<{ error: Record<string, string[]> }>(missing)).toMatchObject({
      status: 400,
      data: { error: { [`reason-${t.flagId}`]: ["Enter a reason to dismiss."] } },
    });
    const bulkMissing = await remarketRoute.action({
      request: makeRequest("/remarket", { cookie: t.cookie, form: { intent: "bulk-dismiss", ids: t.flagId } }),
      params: {},
      context: {},
    });
    expect(unwrapData<{ error: Record<string, string[]> }>(bulkMissing)).toMatchObject({
      status: 400,
      data: { error: { reason: ["Enter a reason to dismiss."] } },
    });
    const loaded = await remarketRoute.loader({
      request: makeRequest("/remarket?carrier=Travelers&q=other", { cookie: t.cookie }),
      params: {},
      context: {},
    });
    expect(loaded.rows.map((r) => r.customerName)).toEqual(["Other Otto"]);
    const none = await remarketRoute.loader({
      request: makeRequest("/remarket?carrier=Chubb", { cookie: t.cookie }),
      params: {},
      context: {},
    });
    expect(none.rows).toEqual([]);
  });
});

describe("refused forms answer on their fields and keep the input", () => {
  type Reply = { initialValue: Record<string, unknown> | null; error: Record<string, string[]> | null };

  test("a quote without a premium or carrier: messages by field, the typed notes kept", async () => {
    const t = await tenantWithBook();
    const post = (form: Record<string, string>) =>
      quoteRoute.action({
        request: makeRequest(`/quotes/${t.remarketId}`, { cookie: t.cookie, form }),
        params: { remarketId: t.remarketId },
        context: {},
      });
    const refused = unwrapData<Reply>(
      await post({
        intent: "save",
        carrierId: "",
        carrierName: "",
        premium: "",
        effectiveDate: in30Days(),
        coverageNotes: "Higher deductible",
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.data.error).toEqual({ carrierId: ["Choose a carrier or type its name."], premium: ["Enter the quoted premium."] });
    expect(refused.data.initialValue).toMatchObject({ coverageNotes: "Higher deductible", effectiveDate: in30Days() });
    // A carrier id that is not in the catalogue: the service's message, on the carrier field.
    const unknownCarrier = unwrapData<Reply>(
      await post({ intent: "save", carrierId: crypto.randomUUID(), premium: "900", effectiveDate: in30Days() }),
    );
    expect(unknownCarrier).toMatchObject({ status: 400, data: { error: { carrierId: ["Choose a carrier from the list."] } } });
    // Premiums as people write them; what is not money is quoted back.
    const notANumber = unwrapData<Reply>(await post({ intent: "save", carrierName: "Chubb", premium: "N/A", effectiveDate: in30Days() }));
    expect(notANumber).toMatchObject({ status: 400, data: { error: { premium: ["Premium is not a number: 'N/A'"] } } });
    const accepted = await post({ intent: "save", carrierName: "Chubb", premium: "$6,480.00", effectiveDate: in30Days() });
    expect(accepted).toBeInstanceOf(Response);
    expect((accepted as Response).status).toBe(302);
    const [stored] = await t.db
      .select({ premium: quotes.premium })
      .from(quotes)
      .where(and(eq(quotes.remarketId, t.remarketId), eq(quotes.carrierName, "Chubb")));
    expect(stored).toEqual({ premium: 6480 });
  });

  test("carrier credentials without a username: the message on it, the password not sent back", async () => {
    const t = await tenantWithBook();
    const result = await carriersRoute.action({
      request: makeRequest("/carriers", {
        cookie: t.cookie,
        form: { intent: "credentials", id: t.tenantCarrierId, username: " ", password: "s3cret-portal" },
      }),
      params: {},
      context: {},
    });
    const refused = unwrapData<Reply>(result);
    expect(refused).toMatchObject({ status: 400, data: { error: { username: ["Enter the portal username."] } } });
    expect(refused.data.initialValue).toMatchObject({ id: t.tenantCarrierId, intent: "credentials" });
    expect(JSON.stringify(refused.data)).not.toContain("s3cret-portal");
    const tooLong = unwrapData<Reply>(
      await carriersRoute.action({
        request: makeRequest("/carriers", {
          cookie: t.cookie,
          form: { intent: "numbers", id: t.tenantCarrierId, agencyCode: "A".repeat(41), producerCode: "P-7" },
        }),
        params: {},
        context: {},
      }),
    );
    expect(tooLong).toMatchObject({
      status: 400,
      data: { error: { agencyCode: ["Keep codes under 40 characters."] }, initialValue: { producerCode: "P-7" } },
    });
  });

  test("the worklist toolbar without a selection says so; a row button naming no renewal is a 404", async () => {
    const t = await tenantWithBook();
    const post = (form: Record<string, string>) =>
      statusOf(remarketRoute.action as Handler, makeRequest("/remarket", { cookie: t.cookie, form }));
    const none = await remarketRoute.action({
      request: makeRequest("/remarket", { cookie: t.cookie, form: { intent: "bulk-snooze", until: "2000-01-01" } }),
      params: {},
      context: {},
    });
    expect(unwrapData<Reply>(none)).toMatchObject({
      status: 400,
      data: {
        error: { ids: ["Select at least one renewal."], until: ["Choose a date after today."] },
        initialValue: { until: "2000-01-01" },
      },
    });
    expect(await post({ row: "remarket:not-a-flag" })).toBe(404);
  });
});
