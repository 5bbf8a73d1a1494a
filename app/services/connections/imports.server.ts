import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "~/db/client.server";
import { connections, customers, importRejections, importRuns, policies } from "~/db/schema";
import { createCustomerKeyResolver, insuredNameKey, type IdentityRule } from "~/services/connections/mapping/identity";
import { enqueueJob, PermanentJobError } from "~/services/platform/jobs.server";
import { passesFilters, type CanonicalCustomer, type CanonicalPolicy, type SourceRow } from "~/services/connections/mapping/transform";
import { createRowValidator } from "~/services/connections/mapping/validate";
import { getIntegration } from "~/utils/integrations";
import { createCarrierResolver } from "./carrier-matching.server";
import { getConnection } from "./connections.server";
import { InvalidCredentialsError } from "./connectors/api-client.server";
import { connectorFor, type ConnectorOptions } from "./connectors/index.server";
import type { Connector } from "./connectors/types";
import type { TenantContext } from "../platform/context.server";
import { ServiceError } from "../platform/errors.server";
import { notify } from "../platform/notifications.server";
import { employeeKey } from "./connections.server";
import { enqueueForecastRecompute } from "../renewals/forecast.server";

// The import (ETL, seed start-etl): a job on the durable queue reads the source through its
// connector, applies mapping, value maps and filters, validates every row, and upserts
// customers, carriers, employee accounts and policies in batches, each batch one transaction
// that also commits the run's counters and checkpoint. Killed mid-run, the job is claimed again
// when its lease expires and resumes after the checkpoint; every write is an idempotent upsert,
// so the result is exactly that of one clean run.

export const IMPORT_JOB = "connections.import";
export const SCHEDULE_JOB = "connections.schedule-syncs";
export const DEFAULT_BATCH_SIZE = 500;
/** Rows per page read from the source (batches of writes are DEFAULT_BATCH_SIZE, independent). */
const READ_PAGE_SIZE = 100;

/** Seed start-etl: queue an import of the connection (one at a time per connection). */
export async function startImport(
  ctx: Pick<TenantContext, "db" | "tenantId">,
  connectionId: string,
  trigger: "manual" | "schedule" = "manual",
) {
  const connection = await getConnection(ctx, connectionId);
  if (connection.step !== "COMPLETED") throw new ServiceError("Finish the integration setup before importing.", 409);
  if (connection.status === "disconnected") throw new ServiceError("This connection is disconnected.", 409);
  const [active] = await ctx.db
    .select({ id: importRuns.id })
    .from(importRuns)
    .where(
      and(
        eq(importRuns.tenantId, ctx.tenantId),
        eq(importRuns.connectionId, connection.id),
        inArray(importRuns.status, ["queued", "running"]),
      ),
    );
  if (active) throw new ServiceError("An import is already running for this connection.", 409);
  return ctx.db.transaction(async (tx) => {
    const [run] = await tx
      .insert(importRuns)
      .values({ tenantId: ctx.tenantId, connectionId: connection.id, trigger })
      .returning({ id: importRuns.id });
    await enqueueJob(tx, {
      type: IMPORT_JOB,
      tenantId: ctx.tenantId,
      payload: { runId: run.id },
      dedupeKey: `import:${run.id}`,
      maxAttempts: 5,
    });
    await tx
      .update(connections)
      .set({ status: "syncing", updatedAt: new Date() })
      .where(and(eq(connections.id, connection.id), eq(connections.tenantId, ctx.tenantId)));
    return run.id;
  });
}

export type ImportRun = typeof importRuns.$inferSelect;

/** The newest import of a connection (progress while it runs, the outcome after). */
export async function getLatestRun(ctx: Pick<TenantContext, "db" | "tenantId">, connectionId: string) {
  const [run] = await ctx.db
    .select()
    .from(importRuns)
    .where(and(eq(importRuns.tenantId, ctx.tenantId), eq(importRuns.connectionId, connectionId)))
    .orderBy(desc(importRuns.createdAt))
    .limit(1);
  return run ?? null;
}

