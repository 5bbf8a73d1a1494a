import { randomUUID } from "node:crypto";
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "~/db/client.server";
import { describeError } from "~/db/errors.server";
import { jobs } from "~/db/schema";
import { log, withLogScope } from "~/services/platform/log.server";

export type JobRecord = {
  id: string;
  tenantId: string | null;
  type: string;
  payload: Record<string, unknown>;
  attempts: number;
  maxAttempts: number;
};

export type JobHelpers = {
  db: Db;
  /** Record progress the UI can show; also renews the lease. */
  progress: (progress: Record<string, unknown>) => Promise<void>;
  signal: AbortSignal;
};

export type JobHandler = (job: JobRecord, helpers: JobHelpers) => Promise<void>;

const handlers = new Map<string, JobHandler>();
const recurring = new Map<string, number>();

/** Register the code that runs jobs of `type`. */
export function registerJobHandler(type: string, handler: JobHandler) {
  handlers.set(type, handler);
}

/** Enqueue `type` once per `everyMs` across all instances (the dedupe key is the time slot). */
export function registerRecurringJob(type: string, everyMs: number) {
  recurring.set(type, everyMs);
}

export type EnqueueInput = {
  type: string;
  tenantId?: string | null;
  payload?: Record<string, unknown>;
  runAt?: Date;
  maxAttempts?: number;
  dedupeKey?: string;
};

/** Add a job; with a dedupe key already taken, nothing is added and null is returned. */
export async function enqueueJob(db: DbOrTx, input: EnqueueInput) {
  const [row] = await db
    .insert(jobs)
    .values({
      type: input.type,
      tenantId: input.tenantId ?? null,
      payload: input.payload ?? {},
      runAt: input.runAt ?? new Date(),
      maxAttempts: input.maxAttempts ?? 5,
      dedupeKey: input.dedupeKey ?? null,
    })
    .onConflictDoNothing({ target: jobs.dedupeKey })
    .returning({ id: jobs.id });
  return row?.id ?? null;
}

type ClaimedRow = {
  id: string;
  tenant_id: string | null;
  type: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
};

/**
 * Claim the next runnable job: queued and due, or running with an expired lease (its worker
 * died). SKIP LOCKED lets any number of workers on one PostgreSQL claim without waiting.
 * cross-tenant: the job queue is shared by every tenant; jobs are found by id, lease and status.
 */
export async function claimJob(db: Db, workerId: string, leaseMs: number, now = new Date(), types?: readonly string[]) {
  const nowIso = now.toISOString();
  const leaseIso = new Date(now.getTime() + leaseMs).toISOString();
  // A worker may serve only some job types (a dedicated file worker, a test's own queue).
  const typeFilter = types?.length
    ? sql`and type in (${sql.join(
        types.map((t) => sql`${t}`),
        sql`, `,
      )})`
    : sql``;
  const result = (await db.execute(sql`
    update jobs set status = 'running', attempts = attempts + 1, lease_until = ${leaseIso}::timestamptz,
      locked_by = ${workerId}
    where id = (
      select id from jobs
      where ((status = 'queued' and run_at <= ${nowIso}::timestamptz)
         or (status = 'running' and lease_until < ${nowIso}::timestamptz)) ${typeFilter}
      order by run_at
      limit 1
      for update skip locked
    )
    returning id, tenant_id, type, payload, attempts, max_attempts`)) as unknown as { rows: ClaimedRow[] };
  const row = result.rows[0];
  if (!row) return null;
  return {
    id: row.id,
    tenantId: row.tenant_id,
    type: row.type,
    payload: row.payload,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
  } satisfies JobRecord;
}

/**
 * Push a running job's lease forward (only while this worker still holds it).
 * cross-tenant: the job queue is shared by every tenant; jobs are found by id, lease and status.
 */
export async function renewLease(db: Db, jobId: string, workerId: string, leaseMs: number, now = new Date()) {
  await db
    .update(jobs)
    .set({ leaseUntil: new Date(now.getTime() + leaseMs) })
    .where(and(eq(jobs.id, jobId), eq(jobs.lockedBy, workerId), eq(jobs.status, "running")));
}

/** Exponential back-off: 2 s, 4 s, 8 s … capped at 10 minutes. */
export function retryDelayMs(attempts: number) {
  return Math.min(2_000 * 2 ** Math.max(0, attempts - 1), 600_000);
}

/** A job that succeeded. cross-tenant: the job queue is shared by every tenant; jobs are found by id and lease. */
export async function completeJob(db: Db, job: JobRecord, workerId: string, now = new Date()) {
  await db
    .update(jobs)
    .set({ status: "succeeded", finishedAt: now, leaseUntil: null, lastError: null })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId)));
}

/**
 * A failed attempt: retried later with back-off, or failed for good after maxAttempts.
 * cross-tenant: the job queue is shared by every tenant; jobs are found by id, lease and status.
 */
