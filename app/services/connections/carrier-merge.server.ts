import { and, eq, sql } from "drizzle-orm";
import { tenantCarriers } from "~/db/schema";
import { recordAudit } from "../platform/audit.server";
import { clock, type TenantContext } from "../platform/context.server";
import { ServiceError } from "../platform/errors.server";
import { enqueueForecastRecompute } from "../renewals/forecast.server";
import { requireTenantCarrier } from "./carriers.server";

/**
 * Merge one of the agency's carriers into another (two spellings of one company): its
 * policies, quotes, re-markets and worklist rows take the kept carrier's id and name, its
 * agency and producer numbers fill the kept carrier's blanks, and re-markets closed as
 * "rewritten" with what is now the incumbent become "renewed". Admins only.
 */
export async function mergeCarriers(ctx: TenantContext, input: { fromId: string; intoId: string }) {
  if (ctx.role !== "admin") throw new ServiceError("Only agency admins can merge carriers.", 403);
  if (input.fromId === input.intoId) throw new ServiceError("Choose two different carriers.", 400, "intoId");
  const from = await requireTenantCarrier(ctx, input.fromId);
  const into = await requireTenantCarrier(ctx, input.intoId);
  const now = clock(ctx);
  const t = ctx.tenantId;
  return ctx.db.transaction(async (tx) => {
    const count = async (query: ReturnType<typeof sql>) => ((await tx.execute(query)) as unknown as { rows: unknown[] }).rows.length;
    const policies = await count(sql`
      update policies set carrier_id = ${into.carrierId}::uuid, carrier_name = ${into.name}, updated_at = ${now.toISOString()}::timestamptz
      where tenant_id = ${t}::uuid
        and (carrier_id = ${from.carrierId}::uuid or (carrier_id is null and lower(carrier_name) = lower(${from.name})))
      returning id`);
    const quotes = await count(sql`
      update quotes set carrier_id = ${into.carrierId}::uuid, carrier_name = ${into.name}
      where tenant_id = ${t}::uuid
        and (carrier_id = ${from.carrierId}::uuid or (carrier_id is null and lower(carrier_name) = lower(${from.name})))
      returning id`);
    await tx.execute(sql`
      update remarkets set incumbent_carrier_name = ${into.name}
      where tenant_id = ${t}::uuid and lower(incumbent_carrier_name) = lower(${from.name})`);
    await tx.execute(sql`
      update renewal_flags set carrier_name = ${into.name}
      where tenant_id = ${t}::uuid and lower(carrier_name) = lower(${from.name})`);
    // A quote from the carrier that was, after all, the incumbent renewed the policy.
    const renewed = await count(sql`
      update remarkets r set outcome = 'renewed'
      from quotes q
      where r.tenant_id = ${t}::uuid and q.tenant_id = ${t}::uuid and q.id = r.selected_quote_id
        and r.outcome = 'rewritten' and q.carrier_id = ${into.carrierId}::uuid and lower(r.incumbent_carrier_name) = lower(${into.name})
      returning r.id`);
    await tx.execute(sql`
      update tenant_carriers k set
        agency_code = coalesce(k.agency_code, f.agency_code),
        producer_code = coalesce(k.producer_code, f.producer_code),
        updated_at = ${now.toISOString()}::timestamptz
      from tenant_carriers f
      where k.tenant_id = ${t}::uuid and k.id = ${into.id}::uuid and f.tenant_id = ${t}::uuid and f.id = ${from.id}::uuid`);
    await tx.delete(tenantCarriers).where(and(eq(tenantCarriers.tenantId, t), eq(tenantCarriers.id, from.id)));
    await recordAudit(
      tx,
      {
        tenantId: t,
        actorUserId: ctx.userId,
        action: "carrier.merged",
        subjectType: "carrier",
        subjectId: into.carrierId,
        details: { from: from.name, into: into.name, policies, quotes, renewed },
      },
      now,
    );
    // The worklist's carrier filter lists names from the last computation.
    await enqueueForecastRecompute(tx, t);
    return { from: from.name, into: into.name, policies, quotes, renewed };
  });
}