/** "1 min 5 s", "12 s", "850 ms" */
export function formatDuration(ms: number) {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

export type RunOptions = {
  batchSize?: number;
  progress?: (p: Record<string, unknown>) => Promise<void>;
  signal?: AbortSignal;
  now?: () => Date;
  connector?: ConnectorOptions;
  /** Test hook: called after each committed batch (the crash tests stop here). */
  afterBatch?: (checkpoint: number) => Promise<void> | void;
};

type Counters = { rowsRead: number; rowsImported: number; rowsRejected: number; rowsFiltered: number };

/**
 * Run (or resume) one import. Safe to call again after a crash: it continues at the checkpoint.
 * cross-tenant: the import job runs any tenant's run by its id; the run row carries its tenant, which every write to the book uses.
 */
export async function runImport(db: Db, runId: string, options: RunOptions = {}) {
  const now = options.now ?? (() => new Date());
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  // Take the run over: a runner still going elsewhere (its job lease ran out) sees another
  // runner id at its next batch and stops, so two runners never interleave their counters.
  const runnerId = randomUUID();
  const [run] = await db
    .update(importRuns)
    .set({ status: "running", runnerId, startedAt: sql`coalesce(${importRuns.startedAt}, ${now().toISOString()}::timestamptz)` })
    .where(and(eq(importRuns.id, runId), inArray(importRuns.status, ["queued", "running"])))
    .returning();
  if (!run) return;
  const [connection] = await db
    .select()
    .from(connections)
    .where(and(eq(connections.id, run.connectionId), eq(connections.tenantId, run.tenantId)));
  if (!connection?.mapping) throw new PermanentJobError("The connection has no mapping");
  const mapping = connection.mapping;
  const startedAt = run.startedAt ?? now();

  const connector = connectorFor(db, connection, options.connector);
  const attributes = [...new Set(Object.values(mapping.fields).filter(Boolean))];
  const read = (c: Connector, pageSize = batchSize) => c.readRecords(mapping.object, { pageSize, attributes, signal: options.signal });

  // Pass 1 (validation): count rows and rejections without writing, so an export past the
  // bad-row limit fails as a whole instead of half-importing. It renews the job's lease as it goes.
  let total = 0;
  let rejected = 0;
  {
    const validate = createRowValidator(mapping);
    let lastBeat = Date.now();
    for await (const page of read(connector, READ_PAGE_SIZE)) {
      for (const row of page) {
        total++;
        if (!validate(row).ok) rejected++;
      }
      if (Date.now() - lastBeat > 1000) {
        lastBeat = Date.now();
        await options.progress?.({ runId: run.id, phase: "validating", read: total });
      }
    }
  }
  await db
    .update(importRuns)
    .set({ rowsTotal: total })
    .where(and(eq(importRuns.id, run.id), eq(importRuns.runnerId, runnerId)));
  const share = total === 0 ? 0 : rejected / total;
  if (share > connection.maxRejectedShare) {
    await writeRejectionsOnly(db, run, connection.tenantId, read(connector), mapping, connection.filters);
    const pct = (x: number) => `${Math.round(x * 1000) / 10} %`;
    return finishRun(db, run, connection, {
      ok: false,
      error: `${rejected} of ${total} rows (${pct(share)}) failed validation; the limit is ${pct(connection.maxRejectedShare)}. Nothing was imported.`,
      startedAt,
      now,
      runnerId,
    });
  }

  // Pass 2 (write): batches from the checkpoint on; earlier rows only rebuild the duplicate map.
  const counters: Counters = {
    rowsRead: run.rowsRead,
    rowsImported: run.rowsImported,
    rowsRejected: run.rowsRejected,
    rowsFiltered: run.rowsFiltered,
  };
  const writer = createBatchWriter(db, {
    tenantId: connection.tenantId,
    connectionId: connection.id,
    runId: run.id,
    runnerId,
    identityRule: mapping.identityRule,
  });
  const validate = createRowValidator(mapping);
  // Source rows are read in small pages and dropped once classified: a batch waiting on the
  // database holds only what it writes, so the rows die young instead of being promoted.
  let index = 0;
  let batch: Classified[] = [];
  const flush = async () => {
    if (batch.length === 0) return true;
    const stillActive = await writer.write(batch, index, counters);
    batch = [];
    if (!stillActive) return false; // disconnected meanwhile: the disconnect already closed the run
    await options.progress?.({ runId: run.id, total, ...counters });
    await options.afterBatch?.(index);
    return true;
  };
  for await (const page of read(connector, READ_PAGE_SIZE)) {
    for (const row of page) {
      const c = classify(row, validate, connection.filters);
      if (index++ < run.checkpoint) continue;
      batch.push(c);
      if (batch.length >= batchSize && !(await flush())) return;
    }
  }
  if (!(await flush())) return;
  return finishRun(db, run, connection, { ok: true, startedAt, now, counters, runnerId });
}

// Valid and filtered rows drop the source row: a batch holds only what it writes (memory).
type Classified =
  | { kind: "valid"; customer: CanonicalCustomer; policy: CanonicalPolicy }
  | { kind: "filtered" }
  | { kind: "rejected"; row: SourceRow; reasons: string[] };

const FILTERED: Classified = { kind: "filtered" };

type RowValidator = ReturnType<typeof createRowValidator>;

/** Validation (the same as the mapping preview's), then the filter options. */
function classify(row: SourceRow, validate: RowValidator, filters: typeof connections.$inferSelect.filters): Classified {
  const t = validate(row);
  if (!t.ok) return { kind: "rejected", row, reasons: t.reasons };
  if (!passesFilters(t.customer, t.policy, filters)) return FILTERED;
  return { kind: "valid", customer: t.customer, policy: t.policy };
}

async function writeRejectionsOnly(
  db: Db,
  run: ImportRun,
  tenantId: string,
  pages: AsyncIterable<SourceRow[]>,
  mapping: NonNullable<typeof connections.$inferSelect.mapping>,
  filters: typeof connections.$inferSelect.filters,
) {
  const validate = createRowValidator(mapping);
  let read = 0;
  let rejectedCount = 0;
  for await (const page of pages) {
    const rejected = page.map((row) => classify(row, validate, filters)).filter((c) => c.kind === "rejected");
    read += page.length;
    rejectedCount += rejected.length;
    if (rejected.length) await insertRejections(db, tenantId, run.id, rejected);
  }
  await db
    .update(importRuns)
    .set({ rowsRead: read, rowsRejected: rejectedCount, checkpoint: read })
    .where(and(eq(importRuns.tenantId, tenantId), eq(importRuns.id, run.id), eq(importRuns.status, "running")));
}

async function insertRejections(db: DbOrTx, tenantId: string, runId: string, rows: Extract<Classified, { kind: "rejected" }>[]) {
  const json = new JsonRowsWriter().write(rows, (r) => ({
    row_number: r.row.rowNumber,
    reasons: r.reasons,
    raw: Object.entries(r.row.values),
  }));
  await db.execute(sql`
    insert into import_rejections (tenant_id, run_id, row_number, reasons, raw)
    select ${tenantId}::uuid, ${runId}::uuid, x.row_number, x.reasons, x.raw
    from json_to_recordset(${fromJson(json)}) as x(row_number int, reasons jsonb, raw jsonb)
    on conflict (run_id, row_number) do nothing`);
}

/**
 * Rows as a JSON array in a Buffer (UTF-8), written row by row into memory the writer keeps and
 * reuses; a statement takes it as one bytea parameter (`fromJson`). JSON.stringify of a whole
 * batch returns a rope of 16 KB parts that the driver flattens into one more copy before encoding
 * it: both copies outlived young-generation collections while the statement ran and piled up in
 * the old generation (most of the import's peak RSS). A fresh Buffer per statement moved the churn
 * to malloc, which kept the freed pages. Per-row strings die young; the buffer is allocated once.
 * The returned view is valid until the next `write` (each statement is awaited before the next).
 */
export class JsonRowsWriter {
  private buffer = Buffer.allocUnsafe(64 * 1024);

  write<T>(rows: Iterable<T>, toJson: (row: T) => unknown): Buffer {
    let offset = this.buffer.write("[", 0);
    for (const row of rows) {
      const part = JSON.stringify(toJson(row));
      // A UTF-16 unit is at most 3 UTF-8 bytes; +2 for the comma and the closing bracket.
      this.reserve(offset, part.length * 3 + 2);
      if (offset > 1) offset += this.buffer.write(",", offset);
      offset += this.buffer.write(part, offset);
    }
    offset += this.buffer.write("]", offset);
    return this.buffer.subarray(0, offset);
  }

  private reserve(offset: number, bytes: number) {
    if (offset + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, offset + bytes));
    this.buffer.copy(grown, 0, 0, offset);
    this.buffer = grown;
  }
}