export async function failJob(db: Db, job: JobRecord, workerId: string, error: unknown, now = new Date()) {
  const described = describeError(error);
  // A database error's message holds its statement and values: the job keeps the safe first line.
  const message = typeof described === "string" ? described.split("\n")[0] : error instanceof Error ? error.message : String(error);
  const final = job.attempts >= job.maxAttempts || error instanceof PermanentJobError;
  await db
    .update(jobs)
    .set(
      final
        ? { status: "failed", finishedAt: now, leaseUntil: null, lastError: message.slice(0, 2000) }
        : {
            status: "queued",
            runAt: new Date(now.getTime() + retryDelayMs(job.attempts)),
            leaseUntil: null,
            lastError: message.slice(0, 2000),
          },
    )
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId)));
  return final;
}

/** Throw this from a handler when retrying cannot help (a hostile file, say). */
export class PermanentJobError extends Error {}

/** One job by id. cross-tenant: the job queue is shared by every tenant (tests and the job's own handler). */
export async function getJob(db: Db, jobId: string) {
  const [row] = await db
    .select({
      id: jobs.id,
      tenantId: jobs.tenantId,
      type: jobs.type,
      status: jobs.status,
      attempts: jobs.attempts,
      lastError: jobs.lastError,
      progress: jobs.progress,
      runAt: jobs.runAt,
      finishedAt: jobs.finishedAt,
    })
    .from(jobs)
    .where(eq(jobs.id, jobId));
  return row ?? null;
}

export type WorkerOptions = {
  concurrency?: number;
  pollMs?: number;
  leaseMs?: number;
  workerId?: string;
  /** Only claim these job types (default: all); recurring jobs are scheduled only without it. */
  types?: readonly string[];
};

/**
 * Run jobs until stopped; returns a function that stops after the jobs in hand finish.
 * cross-tenant: the job queue is shared by every tenant; jobs are found by id, lease and status.
 */
export function startWorker(db: Db, options: WorkerOptions = {}) {
  const workerId = options.workerId ?? `worker-${process.pid}-${randomUUID().slice(0, 8)}`;
  const concurrency = options.concurrency ?? 2;
  const pollMs = options.pollMs ?? 500;
  const leaseMs = options.leaseMs ?? 60_000;
  const controller = new AbortController();
  let running = 0;
  let stopped = false;
  const inFlight = new Set<Promise<void>>();

  function runOne(job: JobRecord) {
    // Every line the job logs, however deep, names it and its agency.
    return withLogScope({ jobId: job.id, jobType: job.type, tenantId: job.tenantId ?? undefined }, () => runInScope(job));
  }

  async function runInScope(job: JobRecord) {
    const handler = handlers.get(job.type);
    const started = performance.now();
    // A long job keeps its lease while this process lives; after a crash the lease runs out
    // and another worker reclaims the job.
    const heartbeat = setInterval(
      () => {
        renewLease(db, job.id, workerId, leaseMs).catch((error) => log.error({ err: describeError(error) }, "lease renewal failed"));
      },
      Math.max(100, Math.floor(leaseMs / 3)),
    );
    try {
      if (!handler) throw new PermanentJobError(`No handler for job type ${job.type}`);
      await handler(job, {
        db,
        signal: controller.signal,
        progress: async (progress) => {
          await db
            .update(jobs)
            .set({ progress, leaseUntil: new Date(Date.now() + leaseMs) })
            .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId)));
        },
      });
      await completeJob(db, job, workerId);
      log.info({ attempt: job.attempts, ms: Math.round(performance.now() - started) }, "job done");
    } catch (error) {
      try {
        const final = await failJob(db, job, workerId, error);
        log.error({ attempt: job.attempts, final, err: describeError(error) }, final ? "job failed for good" : "job attempt failed");
      } catch (recording) {
        // The database is away (the failure was probably that too): the lease runs out and the job
        // is claimed again once it is back, so nothing is lost.
        log.error({ err: describeError(error), recordingErr: describeError(recording) }, "job failed and could not be recorded");
      }
    } finally {
      clearInterval(heartbeat);
    }
  }

  async function tick() {
    if (stopped) return;
    try {
      if (!options.types) await scheduleRecurring(db);
      while (!stopped && running < concurrency) {
        const job = await claimJob(db, workerId, leaseMs, new Date(), options.types);
        if (!job) break;
        running++;
        const p = runOne(job).finally(() => {
          running--;
          inFlight.delete(p);
        });
        inFlight.add(p);
      }
    } catch (error) {
      log.error({ area: "jobs", err: describeError(error) }, "poll failed");
    }
    if (!stopped) timer = setTimeout(tick, pollMs);
  }

  let timer: NodeJS.Timeout | undefined = setTimeout(tick, 0);
  return async function stop() {
    stopped = true;
    if (timer) clearTimeout(timer);
    await Promise.allSettled([...inFlight]);
    controller.abort();
  };
}

async function scheduleRecurring(db: Db, now = Date.now()) {
  for (const [type, everyMs] of recurring) {
    await enqueueJob(db, { type, dedupeKey: `${type}:${Math.floor(now / everyMs)}`, maxAttempts: 1 });
  }
}

/**
 * Delete finished jobs older than `maxAgeMs` (they only serve as history).
 * cross-tenant: housekeeping of the queue shared by every tenant, by status and age alone.
 */
export async function pruneFinishedJobs(db: Db, maxAgeMs: number, now = new Date()) {
  await db.delete(jobs).where(and(inArray(jobs.status, ["succeeded", "failed"]), lt(jobs.finishedAt, new Date(now.getTime() - maxAgeMs))));
}
