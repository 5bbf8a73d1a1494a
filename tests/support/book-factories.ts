import { randomUUID } from "node:crypto";
import type { DbOrTx } from "~/db/client.server";
import { customers, policies } from "~/db/schema";

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