/** A `JsonRowsWriter` parameter as json in SQL (node-postgres and PGlite both bind a Buffer as bytea). */
const fromJson = (json: Buffer) => sql`convert_from(${json}::bytea, 'UTF8')::json`;

type Rows<T> = { rows: T[] };

const CUSTOMER_COLUMNS = [
  "customer_type",
  "first_name",
  "last_name",
  "business_name",
  "name",
  "email",
  "phone",
  "address1",
  "address2",
  "city",
  "state",
  "zip",
  "producer",
  "csr",
] as const;
const POLICY_COLUMNS = [
  "policy_number",
  "line_of_business",
  "line_of_business_raw",
  "carrier_id",
  "carrier_name",
  "carrier_name_raw",
  "status",
  "inception_date",
  "effective_date",
  "expiration_date",
  "term_months",
  "premium",
  "prior_premium",
  "renewal_premium",
  "risk_state",
  "producer",
  "csr",
  "claims_3y",
  "last_modified_at",
] as const;
const POLICY_TYPES: Record<(typeof POLICY_COLUMNS)[number], string> = {
  policy_number: "text",
  line_of_business: "text",
  line_of_business_raw: "text",
  carrier_id: "uuid",
  carrier_name: "text",
  carrier_name_raw: "text",
  status: "text",
  inception_date: "date",
  effective_date: "date",
  expiration_date: "date",
  term_months: "int",
  premium: "numeric",
  prior_premium: "numeric",
  renewal_premium: "numeric",
  risk_state: "text",
  producer: "text",
  csr: "text",
  claims_3y: "int",
  last_modified_at: "timestamptz",
};

