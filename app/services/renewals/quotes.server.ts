import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import { carriers, customers, policies, quotes, remarkets, renewalForecasts, users, type RemarketOutcome } from "~/db/schema";
import { knownCarriers } from "../connections/carrier-matching.server";
import { matchCarrier, sameCarrier } from "../connections/carrier-names";
import { recordAudit } from "../platform/audit.server";
import { clock, type TenantContext } from "../platform/context.server";
import { NotFoundError, ServiceError } from "../platform/errors.server";
import { requireUuid } from "../platform/ids.server";
import { premiumSaved } from "./savings";
import { LIST_LIMIT_DEFAULT, listSort, type SortOf } from "~/utils/cursor.server";

type Ctx = Pick<TenantContext, "db" | "tenantId">;

export const REMARKETS_PAGE_SIZE = 20;

/** Open re-markets (awaiting a decision) before closed ones: not the alphabet's order of the words. */
const openFirst = sql<number>`(case when ${remarkets.status} = 'open' then 0 else 1 end)`;

/**
 * The re-market list's orders: by status (open first), each status newest first, unless asked
 * otherwise (`createdAt` is when it was re-marketed); ties newest, then by id.
 */
export const REMARKET_SORT = listSort({
  fields: { status: { expr: openFirst, kind: "number" }, createdAt: { expr: remarkets.remarketedAt, kind: "timestamp" } },
  then: [
    { expr: remarkets.remarketedAt, kind: "timestamp", descending: true },
    { expr: remarkets.id, kind: "uuid", descending: true },
  ],
  default: "status",
});

/**
 * Re-marketed policies with their quote counts (seed qoutes/), open first then newest (or another
 * REMARKET_SORT order); by page or, for the API, `limit` rows after `cursor`.
 */
export async function listRemarkets(
  ctx: Ctx,
  input: { status: "open" | "closed" | "all"; page: number; limit?: number; cursor?: string; sort?: SortOf<typeof REMARKET_SORT> },
) {
  const where = and(eq(remarkets.tenantId, ctx.tenantId), input.status === "all" ? undefined : eq(remarkets.status, input.status));
  const keyset = input.limit !== undefined || input.cursor !== undefined;
  const size = keyset ? (input.limit ?? LIST_LIMIT_DEFAULT) : REMARKETS_PAGE_SIZE;
  const sort = input.sort ?? REMARKET_SORT.default;
  const quoteCount = ctx.db
    .select({ remarketId: quotes.remarketId, n: count().as("n") })
    .from(quotes)
    .where(eq(quotes.tenantId, ctx.tenantId))
    .groupBy(quotes.remarketId)
    .as("qc");
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({
        id: remarkets.id,
        policyId: remarkets.policyId,
        policyNumber: policies.policyNumber,
        lineOfBusiness: policies.lineOfBusiness,
        expirationDate: policies.expirationDate,
        customerId: remarkets.customerId,
        customerName: customers.name,
        incumbent: remarkets.incumbentCarrierName,
        incumbentOffer: remarkets.incumbentOffer,
        remarketedAt: remarkets.remarketedAt,
        status: remarkets.status,
        outcome: remarkets.outcome,
        premiumSaved: remarkets.premiumSaved,
        savingsBasis: remarkets.savingsBasis,
        quotes: sql<number>`coalesce(${quoteCount.n}, 0)`.mapWith(Number),
        cursorKey: REMARKET_SORT.key(sort),
      })
      .from(remarkets)
      .innerJoin(policies, eq(policies.id, remarkets.policyId))
      .innerJoin(customers, eq(customers.id, remarkets.customerId))
      .leftJoin(quoteCount, eq(quoteCount.remarketId, remarkets.id))
      .where(and(where, REMARKET_SORT.after(sort, input.cursor)))
      .orderBy(...REMARKET_SORT.orderBy(sort))
      .limit(size + 1)
      .offset(keyset ? 0 : (input.page - 1) * REMARKETS_PAGE_SIZE),
    ctx.db.select({ total: count() }).from(remarkets).where(where),
  ]);
  return { ...REMARKET_SORT.page(rows, size, sort), total };
}

