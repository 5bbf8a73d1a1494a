import { getEnv } from "~/env.server";
import { pruneFinishedJobs, registerJobHandler, registerRecurringJob } from "~/services/jobs.server";
import { FORECAST_RECOMPUTE_JOB, handleForecastRecompute, handleForecastRecomputeAll } from "~/services/forecast.server";
import { TASK_WRITEBACK_JOB, handleTaskWriteback } from "~/services/tasks.server";
import { deleteExpiredDemoTenants } from "~/services/tenants.server";

let registered = false;

/** Every background job type, registered once per process (app server or `npm run worker`). */
export function registerJobs() {
  if (registered) return;
  registered = true;

  registerJobHandler("demo.cleanup", async (_job, { db }) => {
    const deleted = await deleteExpiredDemoTenants(db, getEnv().DEMO_TTL_HOURS * 3_600_000);
    if (deleted > 0) console.info(`[jobs] deleted ${deleted} expired demo tenant(s)`);
  });
  registerRecurringJob("demo.cleanup", 15 * 60_000);

  registerJobHandler("jobs.prune", async (_job, { db }) => {
    await pruneFinishedJobs(db, 7 * 24 * 3_600_000);
  });
  registerRecurringJob("jobs.prune", 24 * 3_600_000);

  // Renewals: forecast computation (per tenant, and daily for all) and task write-back to the AMS.
  registerJobHandler(FORECAST_RECOMPUTE_JOB, handleForecastRecompute);
  registerJobHandler("forecast.recompute-all", handleForecastRecomputeAll);
  registerRecurringJob("forecast.recompute-all", 24 * 3_600_000);
  registerJobHandler(TASK_WRITEBACK_JOB, handleTaskWriteback);
}