const list = (cols: readonly string[], prefix = "") => cols.map((c) => `${prefix}${c}`).join(", ");
const setAll = (cols: readonly string[]) => cols.map((c) => `${c} = excluded.${c}`).join(", ");

/**
 * Customers and policies of a batch in ONE statement, keyed by source key within the connection
 * (docs/decisions/009-customer-source-keys.md): the customers upsert (a data-modifying CTE) hands its
 * ids to the policies upsert; customers that did not change are not returned by
 * the upsert, so their ids come from the table as it was before the statement. A row that
 * would not change is not rewritten (IS DISTINCT FROM), so re-running an import changes nothing.
 */
function upsertBatchSql(tenantId: string, connectionId: string, customerJson: Buffer, policyJson: Buffer) {
  const raw = sql.raw;
  return sql`
  with input_c as (
    select * from json_to_recordset(${fromJson(customerJson)}) as x(source_key text, keep_existing boolean, ${raw(CUSTOMER_COLUMNS.map((c) => `${c} text`).join(", "))})
  ),
  up as (
    insert into customers (tenant_id, connection_id, source_key, ${raw(list(CUSTOMER_COLUMNS))})
    select ${tenantId}::uuid, ${connectionId}::uuid, source_key, ${raw(list(CUSTOMER_COLUMNS))} from input_c where not keep_existing
    on conflict (tenant_id, connection_id, source_key) do update set ${raw(setAll(CUSTOMER_COLUMNS))}, updated_at = now()
    where (${raw(list(CUSTOMER_COLUMNS, "customers."))}) is distinct from (${raw(list(CUSTOMER_COLUMNS, "excluded."))})
    returning id, source_key
  ), ids as (
    select id, source_key from up
    union all
    select c.id, c.source_key from customers c
    join input_c i on c.tenant_id = ${tenantId}::uuid and c.connection_id = ${connectionId}::uuid and c.source_key = i.source_key
    where not exists (select 1 from up where up.source_key = c.source_key)
  ), input_p as (
    select * from json_to_recordset(${fromJson(policyJson)}) as p(customer_key text, source_key text, ${raw(POLICY_COLUMNS.map((c) => `${c} ${POLICY_TYPES[c]}`).join(", "))})
  ), moved as (
    -- Policies this batch gives to another customer (the identity rule changed): read before the
    -- upsert below (one snapshot for the whole statement), recorded in both customers' trails.
    select pol.policy_number, pol.customer_id as from_id, ids.id as to_id
    from input_p p join ids on ids.source_key = p.customer_key
    join policies pol on pol.tenant_id = ${tenantId}::uuid and pol.connection_id = ${connectionId}::uuid and pol.source_key = p.source_key
    where pol.customer_id <> ids.id
  ), audit as (
    insert into audit_events (tenant_id, action, subject_type, subject_id, details)
    select ${tenantId}::uuid, 'policy.moved_out', 'customer', from_id::text,
      jsonb_build_object('policyNumber', policy_number, 'toCustomerId', to_id, 'connectionId', ${connectionId}::uuid)
    from moved
    union all
    select ${tenantId}::uuid, 'policy.moved_in', 'customer', to_id::text,
      jsonb_build_object('policyNumber', policy_number, 'fromCustomerId', from_id, 'connectionId', ${connectionId}::uuid)
    from moved
  )
  insert into policies (tenant_id, customer_id, connection_id, source_key, ${raw(list(POLICY_COLUMNS))})
  select ${tenantId}::uuid, ids.id, ${connectionId}::uuid, p.source_key, ${raw(list(POLICY_COLUMNS, "p."))}
  from input_p p join ids on ids.source_key = p.customer_key
  on conflict (tenant_id, connection_id, source_key) do update set customer_id = excluded.customer_id, ${raw(setAll(POLICY_COLUMNS))}, updated_at = now()
  where (policies.customer_id, ${raw(list(POLICY_COLUMNS, "policies."))}) is distinct from (excluded.customer_id, ${raw(list(POLICY_COLUMNS, "excluded."))})`;
}