/** One re-market with its policy, customer and quotes; another tenant's id is a 404. */
export async function getRemarket(ctx: Ctx, remarketId: string) {
  requireUuid(remarketId, "Re-market not found");
  const [remarket] = await ctx.db
    .select({
      id: remarkets.id,
      policyId: remarkets.policyId,
      customerId: remarkets.customerId,
      status: remarkets.status,
      outcome: remarkets.outcome,
      remarketedAt: remarkets.remarketedAt,
      quotaYear: remarkets.quotaYear,
      baselinePremium: remarkets.baselinePremium,
      boundPremium: remarkets.boundPremium,
      premiumSaved: remarkets.premiumSaved,
      savingsBasis: remarkets.savingsBasis,
      incumbentOffer: remarkets.incumbentOffer,
      incumbent: remarkets.incumbentCarrierName,
      incumbentCarrierId: policies.carrierId,
      selectedQuoteId: remarkets.selectedQuoteId,
      closedAt: remarkets.closedAt,
      byName: users.name,
      policyNumber: policies.policyNumber,
      lineOfBusiness: policies.lineOfBusiness,
      riskState: policies.riskState,
      expirationDate: policies.expirationDate,
      premium: policies.premium,
      customerName: customers.name,
      // The forecast's renewal premium, marked predicted (with basis and sample) when it is ours.
      forecastRenewalPremium: renewalForecasts.renewalPremium,
      predicted: renewalForecasts.predicted,
      predictionLevel: renewalForecasts.predictionLevel,
      predictionSample: renewalForecasts.predictionSample,
      predictionRate: renewalForecasts.predictionRate,
    })
    .from(remarkets)
    .innerJoin(policies, eq(policies.id, remarkets.policyId))
    .innerJoin(customers, eq(customers.id, remarkets.customerId))
    .leftJoin(users, eq(users.id, remarkets.userId))
    .leftJoin(renewalForecasts, and(eq(renewalForecasts.tenantId, remarkets.tenantId), eq(renewalForecasts.policyId, remarkets.policyId)))
    .where(and(eq(remarkets.tenantId, ctx.tenantId), eq(remarkets.id, remarketId)));
  if (!remarket) throw new NotFoundError("Re-market not found");
  return { ...remarket, quotes: await quotesOf(ctx, eq(quotes.remarketId, remarketId)) };
}

const quoteColumns = {
  id: quotes.id,
  remarketId: quotes.remarketId,
  policyId: quotes.policyId,
  carrierId: quotes.carrierId,
  carrierName: quotes.carrierName,
  premium: quotes.premium,
  effectiveDate: quotes.effectiveDate,
  coverageNotes: quotes.coverageNotes,
  selected: quotes.selected,
  createdAt: quotes.createdAt,
  updatedAt: quotes.updatedAt,
};

function quotesOf(ctx: Ctx, filter: ReturnType<typeof eq>) {
  return ctx.db
    .select(quoteColumns)
    .from(quotes)
    .where(and(eq(quotes.tenantId, ctx.tenantId), filter))
    .orderBy(asc(quotes.premium), asc(quotes.createdAt));
}

/** Quotes of one policy (seed qoutes/policy); a 404 when the policy is not the tenant's. */
export async function quotesForPolicy(ctx: Ctx, policyId: string) {
  requireUuid(policyId, "Policy not found");
  const [policy] = await ctx.db
    .select({ id: policies.id })
    .from(policies)
    .where(and(eq(policies.tenantId, ctx.tenantId), eq(policies.id, policyId)));
  if (!policy) throw new NotFoundError("Policy not found");
  return quotesOf(ctx, eq(quotes.policyId, policyId));
}

/** Quotes of one customer (seed qoutes/customer). */
export function quotesForCustomer(ctx: Ctx, customerId: string) {
  return ctx.db
    .select({ ...quoteColumns, policyNumber: policies.policyNumber })
    .from(quotes)
    .innerJoin(policies, eq(policies.id, quotes.policyId))
    .where(and(eq(quotes.tenantId, ctx.tenantId), eq(policies.customerId, customerId)))
    .orderBy(desc(quotes.createdAt));
}

