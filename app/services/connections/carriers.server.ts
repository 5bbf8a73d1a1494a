import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import { queryRows } from "~/db/rows.server";
import { carrierLines, carrierStates, carriers, policies, tenantCarriers } from "~/db/schema";
import { sealSecret } from "~/utils/secret-box.server";
import { LIST_LIMIT_DEFAULT, listSort, type SortOf } from "~/utils/cursor.server";
import { recordAudit } from "../platform/audit.server";
import { ensureCarrierCatalogue } from "./carrier-catalogue.server";
import { clock, type TenantContext } from "../platform/context.server";
import { NotFoundError, ServiceError } from "../platform/errors.server";
import { requireUuid } from "../platform/ids.server";

type Ctx = Pick<TenantContext, "db" | "tenantId">;

const linesOf = sql<
  string[]
>`coalesce((select array_agg(cl.line_of_business order by cl.line_of_business) from ${carrierLines} cl where cl.carrier_id = "carriers"."id"), '{}')`;
const stateCount = sql<number>`(select count(*) from ${carrierStates} cs where cs.carrier_id = "carriers"."id")`.mapWith(Number);

type CatalogueFilter = { line?: string; state?: string; q?: string };
type TenantCarrierFilter = { invalidOnly?: boolean };
/** The catalogue's orders: by carrier name, ties by id. */
export const CATALOGUE_SORT = listSort({
  fields: { name: { expr: carriers.name, kind: "text" } },
  then: [{ expr: carriers.id, kind: "uuid" }],
  default: "name",
});
/** The agency's carriers' orders: by carrier name, ties by the agency entry's id. */
export const TENANT_CARRIER_SORT = listSort({
  fields: { name: { expr: carriers.name, kind: "text" } },
  then: [{ expr: tenantCarriers.id, kind: "uuid" }],
  default: "name",
});
/** Keyset paging (the API): at most `limit` rows after `cursor`, in a `sort` of the list's. */
export type CarrierPaging<S extends string> = { limit?: number; cursor?: string; sort?: S };

function catalogueRows(ctx: Ctx, filter: CatalogueFilter, sort: SortOf<typeof CATALOGUE_SORT> = CATALOGUE_SORT.default, after?: SQL) {
  const where = and(
    filter.line
      ? sql`exists (select 1 from ${carrierLines} cl where cl.carrier_id = "carriers"."id" and cl.line_of_business = ${filter.line})`
      : undefined,
    filter.state
      ? sql`exists (select 1 from ${carrierStates} cs where cs.carrier_id = "carriers"."id" and cs.state = ${filter.state})`
      : undefined,
    filter.q ? sql`lower(${carriers.name}) like ${`%${filter.q.toLowerCase().replace(/[\\%_]/g, "\\$&")}%`}` : undefined,
    after,
  );
  return ctx.db
    .select({
      id: carriers.id,
      name: carriers.name,
      lines: linesOf,
      states: stateCount,
      tenantCarrierId: tenantCarriers.id,
      cursorKey: CATALOGUE_SORT.key(sort),
    })
    .from(carriers)
    .leftJoin(tenantCarriers, and(eq(tenantCarriers.carrierId, carriers.id), eq(tenantCarriers.tenantId, ctx.tenantId)))
    .where(where)
    .orderBy(...CATALOGUE_SORT.orderBy(sort))
    .$dynamic();
}

/** The catalogue (seed carriers, carriers/lob/list, lob/states), optionally only carriers writing a line / in a state. */
export async function listCatalogue(ctx: Ctx, filter: CatalogueFilter, sort?: SortOf<typeof CATALOGUE_SORT>) {
  await ensureCarrierCatalogue(ctx.db);
  const rows = await catalogueRows(ctx, filter, sort);
  return rows.map(({ cursorKey: _key, ...row }) => row);
}

/**
 * Catalogue carriers the book's active policies are with but the agency has not added, as the last
 * forecast computation found them (it follows every import), with that computation's time. Empty
 * before the first computation.
 */
export async function bookCarriersNotAdded(ctx: Ctx): Promise<{ id: string; name: string; countedAt: Date }[]> {
  const rows = await queryRows<{ id: string; name: string; counted_at: Date | string }>(
    ctx.db,
    sql`select c.id, c.name, fr.computed_at as counted_at
      from forecast_runs fr
        cross join lateral jsonb_array_elements_text(coalesce(fr.book_carrier_ids, '[]'::jsonb)) b(id)
        join carriers c on c.id = b.id::uuid
        left join tenant_carriers tc on tc.tenant_id = fr.tenant_id and tc.carrier_id = c.id
      where fr.tenant_id = ${ctx.tenantId} and tc.id is null
      order by c.name`,
  );
  return rows.map((r) => ({ id: String(r.id), name: r.name, countedAt: new Date(r.counted_at) }));
}