/** The identity rule's resolver, knowing which insured already holds each plain customer key of the connection. */
async function customerKeyResolver(db: DbOrTx, scope: { tenantId: string; connectionId: string; identityRule?: IdentityRule }) {
  const claimed = new Map<string, string>();
  if (scope.identityRule === "per-name") {
    const held = await db
      .select({ sourceKey: customers.sourceKey, name: customers.name })
      .from(customers)
      .where(and(eq(customers.tenantId, scope.tenantId), eq(customers.connectionId, scope.connectionId)));
    for (const c of held) if (c.sourceKey && !c.sourceKey.includes("|name:")) claimed.set(c.sourceKey, insuredNameKey(c.name));
  }
  return createCustomerKeyResolver(scope.identityRule, claimed);
}

/** Multi-row upserts (JSON parameters, no per-row statements), one transaction per batch. */
function createBatchWriter(
  db: Db,
  scope: { tenantId: string; connectionId: string; runId: string; runnerId: string; identityRule?: IdentityRule },
) {
  const carriers = createCarrierResolver(scope.tenantId);
  const knownPeople = new Set<string>();
  // Spellings already written (a few dozen people across 100 000 rows): skips the key per row.
  const knownNames = new Set<string>();
  const customerRows = new JsonRowsWriter();
  // Per customer key, the modified date of the row its details came from (dated rows only).
  const newestRowAt = new Map<string, string>();
  let resolveKey: ReturnType<typeof createCustomerKeyResolver> | null = null;
  const policyRows = new JsonRowsWriter();

  async function upsertBatch(tx: DbOrTx, valid: Extract<Classified, { kind: "valid" }>[]) {
    // A customer's details come from its most recently modified row in the whole import (later rows
    // win ties and undated rows); a policy seen twice in one batch is its last row (ON CONFLICT
    // cannot touch a row twice). A customer whose newer row came in an earlier batch is only looked up.
    const customersByKey = new Map<string, { customer: CanonicalCustomer; keepExisting: boolean }>();
    const policiesByKey = new Map<string, { customerKey: string; policy: CanonicalPolicy }>();
    resolveKey ??= await customerKeyResolver(tx, scope);
    for (const v of valid) {
      const key = resolveKey(v.customer);
      if (key !== v.customer.sourceKey) v.customer = { ...v.customer, sourceKey: key };
      const at = v.policy.lastModifiedAt ?? "";
      const newest = newestRowAt.get(key);
      if (newest === undefined || at >= newest) {
        customersByKey.set(key, { customer: v.customer, keepExisting: false });
        if (at) newestRowAt.set(key, at);
      } else if (!customersByKey.has(key)) {
        customersByKey.set(key, { customer: v.customer, keepExisting: true });
      }
      policiesByKey.set(v.policy.sourceKey, { customerKey: key, policy: v.policy });
    }
    const customerJson = customerRows.write(customersByKey.values(), ({ customer: c, keepExisting }) => ({
      source_key: c.sourceKey,
      keep_existing: keepExisting,
      customer_type: c.customerType,
      first_name: c.firstName,
      last_name: c.lastName,
      business_name: c.businessName,
      name: c.name,
      email: c.email,
      phone: c.phone,
      address1: c.address1,
      address2: c.address2,
      city: c.city,
      state: c.state,
      zip: c.zip,
      producer: c.producer,
      csr: c.csr,
    }));
    const policyJson = policyRows.write(policiesByKey.values(), ({ customerKey, policy: p }) => ({
      customer_key: customerKey,
      source_key: p.sourceKey,
      policy_number: p.policyNumber,
      line_of_business: p.lineOfBusiness,
      line_of_business_raw: p.lineOfBusinessRaw,
      carrier_id: carriers.get(p.carrierName)?.id ?? null,
      // One carrier, one name: "Erie" and "ERIE INS CO" both read "Erie Insurance".
      carrier_name: carriers.get(p.carrierName)?.name ?? p.carrierName,
      carrier_name_raw: p.carrierName,
      status: p.status,
      inception_date: p.inceptionDate,
      effective_date: p.effectiveDate,
      expiration_date: p.expirationDate,
      term_months: p.termMonths,
      premium: p.premium,
      prior_premium: p.priorPremium,
      renewal_premium: p.renewalPremium,
      risk_state: p.riskState,
      producer: p.producer,
      csr: p.csr,
      claims_3y: p.claims3y,
      last_modified_at: p.lastModifiedAt,
    }));
    await tx.execute(upsertBatchSql(scope.tenantId, scope.connectionId, customerJson, policyJson));
  }

  async function upsertPeople(tx: DbOrTx, valid: Extract<Classified, { kind: "valid" }>[]) {
    const fresh = new Map<string, { name: string; role: string }>();
    const add = (name: string | null, role: string) => {
      if (!name || knownNames.has(name)) return;
      const key = employeeKey(name);
      if (knownPeople.has(key)) knownNames.add(name);
      else if (!fresh.has(key)) fresh.set(key, { name, role });
    };
    for (const v of valid) {
      add(v.customer.producer, "producer");
      add(v.customer.csr, "csr");
    }
    if (fresh.size === 0) return;
    const json = JSON.stringify([...fresh.entries()].map(([source_key, p]) => ({ source_key, name: p.name, role: p.role })));
    await tx.execute(sql`
      insert into employee_accounts (tenant_id, connection_id, source_key, name, role)
      select ${scope.tenantId}::uuid, ${scope.connectionId}::uuid, x.source_key, x.name, x.role
      from json_to_recordset(${json}::json) as x(source_key text, name text, role text)
      on conflict (tenant_id, source_key) do nothing`);
    for (const key of fresh.keys()) knownPeople.add(key);
  }

  return {
    /** Write one batch and its counters; false when the run was closed meanwhile (disconnect). */
    async write(batch: Classified[], checkpoint: number, counters: Counters) {
      const valid = batch.filter((c): c is Extract<Classified, { kind: "valid" }> => c.kind === "valid");
      const rejected = batch.filter((c): c is Extract<Classified, { kind: "rejected" }> => c.kind === "rejected");
      const filtered = batch.length - valid.length - rejected.length;
      const next: Counters = {
        rowsRead: counters.rowsRead + batch.length,
        rowsImported: counters.rowsImported + valid.length,
        rowsRejected: counters.rowsRejected + rejected.length,
        rowsFiltered: counters.rowsFiltered + filtered,
      };
      const active = await db.transaction(async (tx) => {
        // Counters and checkpoint first: this locks the run, and finds out whether it was closed
        // meanwhile (disconnect). The checkpoint commits with the rows, so a commit lost to a
        // database crash is simply redone on resume: no need to wait for the WAL flush per batch.
        const claimed = (await tx.execute(sql`
          update import_runs set rows_read = ${next.rowsRead}, rows_imported = ${next.rowsImported},
            rows_rejected = ${next.rowsRejected}, rows_filtered = ${next.rowsFiltered}, checkpoint = ${checkpoint}
          from (select set_config('synchronous_commit', 'off', true)) as cfg
          where id = ${scope.runId}::uuid and tenant_id = ${scope.tenantId}::uuid and status = 'running' and runner_id = ${scope.runnerId}
          returning id`)) as unknown as Rows<{ id: string }>;
        if (claimed.rows.length === 0) return false;
        if (valid.length > 0) {
          await carriers.resolve(
            tx,
            valid.map((v) => v.policy.carrierName),
          );
          await upsertBatch(tx, valid);
          await upsertPeople(tx, valid);
        }
        if (rejected.length > 0) await insertRejections(tx, scope.tenantId, scope.runId, rejected);
        return true;
      });
      if (active) Object.assign(counters, next);
      return active;
    },
  };
}