export type QuoteInput = {
  quoteId?: string;
  carrierId?: string;
  carrierName?: string;
  premium: number;
  effectiveDate: string;
  coverageNotes?: string;
};

/** Record a quote for a re-marketed policy, or edit one (seed qoutes/policy/create-update). */
export async function saveQuote(ctx: TenantContext, remarketId: string, input: QuoteInput) {
  const remarket = await getRemarket(ctx, remarketId);
  let carrierName = input.carrierName?.trim() ?? "";
  let carrierId = input.carrierId ?? null;
  if (carrierId) {
    const [carrier] = await ctx.db.select({ name: carriers.name }).from(carriers).where(eq(carriers.id, carrierId));
    if (!carrier) throw new ServiceError("Choose a carrier from the list.", 400, "carrierId");
    carrierName = carrier.name;
  } else if (carrierName) {
    // A typed "Erie" is the catalogue's Erie Insurance: one carrier, whichever way it was entered.
    const match = matchCarrier(carrierName, await knownCarriers(ctx.db, ctx.tenantId));
    if (match) ({ id: carrierId, name: carrierName } = match.carrier);
  }
  if (!carrierName) throw new ServiceError("Choose a carrier.", 400, "carrierId");
  const now = clock(ctx);
  const values = {
    carrierId,
    carrierName,
    premium: input.premium,
    effectiveDate: input.effectiveDate,
    coverageNotes: input.coverageNotes?.trim() || null,
    updatedAt: now,
  };
  return ctx.db.transaction(async (tx) => {
    let quoteId = input.quoteId;
    if (quoteId) {
      const [updated] = await tx
        .update(quotes)
        .set(values)
        .where(and(eq(quotes.tenantId, ctx.tenantId), eq(quotes.remarketId, remarketId), eq(quotes.id, quoteId)))
        .returning({ id: quotes.id });
      if (!updated) throw new NotFoundError("Quote not found");
    } else {
      const [created] = await tx
        .insert(quotes)
        .values({ ...values, tenantId: ctx.tenantId, remarketId, policyId: remarket.policyId, createdBy: ctx.userId, createdAt: now })
        .returning({ id: quotes.id });
      quoteId = created.id;
    }
    await recordAudit(
      tx,
      {
        tenantId: ctx.tenantId,
        actorUserId: ctx.userId,
        action: input.quoteId ? "quote.updated" : "quote.created",
        subjectType: "policy",
        subjectId: remarket.policyId,
        details: { quoteId, carrierName, premium: input.premium, policyNumber: remarket.policyNumber },
      },
      now,
    );
    return quoteId!;
  });
}

/**
 * Select the winning quote (seed qoutes/id/selection): it closes the re-market — renewed with
 * the incumbent when the carrier is the same, otherwise rewritten — and computes the premium
 * saved against the renewal premium the re-market started from.
 */
