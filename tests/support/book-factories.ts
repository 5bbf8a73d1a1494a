import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import type { DbOrTx } from "~/db/client.server";
import { customers, policies, renewalFlags } from "~/db/schema";
import type { TenantContext } from "~/services/platform/context.server";
import { recomputeForecast } from "~/services/renewals/forecast.server";
import { saveQuote } from "~/services/renewals/quotes.server";
import { remarketPolicy } from "~/services/renewals/remarket.server";

type PolicyInput = Partial<typeof policies.$inferInsert> & { customerId: string };

/** A customer of `tenantId` (unique source key). */
export async function createCustomer(db: DbOrTx, tenantId: string, input: Partial<typeof customers.$inferInsert> = {}) {
  const [row] = await db
    .insert(customers)
    .values({ tenantId, sourceKey: `C-${randomUUID().slice(0, 8)}`, name: "Pat Customer", ...input })
    .returning({ id: customers.id, name: customers.name });
  return row;
}

/** A policy term of `tenantId`; a renewing 12-month term with a prior premium unless told otherwise. */
export async function createPolicy(db: DbOrTx, tenantId: string, input: PolicyInput) {
  const [row] = await db
    .insert(policies)
    .values({
      tenantId,
      sourceKey: `P-${randomUUID()}`,
      policyNumber: `POL-${randomUUID().slice(0, 6).toUpperCase()}`,
      lineOfBusiness: "HOME",
      carrierName: "Travelers",
      status: "active",
      inceptionDate: "2020-01-01",
      effectiveDate: "2025-06-01",
      expirationDate: "2026-06-01",
      termMonths: 12,
      premium: 1000,
      priorPremium: 950,
      riskState: "TX",
      producer: "Sam Producer",
      ...input,
    })
    .returning({ id: policies.id, policyNumber: policies.policyNumber });
  return row;
}

export type ScopedBook = {
  customerIds: string[];
  customerNames: string[];
  policyIds: string[];
  policyNumbers: string[];
  /** Worklist rows still open (the ones not re-marketed). */
  openFlagIds: string[];
  remarketIds: string[];
  quoteIds: string[];
  taskIds: string[];
  carrier: string;
  producer: string;
};

/**
 * A small book of one tenant for tenant-scope tests: `size` customers, each with one active policy
 * renewing in 20 days at +40 % (flagged by the forecast, and due soon on the dashboard), carrier
 * and producer named with `tag`; the first `remarketed` policies are re-marketed (a task each)
 * and get one quote each.
 */
export async function seedFlaggedBook(
  ctx: TenantContext,
  input: { tag: string; size: number; remarketed: number; state?: string },
): Promise<ScopedBook> {
  const carrier = `Carrier ${input.tag}`;
  const producer = `Producer ${input.tag}`;
  const expires = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
  const book: ScopedBook = {
    customerIds: [],
    customerNames: [],
    policyIds: [],
    policyNumbers: [],
    openFlagIds: [],
    remarketIds: [],
    quoteIds: [],
    taskIds: [],
    carrier,
    producer,
  };
  for (let i = 0; i < input.size; i++) {
    const customer = await createCustomer(ctx.db, ctx.tenantId, {
      name: `Scope Customer ${input.tag} ${i}`,
      state: input.state ?? "TX",
      producer,
    });
    const policy = await createPolicy(ctx.db, ctx.tenantId, {
      customerId: customer.id,
      carrierName: carrier,
      producer,
      riskState: input.state ?? "TX",
      expirationDate: expires,
      premium: 1000,
      renewalPremium: 1400,
    });
    book.customerIds.push(customer.id);
    book.customerNames.push(customer.name);
    book.policyIds.push(policy.id);
    book.policyNumbers.push(policy.policyNumber);
  }
  await recomputeForecast({ db: ctx.db, tenantId: ctx.tenantId });
  for (const policyId of book.policyIds.slice(0, input.remarketed)) {
    const done = await remarketPolicy(ctx, policyId);
    book.remarketIds.push(done.remarketId);
    if (done.taskId) book.taskIds.push(done.taskId);
    book.quoteIds.push(await saveQuote(ctx, done.remarketId, { carrierName: `Quote ${input.tag}`, premium: 1200, effectiveDate: expires }));
  }
  const open = await ctx.db
    .select({ id: renewalFlags.id })
    .from(renewalFlags)
    .where(and(eq(renewalFlags.tenantId, ctx.tenantId), eq(renewalFlags.status, "open")));
  book.openFlagIds = open.map((f) => f.id);
  expect(book.openFlagIds).toHaveLength(input.size - input.remarketed);
  return book;
}