/** One page of the catalogue for the API, with the cursor of the next. */
export async function pageCatalogue(ctx: Ctx, filter: CatalogueFilter, paging: CarrierPaging<SortOf<typeof CATALOGUE_SORT>>) {
  await ensureCarrierCatalogue(ctx.db);
  const size = paging.limit ?? LIST_LIMIT_DEFAULT;
  const sort = paging.sort ?? CATALOGUE_SORT.default;
  const rows = await catalogueRows(ctx, filter, sort, CATALOGUE_SORT.after(sort, paging.cursor)).limit(size + 1);
  return CATALOGUE_SORT.page(rows, size, sort);
}

function tenantCarrierRows(
  ctx: Ctx,
  input: TenantCarrierFilter,
  sort: SortOf<typeof TENANT_CARRIER_SORT> = TENANT_CARRIER_SORT.default,
  after?: SQL,
) {
  return ctx.db
    .select({
      id: tenantCarriers.id,
      carrierId: tenantCarriers.carrierId,
      name: carriers.name,
      lines: linesOf,
      agencyCode: tenantCarriers.agencyCode,
      producerCode: tenantCarriers.producerCode,
      portalUsername: tenantCarriers.portalUsername,
      hasSecret: sql<boolean>`${tenantCarriers.portalSecret} is not null`,
      credentialsInvalid: tenantCarriers.credentialsInvalid,
      credentialsCheckedAt: tenantCarriers.credentialsCheckedAt,
      cursorKey: TENANT_CARRIER_SORT.key(sort),
    })
    .from(tenantCarriers)
    .innerJoin(carriers, eq(carriers.id, tenantCarriers.carrierId))
    .where(
      and(eq(tenantCarriers.tenantId, ctx.tenantId), input.invalidOnly ? eq(tenantCarriers.credentialsInvalid, true) : undefined, after),
    )
    .orderBy(...TENANT_CARRIER_SORT.orderBy(sort))
    .$dynamic();
}

/** The agency's carriers (seed carriers/tenant/list); `invalidOnly` is seed tenant/invalid-creds. */
export async function listTenantCarriers(ctx: Ctx, input: TenantCarrierFilter = {}, sort?: SortOf<typeof TENANT_CARRIER_SORT>) {
  const rows = await tenantCarrierRows(ctx, input, sort);
  return rows.map(({ cursorKey: _key, ...row }) => row);
}

/** One page of the agency's carriers for the API, with the cursor of the next. */
export async function pageTenantCarriers(ctx: Ctx, input: TenantCarrierFilter, paging: CarrierPaging<SortOf<typeof TENANT_CARRIER_SORT>>) {
  const size = paging.limit ?? LIST_LIMIT_DEFAULT;
  const sort = paging.sort ?? TENANT_CARRIER_SORT.default;
  const rows = await tenantCarrierRows(ctx, input, sort, TENANT_CARRIER_SORT.after(sort, paging.cursor)).limit(size + 1);
  return TENANT_CARRIER_SORT.page(rows, size, sort);
}

/** Add a catalogue carrier to the agency (seed carriers/tenant/add-carrier). */
export async function addTenantCarrier(ctx: TenantContext, carrierId: string) {
  requireUuid(carrierId, "Carrier not found");
  const [carrier] = await ctx.db.select({ id: carriers.id, name: carriers.name }).from(carriers).where(eq(carriers.id, carrierId));
  if (!carrier) throw new NotFoundError("Carrier not found");
  const [row] = await ctx.db
    .insert(tenantCarriers)
    .values({ tenantId: ctx.tenantId, carrierId, createdAt: clock(ctx) })
    .onConflictDoNothing()
    .returning({ id: tenantCarriers.id });
  if (!row) throw new ServiceError(`${carrier.name} is already one of your carriers.`, 409);
  await recordAudit(
    ctx.db,
    {
      tenantId: ctx.tenantId,
      actorUserId: ctx.userId,
      action: "carrier.added",
      subjectType: "carrier",
      subjectId: carrierId,
      details: { name: carrier.name },
    },
    clock(ctx),
  );
  return { id: row.id, name: carrier.name };
}

/** One of the agency's carriers by its link id; another agency's is a 404. */
export async function requireTenantCarrier(ctx: Ctx, id: string) {
  requireUuid(id, "Carrier not found");
  const [row] = await ctx.db
    .select({ id: tenantCarriers.id, carrierId: tenantCarriers.carrierId, name: carriers.name })
    .from(tenantCarriers)
    .innerJoin(carriers, eq(carriers.id, tenantCarriers.carrierId))
    .where(and(eq(tenantCarriers.tenantId, ctx.tenantId), eq(tenantCarriers.id, id)));
  if (!row) throw new NotFoundError("Carrier not found");
  return row;
}

/** Remove one of the agency's carriers (its codes and credentials go with it). */
export async function removeTenantCarrier(ctx: TenantContext, id: string) {
  const row = await requireTenantCarrier(ctx, id);
  await ctx.db.delete(tenantCarriers).where(and(eq(tenantCarriers.tenantId, ctx.tenantId), eq(tenantCarriers.id, id)));
  await recordAudit(
    ctx.db,
    {
      tenantId: ctx.tenantId,
      actorUserId: ctx.userId,
      action: "carrier.removed",
      subjectType: "carrier",
      subjectId: row.carrierId,
      details: { name: row.name },
    },
    clock(ctx),
  );
  return row;
}