/** Close a run and its connection's status. cross-tenant: import job internals, by the run's and connection's own ids. */
async function finishRun(
  db: Db,
  run: ImportRun,
  connection: typeof connections.$inferSelect,
  outcome: { ok: boolean; error?: string; startedAt: Date; now: () => Date; counters?: Counters; runnerId?: string },
) {
  const finishedAt = outcome.now();
  const durationMs = Math.max(0, finishedAt.getTime() - outcome.startedAt.getTime());
  const [counts] = (
    (await db.execute(sql`
      select (select count(*)::int from customers where tenant_id = ${connection.tenantId}::uuid and connection_id = ${connection.id}::uuid) as customers,
             (select count(*)::int from policies where tenant_id = ${connection.tenantId}::uuid and connection_id = ${connection.id}::uuid) as policies`)) as unknown as Rows<{
      customers: number;
      policies: number;
    }>
  ).rows;
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ status: importRuns.status, runnerId: importRuns.runnerId })
      .from(importRuns)
      .where(eq(importRuns.id, run.id))
      .for("update");
    if (current?.status !== "running") return;
    if (outcome.runnerId && current.runnerId !== outcome.runnerId) return; // replaced by a newer runner
    const [latest] = await tx.select().from(importRuns).where(eq(importRuns.id, run.id));
    await tx
      .update(importRuns)
      .set({
        status: outcome.ok ? "succeeded" : "failed",
        error: outcome.error ?? null,
        finishedAt,
        durationMs,
        customersCount: counts.customers,
        policiesCount: counts.policies,
      })
      .where(eq(importRuns.id, run.id));
    await tx
      .update(connections)
      .set(
        outcome.ok
          ? {
              status: "connected",
              lastSyncAt: finishedAt,
              lastDurationMs: durationMs,
              recordsImported: latest.rowsImported,
              lastError: null,
              updatedAt: finishedAt,
            }
          : { status: "error", lastDurationMs: durationMs, lastError: outcome.error ?? "Import failed", updatedAt: finishedAt },
      )
      .where(eq(connections.id, connection.id));
    const took = formatDuration(durationMs);
    await notify(
      tx,
      outcome.ok
        ? {
            tenantId: connection.tenantId,
            kind: "import.finished",
            title: `Import finished: ${counts.customers} customers, ${counts.policies} policies, ${latest.rowsRejected} rejected in ${took}`,
            message: `${connection.name}: ${latest.rowsRead} rows read, ${latest.rowsImported} imported.`,
            link: `/connect-database/${connection.id}`,
          }
        : {
            tenantId: connection.tenantId,
            kind: "import.failed",
            title: `Import failed: ${connection.name}`,
            message: outcome.error ?? "",
            link: `/connect-database/${connection.id}`,
          },
      finishedAt,
    );
    // Fresh policies mean a fresh forecast: queued in the same transaction as the finish.
    if (outcome.ok) await enqueueForecastRecompute(tx, connection.tenantId);
  });
}