export async function selectQuote(ctx: TenantContext, quoteId: string) {
  requireUuid(quoteId, "Quote not found");
  const [quote] = await ctx.db
    .select({
      id: quotes.id,
      remarketId: quotes.remarketId,
      carrierId: quotes.carrierId,
      carrierName: quotes.carrierName,
      premium: quotes.premium,
    })
    .from(quotes)
    .where(and(eq(quotes.tenantId, ctx.tenantId), eq(quotes.id, quoteId)));
  if (!quote) throw new NotFoundError("Quote not found");
  const remarket = await getRemarket(ctx, quote.remarketId);
  const outcome: RemarketOutcome = isIncumbent(quote, remarket) ? "renewed" : "rewritten";
  const saving = premiumSaved({ chosenPremium: quote.premium, incumbentOffer: remarket.incumbentOffer, currentPremium: remarket.premium });
  const saved = saving?.saved ?? null;
  const now = clock(ctx);
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(quotes)
      .set({ selected: false })
      .where(and(eq(quotes.tenantId, ctx.tenantId), eq(quotes.remarketId, remarket.id)));
    await tx
      .update(quotes)
      .set({ selected: true, updatedAt: now })
      .where(and(eq(quotes.tenantId, ctx.tenantId), eq(quotes.id, quote.id)));
    await tx
      .update(remarkets)
      .set({
        status: "closed",
        outcome,
        selectedQuoteId: quote.id,
        boundPremium: quote.premium,
        premiumSaved: saved,
        savingsBasis: saving?.basis ?? null,
        closedAt: now,
        closedBy: ctx.userId,
      })
      .where(and(eq(remarkets.tenantId, ctx.tenantId), eq(remarkets.id, remarket.id)));
    await recordAudit(
      tx,
      {
        tenantId: ctx.tenantId,
        actorUserId: ctx.userId,
        action: "quote.selected",
        subjectType: "policy",
        subjectId: remarket.policyId,
        details: {
          quoteId,
          remarketId: remarket.id,
          outcome,
          carrierName: quote.carrierName,
          premium: quote.premium,
          premiumSaved: saved,
          savingsBasis: saving?.basis ?? null,
        },
      },
      now,
    );
  });
  return { remarketId: remarket.id, outcome, premiumSaved: saved, savingsBasis: saving?.basis ?? null };
}

/**
 * Record the incumbent's renewal offer (null clears it). A closed re-market's saving is
 * measured again, since the offer is now its basis.
 */
export async function recordIncumbentOffer(ctx: TenantContext, remarketId: string, offer: number | null) {
  const remarket = await getRemarket(ctx, remarketId);
  const chosen = remarket.quotes.find((q) => q.id === remarket.selectedQuoteId);
  const saving = chosen ? premiumSaved({ chosenPremium: chosen.premium, incumbentOffer: offer, currentPremium: remarket.premium }) : null;
  const now = clock(ctx);
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(remarkets)
      .set({
        incumbentOffer: offer,
        ...(chosen ? { premiumSaved: saving?.saved ?? null, savingsBasis: saving?.basis ?? null } : {}),
      })
      .where(and(eq(remarkets.tenantId, ctx.tenantId), eq(remarkets.id, remarket.id)));
    await recordAudit(
      tx,
      {
        tenantId: ctx.tenantId,
        actorUserId: ctx.userId,
        action: "remarket.incumbent_offer",
        subjectType: "policy",
        subjectId: remarket.policyId,
        details: { remarketId, incumbent: remarket.incumbent, offer, previous: remarket.incumbentOffer },
      },
      now,
    );
  });
  return { premiumSaved: saving?.saved ?? null, savingsBasis: saving?.basis ?? null };
}

/** The quote is the incumbent's, by carrier id or by any spelling of its name ("Erie" is "Erie Insurance"). */
function isIncumbent(
  quote: { carrierId: string | null; carrierName: string },
  remarket: { incumbentCarrierId: string | null; incumbent: string },
) {
  if (quote.carrierId && quote.carrierId === remarket.incumbentCarrierId) return true;
  return sameCarrier(quote.carrierName, remarket.incumbent);
}

/** Close a re-market as lost: the customer left, no quote was bound. */
export async function markLost(ctx: TenantContext, remarketId: string) {
  const remarket = await getRemarket(ctx, remarketId);
  const now = clock(ctx);
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(quotes)
      .set({ selected: false })
      .where(and(eq(quotes.tenantId, ctx.tenantId), eq(quotes.remarketId, remarket.id)));
    await tx
      .update(remarkets)
      .set({
        status: "closed",
        outcome: "lost",
        selectedQuoteId: null,
        boundPremium: null,
        premiumSaved: null,
        savingsBasis: null,
        closedAt: now,
        closedBy: ctx.userId,
      })
      .where(and(eq(remarkets.tenantId, ctx.tenantId), eq(remarkets.id, remarket.id)));
    await recordAudit(
      tx,
      {
        tenantId: ctx.tenantId,
        actorUserId: ctx.userId,
        action: "remarket.lost",
        subjectType: "policy",
        subjectId: remarket.policyId,
        details: { remarketId },
      },
      now,
    );
  });
}
