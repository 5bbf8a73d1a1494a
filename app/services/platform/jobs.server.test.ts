import { randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { getDb, getDriver } from "~/db/client.server";
import { jobs } from "~/db/schema";
import {
  PermanentJobError,
  claimJob,
  completeJob,
  enqueueJob,
  failJob,
  getJob,
  registerJobHandler,
  retryDelayMs,
  startWorker,
} from "./jobs.server";

// Opening the database costs seconds (PGlite): do it once, before the first test’s clock starts.
beforeAll(() => getDb());

// Each test uses its own job type, so workers here never touch other tests' jobs.
const uniqueType = (name: string) => `test.${name}.${randomUUID().slice(0, 8)}`;

async function waitFor(check: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("job queue", () => {
  test(`two workers never run one job (driver: ${process.env.DATABASE_URL ? "postgres" : "pglite"})`, async () => {
    const db = await getDb();
    const type = uniqueType("exclusive");
    const runs = new Map<string, string[]>();
    registerJobHandler(type, async (job) => {
      const who = runs.get(job.id) ?? [];
      runs.set(job.id, who);
      who.push(String(job.payload.n));
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 15));
    });
    const ids: string[] = [];
    for (let n = 0; n < 40; n++) ids.push((await enqueueJob(db, { type, payload: { n } }))!);
    // Two workers, each with several jobs in flight, polling the same table. On PostgreSQL the
    // claims race on separate pooled connections; FOR UPDATE SKIP LOCKED must keep them apart.
    const stopA = startWorker(db, { workerId: "worker-a", concurrency: 4, pollMs: 10, types: [type] });
    const stopB = startWorker(db, { workerId: "worker-b", concurrency: 4, pollMs: 10, types: [type] });
    try {
      await waitFor(async () => {
        const rows = await db.select({ status: jobs.status }).from(jobs).where(inArray(jobs.id, ids));
        return rows.every((r) => r.status === "succeeded");
      });
    } finally {
      await Promise.all([stopA(), stopB()]);
    }
    expect(runs.size).toBe(40);
    for (const who of runs.values()) expect(who).toHaveLength(1);
    const rows = await db.select({ attempts: jobs.attempts, lockedBy: jobs.lockedBy }).from(jobs).where(inArray(jobs.id, ids));
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
    expect(new Set(rows.map((r) => r.lockedBy)).size).toBe(2);
  });

  test("concurrent claims of a few jobs hand each out once", async () => {
    const db = await getDb();
    const type = uniqueType("race");
    const ids = new Set<string>();
    for (let n = 0; n < 5; n++) ids.add((await enqueueJob(db, { type }))!);
    const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => claimJob(db, `racer-${i}`, 60_000, new Date(), [type])));
    const claimed = claims.filter((c) => c !== null).map((c) => c!.id);
    expect(new Set(claimed)).toEqual(ids);
    expect(claimed).toHaveLength(5);
    expect(await getDriver()).toBe(process.env.DATABASE_URL ? "postgres" : "pglite");
  });

  test("an expired lease is reclaimed; the crashed worker cannot complete it afterwards", async () => {
    const db = await getDb();
    const type = uniqueType("lease");
    const id = await enqueueJob(db, { type });
    const t0 = new Date(Date.now() + 1000);
    const first = await claimJob(db, "crashed", 1_000, t0, [type]);
    expect(first?.id).toBe(id);
    expect(await claimJob(db, "other", 1_000, new Date(t0.getTime() + 500), [type])).toBeNull();
    const second = await claimJob(db, "other", 1_000, new Date(t0.getTime() + 1_500), [type]);
    expect(second).toMatchObject({ id, attempts: 2 });
    await completeJob(db, first!, "crashed");
    expect((await getJob(db, id!))!.status).toBe("running");
    await completeJob(db, second!, "other");
    expect((await getJob(db, id!))!.status).toBe("succeeded");
  });

  test("a running worker renews its lease, so a long job is not reclaimed", async () => {
    const db = await getDb();
    const type = uniqueType("renew");
    let calls = 0;
    registerJobHandler(type, async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 900));
    });
    const id = await enqueueJob(db, { type });
    const stop = startWorker(db, { workerId: "long", leaseMs: 300, pollMs: 20, types: [type] });
    await new Promise((r) => setTimeout(r, 500));
    // Past the original 300 ms lease, the job is still held: a second worker gets nothing.
    expect(await claimJob(db, "thief", 300, new Date(), [type])).toBeNull();
    await waitFor(async () => (await getJob(db, id!))!.status === "succeeded");
    await stop();
    expect(calls).toBe(1);
  });

  test("retries back off exponentially and stop at max attempts", async () => {
    const db = await getDb();
    const type = uniqueType("retry");
    const id = await enqueueJob(db, { type, maxAttempts: 3 });
    let now = new Date(Date.now() + 5_000);
    const runAts: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const job = await claimJob(db, "w", 60_000, now, [type]);
      expect(job).toMatchObject({ id, attempts: attempt });
      const final = await failJob(db, job!, "w", new Error(`boom ${attempt}`), now);
      const row = (await getJob(db, id!))!;
      if (attempt < 3) {
        expect(final).toBe(false);
        expect(row.status).toBe("queued");
        expect(row.runAt.getTime() - now.getTime()).toBe(retryDelayMs(attempt));
        runAts.push(row.runAt.getTime() - now.getTime());
        // Not before its time…
        expect(await claimJob(db, "w", 60_000, new Date(row.runAt.getTime() - 1), [type])).toBeNull();
        now = new Date(row.runAt.getTime() + 1);
      } else {
        expect(final).toBe(true);
        expect(row).toMatchObject({ status: "failed", lastError: "boom 3" });
      }
    }
    expect(runAts).toEqual([2_000, 4_000]);
    expect(retryDelayMs(20)).toBe(600_000);
  });

  test("a permanent error is not retried", async () => {
    const db = await getDb();
    const type = uniqueType("permanent");
    const id = await enqueueJob(db, { type, maxAttempts: 5 });
    const job = await claimJob(db, "w", 60_000, new Date(Date.now() + 1000), [type]);
    expect(await failJob(db, job!, "w", new PermanentJobError("hostile"))).toBe(true);
    const [row] = await db.select({ status: jobs.status, attempts: jobs.attempts }).from(jobs).where(eq(jobs.id, id!));
    expect(row).toEqual({ status: "failed", attempts: 1 });
  });
});