/**
 * A run that cannot go on (invalid credentials, out of attempts): closed with its reason.
 * cross-tenant: the import job closes a run by its id; the run carries its tenant.
 */
export async function failRun(db: Db, runId: string, error: unknown) {
  const message = error instanceof InvalidCredentialsError ? "invalid credentials" : describeFailure(error);
  const [run] = await db.select().from(importRuns).where(eq(importRuns.id, runId));
  if (!run || run.status === "succeeded" || run.status === "failed") return;
  const [connection] = await db.select().from(connections).where(eq(connections.id, run.connectionId));
  if (!connection) return;
  if (run.status === "queued") await db.update(importRuns).set({ status: "running" }).where(eq(importRuns.id, runId));
  await finishRun(db, run, connection, { ok: false, error: message, startedAt: run.startedAt ?? new Date(), now: () => new Date() });
}

/**
 * The reason a run failed, as the connection page and the notification show it: a database
 * error's own message rather than drizzle's "Failed query: <the statement> params: <every row>",
 * which for a 500-row batch is over 100 KB of SQL and customer data.
 */
export function describeFailure(error: unknown) {
  const cause = error instanceof Error && error.message.startsWith("Failed query:") && error.cause instanceof Error ? error.cause : null;
  const message = cause ? `database error: ${cause.message}` : error instanceof Error ? error.message : String(error);
  return message.length > 500 ? `${message.slice(0, 497)}...` : message;
}

