import { and, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { jobs } from "~/db/schema";
import { createTestTenant } from "../../../tests/support/factories";
import { enqueueForecastRecompute, FORECAST_RECOMPUTE_JOB, handleForecastRecompute } from "./forecast.server";

type Db = Awaited<ReturnType<typeof createTestTenant>>["db"];

async function recomputeJobs(db: Db, tenantId: string) {
  return db
    .select({ id: jobs.id, status: jobs.status, tenantId: jobs.tenantId, type: jobs.type, payload: jobs.payload, attempts: jobs.attempts })
    .from(jobs)
    .where(and(eq(jobs.tenantId, tenantId), eq(jobs.type, FORECAST_RECOMPUTE_JOB)))
    .orderBy(jobs.createdAt);
}

describe("forecast recompute requests", () => {
  test("each request is queued; the ones waiting when a computation starts are done by it; a later one runs again", async () => {
    const { db, tenant } = await createTestTenant();
    await enqueueForecastRecompute(db, tenant.id);
    await enqueueForecastRecompute(db, tenant.id);
    const [first, second] = await recomputeJobs(db, tenant.id);
    expect([first?.status, second?.status]).toEqual(["queued", "queued"]);

    // Claimed by a worker (as claimJob does), then run.
    await db.update(jobs).set({ status: "running" }).where(eq(jobs.id, first.id));
    const helpers = { db, progress: async () => {}, signal: new AbortController().signal };
    await handleForecastRecompute({ ...first, maxAttempts: 5 } as Parameters<typeof handleForecastRecompute>[0], helpers);
    expect((await recomputeJobs(db, tenant.id)).find((j) => j.id === second.id)?.status).toBe("succeeded");

    // A change made after that computation read the book (the same minute, too) is computed again.
    await enqueueForecastRecompute(db, tenant.id);
    expect((await recomputeJobs(db, tenant.id)).filter((j) => j.status === "queued")).toHaveLength(1);
  });
});
