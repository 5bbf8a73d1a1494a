import { refreshTableStatistics } from "~/db/table-statistics.server";
import { queryRows } from "~/db/rows.server";
import { addDays, differenceInCalendarDays, format, parseISO } from "date-fns";
import { and, eq, ne, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "~/db/client.server";
import { openCopy } from "~/db/copy.server";
import {
  forecastRuns,
  jobs,
  LINES_OF_BUSINESS,
  tenants,
  type BookCustomerCounts,
  type ForecastMonthTotals,
  type WorklistFilterOptions,
} from "~/db/schema";
import { localDateParts } from "~/utils/time-zone";
import { clock } from "../platform/context.server";
import { contextMemo } from "../platform/context-memo.server";
import { enqueueJob, type JobHandler } from "../platform/jobs.server";
import { ALL_LINES, getForecastPreference, getPredictionMinSample, type ForecastPreference } from "./forecast-preferences.server";
import {
  FREQUENCY_CAP_DAYS,
  applyCustomerCap,
  evaluateRenewal,
  predictRate,
  rateKey,
  windowEnd,
  type Evaluation,
  type Exclusion,
  type ExistingFlag,
  type RenewalInput,
} from "./forecast-rules.server";

/** What the forecast computation needs: a database (or transaction), the tenant and the clock. */
export type ForecastCtx = { db: DbOrTx; tenantId: string; now?: () => Date };

const BATCH = 5_000;
/** Only renewals of the last year count as "recent" for predictions. */
const HISTORY_DAYS = 365;

// Once per request: a page's loader asks for "today" from several services with one context.
const timeZones = contextMemo<string>();

/** The tenant's calendar date (yyyy-mm-dd) in its own time zone. */
export async function tenantToday(ctx: ForecastCtx) {
  const timeZone = await timeZones.read(ctx, async () => {
    const [row] = await ctx.db.select({ timeZone: tenants.timeZone }).from(tenants).where(eq(tenants.id, ctx.tenantId));
    return row?.timeZone ?? "America/New_York";
  });
  return calendarDate(clock(ctx), timeZone);
}

/** The calendar date (yyyy-mm-dd) of an instant in a time zone (UTC when the zone is unknown). */
export function calendarDate(at: Date, timeZone: string) {
  return localDateParts(at, timeZone).iso;
}

/** Forecast preferences per line of business (each falling back to 'all', then the defaults). */
export async function resolvePreferences(ctx: ForecastCtx) {
  const scoped = { db: ctx.db as Db, tenantId: ctx.tenantId };
  const all = await getForecastPreference(scoped, ALL_LINES);
  const perLine = new Map<string, ForecastPreference>();
  for (const line of LINES_OF_BUSINESS) perLine.set(line, await getForecastPreference(scoped, line));
  const longest = [...perLine.values(), all].some((p) => p.window === "yr") ? "yr" : "6m";
  return { all, forLine: (line: string) => perLine.get(line) ?? all, longestWindow: longest as ForecastPreference["window"] };
}

/**
 * Rate change of the tenant's recent renewals (terms that started in the last year with a known
 * prior premium), as medians per carrier × line × state, carrier × line, line and tenant: one
 * query with grouping sets. Ratios outside 0.5–2 are data errors, not renewals, and are ignored.
 */
export async function loadRateStats(ctx: ForecastCtx, today: string) {
  const result = await queryRows<{
    g_carrier: number;
    g_state: number;
    g_line: number;
    carrier: string | null;
    line: string | null;
    state: string | null;
    sample: number | string;
    rate: number | string;
  }>(
    ctx.db,
    sql`
    select grouping(lower(carrier_name)) as g_carrier, grouping(line_of_business) as g_line, grouping(risk_state) as g_state,
      lower(carrier_name) as carrier, line_of_business as line, risk_state as state,
      count(*) as sample, percentile_cont(0.5) within group (order by premium / prior_premium - 1) as rate
    from policies
    where tenant_id = ${ctx.tenantId}
      and status <> 'quoted'
      and effective_date <= ${today}::date and effective_date > ${today}::date - ${HISTORY_DAYS}::int
      and prior_premium > 0 and premium > 0 and premium / prior_premium between 0.5 and 2
    group by grouping sets ((lower(carrier_name), line_of_business, risk_state), (lower(carrier_name), line_of_business), (line_of_business), ())
  `,
  );
  const stats = new Map<string, { rate: number; sample: number }>();
  for (const r of result) {
    const value = { rate: Number(r.rate), sample: Number(r.sample) };
    if (Number(r.g_line) === 1) stats.set(rateKey(), value);
    else if (Number(r.g_carrier) === 1) stats.set(rateKey(null, r.line), value);
    else if (Number(r.g_state) === 1) stats.set(rateKey(r.carrier, r.line), value);
    else stats.set(rateKey(r.carrier, r.line, r.state), value);
  }
  return stats;
}

type CandidateRow = RenewalInput;

/**
 * Recompute the tenant's forecast and worklist: every active renewal in the window gets a
 * forecast row (offer or prediction, change, exclusion); the ones that pass every rule get a
 * flag with the reason. A flag someone acted on (re-marketed, dismissed, snoozed) keeps its
 * status; open flags that no longer qualify leave the worklist.
 *
 * The rules stay in TypeScript (forecast-rules.server.ts, tested as a table); the computation
 * around them is set-based: everything the per-customer cap needs is read before the pass, each
 * forecast row is written exactly once (renewals that cannot be flagged as soon as they are
 * evaluated, the candidates after the cap), with COPY on PostgreSQL, and the worklist is
 * refreshed from the flagged rows in two statements.
 */
export async function recomputeForecast(ctx: ForecastCtx, options: { onProgress?: (progress: { evaluated: number }) => void } = {}) {
  const started = Date.now();
  const now = clock(ctx);
  monthly.forget(ctx);
  return ctx.db.transaction(async (tx) => {
    // One computation per tenant at a time (the job, a button and an import can race).
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`forecast:${ctx.tenantId}`}))`);
    const tctx: ForecastCtx = { db: tx, tenantId: ctx.tenantId, now: () => now };
    const today = await tenantToday(tctx);
    const prefs = await resolvePreferences(tctx);
    const stats = await loadRateStats(tctx, today);
    const minSample = await getPredictionMinSample(tctx);
    // Twelve months are always evaluated: the what-if may widen a six-month window.
    const until = windowEnd(today, "yr");

    await tx.execute(sql`
      update renewal_flags set status = 'open', snoozed_until = null, status_changed_at = ${now.toISOString()}::timestamptz
      where tenant_id = ${ctx.tenantId} and status = 'snoozed' and snoozed_until <= ${today}::date`);
    const capState = {
      recentlyRemarketed: await recentlyRemarketedCustomers(tx, ctx.tenantId, now),
      flags: await existingFlags(tx, ctx.tenantId),
    };
    await tx.execute(sql`delete from renewal_forecasts where tenant_id = ${ctx.tenantId}`);

    const phases = { prepare: Date.now() - started, read: 0, evaluate: 0, write: 0, cap: 0, flags: 0, options: 0 };
    const lap = (key: keyof typeof phases, since: number) => {
      phases[key] += Date.now() - since;
      return Date.now();
    };
    // Renewals that pass the single-renewal rules wait for the per-customer cap (a few percent of the book).
    const candidates: ForecastRecord[] = [];
    // Each row is counted as it is written: reading the rows back to sum them cost seconds.
    const totals = monthTally();
    let evaluated = 0;
    // Read in ranges of expiration dates sized to ~BATCH renewals each: every range is one
    // index range scan on (tenant_id, expiration_date), whatever the size of the book.
    for (const [from, to] of await expirationRanges(tx, ctx.tenantId, today, until)) {
      let t = Date.now();
      const rows: CandidateRow[] = await readRenewals(tx, ctx.tenantId, from, to);
      t = lap("read", t);
      if (rows.length === 0) continue;
      const settled: ForecastRecord[] = [];
      for (const row of rows) {
        const e = evaluateRenewal(row, prefs.forLine(row.lineOfBusiness), predictRate(stats, row, minSample), today);
        const record: ForecastRecord = { e, line: row.lineOfBusiness, flagged: false, exclusion: e.exclusion };
        if (e.exclusion !== null) {
          settled.push(record);
          totals.add(record);
        } else candidates.push(record);
      }
      t = lap("evaluate", t);
      await writeForecasts(tx, ctx.tenantId, settled);
      lap("write", t);
      evaluated += rows.length;
      options.onProgress?.({ evaluated });
    }

    let t = Date.now();
    const decided = applyCustomerCap(
      candidates.map((c) => c.e),
      capState,
    );
    const flaggedIds: string[] = [];
    for (const c of candidates) {
      const exclusion = decided.get(c.e.policyId) ?? null;
      c.exclusion = exclusion;
      c.flagged = exclusion === null;
      if (c.flagged) flaggedIds.push(c.e.policyId);
      totals.add(c);
    }
    t = lap("cap", t);
    await writeForecasts(tx, ctx.tenantId, candidates);
    t = lap("write", t);
    options.onProgress?.({ evaluated });
    await upsertFlags(tx, ctx.tenantId, now, flaggedIds);
    t = lap("flags", t);
    const filterOptions = await readFilterOptions(tx, ctx.tenantId);
    const { customerCounts, carrierIds: bookCarrierIds } = await readBookFacts(tx, ctx.tenantId);
    const monthly = totals.months();
    lap("options", t);
    const run = {
      computedAt: now,
      evaluated,
      flagged: flaggedIds.length,
      durationMs: Date.now() - started,
      filterOptions,
      phases,
      monthly,
      customerCounts,
      bookCarrierIds,
    };
    await tx
      .insert(forecastRuns)
      .values({ tenantId: ctx.tenantId, ...run })
      .onConflictDoUpdate({ target: forecastRuns.tenantId, set: run });
    return run;
  });
}

/** Half-open date ranges [from, to) covering [today, until], each holding about BATCH renewals. */
async function expirationRanges(tx: DbOrTx, tenantId: string, today: string, until: string): Promise<[string, string][]> {
  const [{ n }] = await queryRows<{ n: number | string }>(
    tx,
    sql`
    select count(*) as n from policies
    where tenant_id = ${tenantId} and status = 'active' and expiration_date >= ${today}::date and expiration_date <= ${until}::date`,
  );
  const end = format(addDays(parseISO(until), 1), "yyyy-MM-dd");
  const total = Number(n);
  if (total <= BATCH) return [[today, end]];
  const days = Math.max(1, differenceInCalendarDays(parseISO(end), parseISO(today)));
  const step = Math.max(1, Math.floor((days * BATCH) / total));
  const ranges: [string, string][] = [];
  for (let d = parseISO(today); format(d, "yyyy-MM-dd") < end; d = addDays(d, step)) {
    const next = format(addDays(d, step), "yyyy-MM-dd");
    ranges.push([format(d, "yyyy-MM-dd"), next < end ? next : end]);
  }
  return ranges;
}

async function readRenewals(tx: DbOrTx, tenantId: string, from: string, to: string) {
  const result = await queryRows<Record<string, unknown>>(
    tx,
    sql`
    select p.id, p.customer_id, p.status, p.line_of_business, p.carrier_name, p.risk_state, p.inception_date::text,
      p.effective_date::text, p.expiration_date::text, p.premium, p.prior_premium, p.renewal_premium
    from policies p
    where p.tenant_id = ${tenantId} and p.status = 'active'
      and p.expiration_date >= ${from}::date and p.expiration_date < ${to}::date`,
  );
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return result.map((r): CandidateRow => ({
    policyId: String(r.id),
    customerId: String(r.customer_id),
    status: String(r.status),
    lineOfBusiness: String(r.line_of_business),
    carrierName: String(r.carrier_name),
    riskState: (r.risk_state as string | null) ?? null,
    inceptionDate: (r.inception_date as string | null) ?? null,
    effectiveDate: String(r.effective_date),
    expirationDate: String(r.expiration_date),
    premium: num(r.premium),
    priorPremium: num(r.prior_premium),
    renewalPremium: num(r.renewal_premium),
  }));
}

/** One forecast row as written: the evaluation, the policy's line and the final flag decision. */
type ForecastRecord = { e: Evaluation; line: string; flagged: boolean; exclusion: Exclusion | null };

const FORECAST_COLUMNS =
  "tenant_id, policy_id, customer_id, line_of_business, expiration_date, prior_premium, current_premium, renewal_premium, predicted, prediction_level, prediction_sample, prediction_rate, change_pct, change_amount, in_window, flagged, exclusion, eligible, why";

/**
 * Writes forecast rows: one COPY per batch on PostgreSQL (a COPY holds the connection, and the
 * reads share it), column arrays through unnest() on the embedded database (no COPY FROM STDIN).
 */
async function writeForecasts(tx: DbOrTx, tenantId: string, records: ForecastRecord[]) {
  if (records.length === 0) return;
  const stream = await openCopy(tx, `copy renewal_forecasts (${FORECAST_COLUMNS}) from stdin`);
  if (!stream) {
    for (let i = 0; i < records.length; i += BATCH) await insertForecasts(tx, tenantId, records.slice(i, i + BATCH));
    return;
  }
  for (let i = 0; i < records.length; i += 1_000)
    await stream.write(
      records
        .slice(i, i + 1_000)
        .map((r) => copyLine(tenantId, r))
        .join(""),
    );
  await stream.end();
}

/**
 * COPY text format: tab-separated, \N for null. Only text can hold a tab, newline or backslash
 * (the line of business, the enums and the JSON), so only text is escaped: escaping every
 * number, id and date cost about a second on a million rows.
 */
function copyLine(tenantId: string, { e, line, flagged, exclusion }: ForecastRecord) {
  const p = e.prediction;
  return (
    `${tenantId}\t${e.policyId}\t${e.customerId}\t${copyText(line)}\t${e.expirationDate}\t` +
    `${copyNumber(e.priorPremium)}\t${copyNumber(e.currentPremium)}\t${copyNumber(e.renewalPremium)}\t${copyBool(e.predicted)}\t` +
    `${copyText(p?.level)}\t${copyNumber(p?.sample)}\t${copyNumber(p ? Number(p.rate.toFixed(6)) : null)}\t` +
    `${copyNumber(e.changePct)}\t${copyNumber(e.changeAmount)}\t${copyBool(e.inWindow)}\t${copyBool(flagged)}\t` +
    `${copyText(exclusion)}\t${copyBool(e.eligible)}\t${e.why ? copyText(JSON.stringify(e.why)) : "\\N"}\n`
  );
}

const COPY_SPECIAL = /[\\\t\n\r]/g;
const copyText = (x: string | null | undefined) =>
  x === null || x === undefined
    ? "\\N"
    : x.replace(COPY_SPECIAL, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r"));
const copyNumber = (x: number | null | undefined) => (x === null || x === undefined ? "\\N" : String(x));
const copyBool = (x: boolean) => (x ? "t" : "f");

// Column arrays through unnest(): one statement per batch.
async function insertForecasts(tx: DbOrTx, tenantId: string, records: ForecastRecord[]) {
  if (records.length === 0) return;
  const col = <T>(pick: (r: ForecastRecord) => T) => sql.param(records.map(pick));
  await tx.execute(sql`
    insert into renewal_forecasts (${sql.raw(FORECAST_COLUMNS)})
    select ${tenantId}::uuid, * from unnest(
      ${col((r) => r.e.policyId)}::uuid[], ${col((r) => r.e.customerId)}::uuid[], ${col((r) => r.line)}::text[], ${col((r) => r.e.expirationDate)}::date[],
      ${col((r) => r.e.priorPremium)}::numeric[], ${col((r) => r.e.currentPremium)}::numeric[],
      ${col((r) => r.e.renewalPremium)}::numeric[], ${col((r) => r.e.predicted)}::boolean[],
      ${col((r) => r.e.prediction?.level ?? null)}::text[], ${col((r) => r.e.prediction?.sample ?? null)}::int[],
      ${col((r) => (r.e.prediction ? Number(r.e.prediction.rate.toFixed(6)) : null))}::numeric[],
      ${col((r) => r.e.changePct)}::numeric[], ${col((r) => r.e.changeAmount)}::numeric[],
      ${col((r) => r.e.inWindow)}::boolean[], ${col((r) => r.flagged)}::boolean[],
      ${col((r) => r.exclusion)}::text[], ${col((r) => r.e.eligible)}::boolean[],
      ${col((r) => (r.e.why ? JSON.stringify(r.e.why) : null))}::jsonb[]
    )`);
}

async function recentlyRemarketedCustomers(tx: DbOrTx, tenantId: string, now: Date) {
  const since = new Date(now.getTime() - FREQUENCY_CAP_DAYS * 86_400_000);
  const result = await queryRows<{ customer_id: string }>(
    tx,
    sql`
    select distinct customer_id from remarkets where tenant_id = ${tenantId} and remarketed_at > ${since.toISOString()}::timestamptz`,
  );
  return new Set(result.map((r) => String(r.customer_id)));
}

async function existingFlags(tx: DbOrTx, tenantId: string) {
  const result = await queryRows<{ policy_id: string; customer_id: string; status: ExistingFlag["status"] }>(
    tx,
    sql`
    select policy_id, customer_id, status from renewal_flags where tenant_id = ${tenantId}`,
  );
  return new Map(result.map((r) => [String(r.policy_id), { customerId: String(r.customer_id), status: r.status }]));
}

// Set-based: flagged forecast rows become (or refresh) worklist rows in one statement, driven by
// the flagged ids (primary-key lookups: the rows just written have no planner statistics yet).
// The policy and customer of each row are looked up by key in a lateral subquery (`offset 0` keeps
// it one): joined plainly, the planner hashed every policy of the database (1.2 M rows, spilled
// to disk) for 26 k flags.
async function upsertFlags(tx: DbOrTx, tenantId: string, now: Date, flaggedIds: string[]) {
  const at = now.toISOString();
  await tx.execute(sql`
    insert into renewal_flags (tenant_id, policy_id, customer_id, customer_name, policy_number, line_of_business,
      carrier_name, risk_state, producer, expiration_date, prior_premium, current_premium, renewal_premium, predicted,
      change_pct, change_amount, status, rule_version, why, flagged_at, evaluated_at)
    select f.tenant_id, f.policy_id, f.customer_id, c.name, p.policy_number, p.line_of_business, p.carrier_name,
      p.risk_state, p.producer, f.expiration_date, f.prior_premium, f.current_premium, f.renewal_premium, f.predicted,
      f.change_pct, f.change_amount, 'open', f.why->>'ruleVersion', f.why, ${at}::timestamptz, ${at}::timestamptz
    from unnest(${sql.param(flaggedIds)}::uuid[]) as x(policy_id)
      join renewal_forecasts f on f.tenant_id = ${tenantId} and f.policy_id = x.policy_id
      cross join lateral (
        select policy_number, line_of_business, carrier_name, risk_state, producer from policies
        where id = f.policy_id and tenant_id = ${tenantId} offset 0
      ) p
      cross join lateral (select name from customers where id = f.customer_id and tenant_id = ${tenantId} offset 0) c
    on conflict (tenant_id, policy_id) do update set
      customer_name = excluded.customer_name, policy_number = excluded.policy_number,
      line_of_business = excluded.line_of_business, carrier_name = excluded.carrier_name,
      risk_state = excluded.risk_state, producer = excluded.producer, expiration_date = excluded.expiration_date,
      prior_premium = excluded.prior_premium, current_premium = excluded.current_premium,
      renewal_premium = excluded.renewal_premium, predicted = excluded.predicted, change_pct = excluded.change_pct,
      change_amount = excluded.change_amount, rule_version = excluded.rule_version, why = excluded.why,
      evaluated_at = excluded.evaluated_at
    where renewal_flags.status in ('open', 'snoozed')`);
  // Open flags this computation did not raise leave the worklist (= ANY over a large array is hashed).
  await tx.execute(sql`
    delete from renewal_flags where tenant_id = ${tenantId} and status = 'open' and not (policy_id = any(${sql.param(flaggedIds)}::uuid[]))`);
}

/**
 * The book's customers, those with at least one active policy (each once), and the catalogue
 * carriers of its active policies: what /customers and /carriers show, gathered here because each
 * is a scan of the tenant's customers or policies. One read of the active policies serves both.
 */
export async function readBookFacts(db: DbOrTx, tenantId: string): Promise<{ customerCounts: BookCustomerCounts; carrierIds: string[] }> {
  const [row] = await queryRows<{ total: number | string; active: number | string; carrier_ids: string[] | null }>(
    db,
    sql`select
      (select count(*) from customers c where c.tenant_id = ${tenantId}) as total,
      count(distinct p.customer_id) as active,
      array_agg(distinct p.carrier_id::text order by p.carrier_id::text) filter (where p.carrier_id is not null) as carrier_ids
      from policies p where p.tenant_id = ${tenantId} and p.status = 'active'`,
  );
  return { customerCounts: { total: Number(row.total), active: Number(row.active) }, carrierIds: row.carrier_ids ?? [] };
}

/** The book's customers and those with an active policy, counted now (an agency the forecast has not counted yet). */
export async function countBookCustomers(db: DbOrTx, tenantId: string): Promise<BookCustomerCounts> {
  return (await readBookFacts(db, tenantId)).customerCounts;
}

async function readFilterOptions(tx: DbOrTx, tenantId: string): Promise<WorklistFilterOptions> {
  const distinct = async (column: string) => {
    const result = await queryRows<{ v: string }>(
      tx,
      sql`select distinct ${sql.raw(column)} as v from renewal_flags where tenant_id = ${tenantId} and ${sql.raw(column)} is not null order by 1`,
    );
    return result.map((r) => String(r.v));
  };
  return {
    carriers: await distinct("carrier_name"),
    lines: await distinct("line_of_business"),
    producers: await distinct("producer"),
    states: await distinct("risk_state"),
  };
}

/**
 * The totals `monthlyTotals` reads back, kept while the rows are written: the same rows (in the
 * window), months and sums. Money is added in cents, as integers, so the sums are exact like
 * PostgreSQL's numeric ones (the figures have two decimals, as the numeric(12, 2) columns keep them).
 */
function monthTally() {
  const byMonth = new Map<string, { renewals: number; premiumCents: number; renewalCents: number; flagged: number }>();
  const cents = (amount: number | null) => (amount === null ? 0 : Math.round(amount * 100));
  return {
    add({ e, flagged }: { e: Pick<Evaluation, "inWindow" | "expirationDate" | "currentPremium" | "renewalPremium">; flagged: boolean }) {
      if (!e.inWindow) return;
      const month = e.expirationDate.slice(0, 7);
      let m = byMonth.get(month);
      if (!m) byMonth.set(month, (m = { renewals: 0, premiumCents: 0, renewalCents: 0, flagged: 0 }));
      m.renewals += 1;
      m.premiumCents += cents(e.currentPremium);
      m.renewalCents += cents(e.renewalPremium ?? e.currentPremium);
      if (flagged) m.flagged += 1;
    },
    months(): ForecastMonthTotals[] {
      return [...byMonth.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([month, m]) => ({
          month,
          renewals: m.renewals,
          premium: m.premiumCents / 100,
          renewalPremium: m.renewalCents / 100,
          flagged: m.flagged,
        }));
    },
  };
}

/** Renewals, premium and flags per month of the window (what /forecast's summary and page count read). */
export async function monthlyTotals(tx: DbOrTx, tenantId: string): Promise<ForecastMonthTotals[]> {
  const rows = await queryRows<Record<string, unknown>>(
    tx,
    sql`
    select to_char(expiration_date, 'YYYY-MM') as month, count(*) as renewals,
      coalesce(sum(current_premium), 0) as premium, coalesce(sum(coalesce(renewal_premium, current_premium)), 0) as renewal_premium,
      count(*) filter (where flagged) as flagged
    from renewal_forecasts
    where tenant_id = ${tenantId} and in_window
    group by 1 order by 1`,
  );
  return rows.map((r) => ({
    month: String(r.month),
    renewals: Number(r.renewals),
    premium: Number(r.premium),
    renewalPremium: Number(r.renewal_premium),
    flagged: Number(r.flagged),
  }));
}

// The summary and the page count of /forecast read the same row: once per request.
const monthly = contextMemo<ForecastMonthTotals[] | null>();

/** The last computation's per-month totals; null when there are none (never computed, or computed before they were kept). */
export async function readMonthlyTotals(ctx: ForecastCtx): Promise<ForecastMonthTotals[] | null> {
  return monthly.read(ctx, async () => {
    const [run] = await ctx.db.select({ monthly: forecastRuns.monthly }).from(forecastRuns).where(eq(forecastRuns.tenantId, ctx.tenantId));
    return run?.monthly ?? null;
  });
}

/** The last computation (null: never computed). */
export async function getForecastRun(ctx: ForecastCtx) {
  const [run] = await ctx.db
    .select()
    .from(forecastRuns)
    .where(and(eq(forecastRuns.tenantId, ctx.tenantId)));
  return run ?? null;
}

export const FORECAST_RECOMPUTE_JOB = "forecast.recompute";
/** Above this many renewals the computation runs as a job instead of inside the request. */
const INLINE_LIMIT = 20_000;

/** Recompute now for small books, or queue the job for large ones; returns whether it ran inline. */
export async function refreshForecast(ctx: { db: Db; tenantId: string; now?: () => Date }) {
  const run = await getForecastRun(ctx);
  const size = run
    ? run.evaluated
    : Number(
        (
          await queryRows<{ n: string | number }>(
            ctx.db,
            sql`select count(*) as n from policies where tenant_id = ${ctx.tenantId} and status = 'active'`,
          )
        )[0].n,
      );
  if (size < INLINE_LIMIT) {
    // The table statistics wait for the next job (after an import, or the daily one): a VACUUM
    // here would hold up the person who pressed the button.
    await recomputeForecast(ctx);
    return { inline: true };
  }
  await enqueueForecastRecompute(ctx.db, ctx.tenantId);
  return { inline: false };
}

/**
 * Ask for a fresh computation of `tenantId`'s forecast (after an import, a disconnection, a carrier
 * merge, a saved preference). Every request gets a job: a time-slot dedupe key dropped a request
 * made after a computation of the same minute had already read the book, and so the change it was
 * for. Requests still waiting when one computation starts are folded into it (the handler below).
 */
export async function enqueueForecastRecompute(db: DbOrTx, tenantId: string) {
  return enqueueJob(db, { type: FORECAST_RECOMPUTE_JOB, tenantId });
}

/**
 * The tenant's other computations still queued when this one starts: done by this one, which
 * reads the book after every change committed before they were (a change not yet committed
 * brings its job once it is, and that one runs later).
 */
async function foldWaitingRecomputes(db: DbOrTx, tenantId: string, jobId: string) {
  await db
    .update(jobs)
    .set({ status: "succeeded", finishedAt: new Date(), lastError: null })
    .where(and(eq(jobs.tenantId, tenantId), eq(jobs.type, FORECAST_RECOMPUTE_JOB), eq(jobs.status, "queued"), ne(jobs.id, jobId)));
}

/** The `forecast.recompute` job for one tenant. */
export const handleForecastRecompute: JobHandler = async (job, { db, progress }) => {
  if (!job.tenantId) return;
  await foldWaitingRecomputes(db, job.tenantId, job.id);
  // A large book takes longer than the job lease: report progress (which renews the lease) now
  // and then. Not awaited: on the embedded database it queues behind the open transaction.
  let last = Date.now();
  await recomputeForecast(
    { db, tenantId: job.tenantId },
    {
      onProgress: (p) => {
        if (Date.now() - last < 10_000) return;
        last = Date.now();
        progress(p).catch(() => {});
      },
    },
  );
  // After an import (this job follows every one) and the computation's own rewrite: fresh
  // statistics, and on the embedded database (no autovacuum) the dead rows reclaimed.
  await refreshTableStatistics(db);
};

/** Daily: every tenant with a book gets a fresh forecast (days to expiry move, snoozes wake up). */
export const handleForecastRecomputeAll: JobHandler = async (_job, { db }) => {
  const rows = await queryRows<{ tenant_id: string }>(
    db,
    sql`select t.id as tenant_id from tenants t where exists (select 1 from policies p where p.tenant_id = t.id)`,
  );
  for (const r of rows) await enqueueForecastRecompute(db, String(r.tenant_id));
};