/** The job handler: run, and close the run for good when retrying cannot help. */
export async function handleImportJob(
  db: Db,
  job: { payload: Record<string, unknown>; attempts: number; maxAttempts: number },
  helpers: { progress: (p: Record<string, unknown>) => Promise<void>; signal: AbortSignal },
) {
  const runId = String(job.payload.runId ?? "");
  try {
    // IMPORT_BATCH_SIZE: rows per transaction (default 500); smaller batches checkpoint more often.
    const batchSize = Number(process.env.IMPORT_BATCH_SIZE) || undefined;
    await runImport(db, runId, { progress: helpers.progress, signal: helpers.signal, batchSize });
  } catch (error) {
    const permanent = error instanceof InvalidCredentialsError || error instanceof PermanentJobError;
    if (permanent || job.attempts >= job.maxAttempts) {
      await failRun(db, runId, error);
      if (!(error instanceof PermanentJobError)) throw new PermanentJobError(describeFailure(error));
    }
    throw error;
  }
}

/**
 * API connections re-sync on their own schedule (default daily), through the same queue.
 * cross-tenant: the scheduler looks at every tenant's connections to queue the syncs that are due.
 */
export async function scheduleDueSyncs(db: Db, now = new Date(), options: { tenantId?: string } = {}) {
  // Scoping to one tenant lets a test on a shared database leave everyone else's connections alone.
  const scope = options.tenantId ? eq(connections.tenantId, options.tenantId) : undefined;
  const rows = await db
    .select({
      id: connections.id,
      tenantId: connections.tenantId,
      integrationId: connections.integrationId,
      lastSyncAt: connections.lastSyncAt,
      syncIntervalHours: connections.syncIntervalHours,
    })
    .from(connections)
    .where(and(eq(connections.step, "COMPLETED"), eq(connections.status, "connected"), eq(connections.invalidCredentials, false), scope));
  let started = 0;
  for (const row of rows) {
    if (getIntegration(row.integrationId)?.source !== "api") continue;
    const due = !row.lastSyncAt || row.lastSyncAt.getTime() + row.syncIntervalHours * 3_600_000 <= now.getTime();
    if (!due) continue;
    try {
      await startImport({ db, tenantId: row.tenantId }, row.id, "schedule");
      started++;
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
    }
  }
  return started;
}

/** Rejected rows of a run as CSV: row number, reasons, then the source columns. */
export async function* rejectionsCsv(ctx: Pick<TenantContext, "db" | "tenantId">, runId: string): AsyncIterable<string> {
  const page = 2000;
  let columns: string[] | null = null;
  for (let offset = 0; ; offset += page) {
    const rows = await ctx.db
      .select({ rowNumber: importRejections.rowNumber, reasons: importRejections.reasons, raw: importRejections.raw })
      .from(importRejections)
      .where(and(eq(importRejections.tenantId, ctx.tenantId), eq(importRejections.runId, runId)))
      .orderBy(importRejections.rowNumber)
      .limit(page)
      .offset(offset);
    if (rows.length === 0 && columns) return;
    if (!columns) {
      columns = (rows[0]?.raw ?? []).map(([k]) => k);
      yield `${["Row", "Reasons", ...columns].map(csvCell).join(",")}\r\n`;
      if (rows.length === 0) return;
    }
    yield rows
      .map((r) => {
        const raw = new Map(r.raw);
        return [String(r.rowNumber), r.reasons.join("; "), ...columns!.map((c) => raw.get(c) ?? "")].map(csvCell).join(",") + "\r\n";
      })
      .join("");
    if (rows.length < page) return;
  }
}

function csvCell(value: string) {
  // A leading = + - @ would run as a formula in a spreadsheet: quote it with a ' (OWASP CSV injection).
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Import runs of the tenant's connection (for its page). */
export async function listRuns(ctx: Pick<TenantContext, "db" | "tenantId">, connectionId: string, limit = 5) {
  return ctx.db
    .select()
    .from(importRuns)
    .where(and(eq(importRuns.tenantId, ctx.tenantId), eq(importRuns.connectionId, connectionId)))
    .orderBy(desc(importRuns.createdAt))
    .limit(limit);
}

/** Counts of what a connection imported (its page, and tests). */
export async function importedCounts(db: DbOrTx, tenantId: string, connectionId: string) {
  const [c] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(customers)
    .where(and(eq(customers.tenantId, tenantId), eq(customers.connectionId, connectionId)));
  const [p] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(policies)
    .where(and(eq(policies.tenantId, tenantId), eq(policies.connectionId, connectionId)));
  return { customers: c.n, policies: p.n };
}