/** Agency and producer numbers with a carrier (seed carriers/tenant/assign-numbers). */
export async function assignNumbers(ctx: TenantContext, id: string, input: { agencyCode?: string; producerCode?: string }) {
  const row = await requireTenantCarrier(ctx, id);
  await ctx.db
    .update(tenantCarriers)
    .set({ agencyCode: input.agencyCode?.trim() || null, producerCode: input.producerCode?.trim() || null, updatedAt: clock(ctx) })
    .where(and(eq(tenantCarriers.tenantId, ctx.tenantId), eq(tenantCarriers.id, id)));
  return row;
}

/** Store portal credentials, the password sealed with AES-256-GCM; new credentials are presumed valid. */
export async function saveCredentials(ctx: TenantContext, id: string, input: { username: string; password?: string }) {
  const row = await requireTenantCarrier(ctx, id);
  const now = clock(ctx);
  await ctx.db
    .update(tenantCarriers)
    .set({
      portalUsername: input.username.trim(),
      ...(input.password ? { portalSecret: sealSecret(input.password) } : {}),
      credentialsInvalid: false,
      credentialsCheckedAt: null,
      updatedAt: now,
    })
    .where(and(eq(tenantCarriers.tenantId, ctx.tenantId), eq(tenantCarriers.id, id)));
  await recordAudit(
    ctx.db,
    {
      tenantId: ctx.tenantId,
      actorUserId: ctx.userId,
      action: "carrier.credentials_saved",
      subjectType: "carrier",
      subjectId: row.carrierId,
      details: { name: row.name },
    },
    now,
  );
  return row;
}

/** Flag (or clear) invalid portal credentials, e.g. after a failed portal login. */
export async function setCredentialsInvalid(ctx: TenantContext, id: string, invalid: boolean) {
  const row = await requireTenantCarrier(ctx, id);
  await ctx.db
    .update(tenantCarriers)
    .set({ credentialsInvalid: invalid, credentialsCheckedAt: clock(ctx), updatedAt: clock(ctx) })
    .where(and(eq(tenantCarriers.tenantId, ctx.tenantId), eq(tenantCarriers.id, id)));
  return row;
}

/**
 * Carriers that write this policy's line in its state (seed carriers/list-by-policy), the
 * agency's own first: the choices when recording a quote.
 */
export async function carriersForPolicy(ctx: Ctx, policyId: string) {
  requireUuid(policyId, "Policy not found");
  await ensureCarrierCatalogue(ctx.db);
  const [policy] = await ctx.db
    .select({ line: policies.lineOfBusiness, state: policies.riskState })
    .from(policies)
    .where(and(eq(policies.tenantId, ctx.tenantId), eq(policies.id, policyId)));
  if (!policy) throw new NotFoundError("Policy not found");
  const rows = await ctx.db
    .select({ id: carriers.id, name: carriers.name, agency: sql<boolean>`"tenant_carriers"."id" is not null` })
    .from(carriers)
    .innerJoin(carrierLines, and(eq(carrierLines.carrierId, carriers.id), eq(carrierLines.lineOfBusiness, policy.line)))
    .leftJoin(tenantCarriers, and(eq(tenantCarriers.carrierId, carriers.id), eq(tenantCarriers.tenantId, ctx.tenantId)))
    .where(
      policy.state
        ? sql`exists (select 1 from ${carrierStates} cs where cs.carrier_id = "carriers"."id" and cs.state = ${policy.state})`
        : undefined,
    )
    .orderBy(sql`"tenant_carriers"."id" is null`, asc(carriers.name));
  return { line: policy.line, state: policy.state, carriers: rows };
}

/** The states where catalogue carriers write a line of business (seed carriers/lob/states). */
export async function statesForLine(ctx: Ctx, line: string) {
  await ensureCarrierCatalogue(ctx.db);
  const rows = await ctx.db
    .selectDistinct({ state: carrierStates.state })
    .from(carrierStates)
    .innerJoin(carrierLines, and(eq(carrierLines.carrierId, carrierStates.carrierId), eq(carrierLines.lineOfBusiness, line)))
    .orderBy(asc(carrierStates.state));
  return rows.map((r) => r.state);
}

/** The agency's entry for one catalogue carrier (seed carriers/tenant-carrier-by-carrier); a 404 when it has none. */
export async function tenantCarrierByCarrier(ctx: Ctx, carrierId: string) {
  requireUuid(carrierId, "Carrier not found");
  const row = (await listTenantCarriers(ctx)).find((c) => c.carrierId === carrierId);
  if (!row) throw new NotFoundError("Carrier not found");
  return row;
}

/** One of the agency's carriers (seed carriers/tenant-carrier). */
export async function getTenantCarrier(ctx: Ctx, id: string) {
  requireUuid(id, "Carrier not found");
  const row = (await listTenantCarriers(ctx)).find((c) => c.id === id);
  if (!row) throw new NotFoundError("Carrier not found");
  return row;
}
