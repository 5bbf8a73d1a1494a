import { getEnv } from "~/env.server";
import { runTrialReminders } from "~/services/billing/billing-jobs.server";
import { processFileJob } from "~/services/files/file-processing.server";
import { FILE_JOB } from "~/services/files/files.server";
import { pruneSpentRecords, removeStaleUploads } from "~/services/platform/housekeeping.server";
import { refreshTableStatistics } from "~/db/table-statistics.server";
import { pruneFinishedJobs, registerJobHandler, registerRecurringJob } from "~/services/platform/jobs.server";
import { FORECAST_RECOMPUTE_JOB, handleForecastRecompute, handleForecastRecomputeAll } from "~/services/renewals/forecast.server";
import { TASK_WRITEBACK_JOB, handleTaskWriteback } from "~/services/renewals/tasks.server";
import { registerTaskWriteback } from "~/services/connections/task-writeback.server";
import { getStorage } from "~/services/files/storage.server";
import { deleteExpiredDemoTenants } from "~/services/identity/tenants.server";
import { handleImportJob, IMPORT_JOB, scheduleDueSyncs, SCHEDULE_JOB } from "~/services/connections/imports.server";
import { temporaryUploadMaxAgeMs } from "~/utils/http-limits.server";
import { log } from "~/services/platform/log.server";
import { DAILY_DIGEST_JOB, sendDailyDigests } from "~/services/platform/daily-digest.server";

let registered = false;

/** Every background job type, registered once per process (app server or `npm run worker`). */
export function registerJobs() {
  if (registered) return;
  registered = true;

  registerJobHandler("demo.cleanup", async (_job, { db }) => {
    const deleted = await deleteExpiredDemoTenants(db, getEnv().DEMO_TTL_HOURS * 3_600_000);
    if (deleted > 0) log.info({ area: "jobs", deleted }, "deleted expired demo tenants");
  });
  registerRecurringJob("demo.cleanup", 15 * 60_000);

  registerJobHandler("jobs.prune", async (_job, { db }) => {
    await pruneFinishedJobs(db, 7 * 24 * 3_600_000);
  });
  registerRecurringJob("jobs.prune", 24 * 3_600_000);

  // Spent form tokens, rate-limit windows, ended sessions, old refresh tokens and used codes; uploads a crash left half-written.
  registerJobHandler("housekeeping.prune", async (_job, { db }) => {
    const pruned = await pruneSpentRecords(db);
    const temporaryUploads = await removeStaleUploads(getStorage(), temporaryUploadMaxAgeMs(getEnv()));
    log.info({ area: "jobs", pruned: { ...pruned, temporaryUploads } }, "pruned expired records");
    // The tables that grow a row at a time (the book's are refreshed after each forecast computation).
    await refreshTableStatistics(db, ["files", "notifications", "audit_events"]);
  });
  registerRecurringJob("housekeeping.prune", 6 * 3_600_000);

  // Billing: "trial ending in 3 days" notifications and lapsed trials.
  registerJobHandler("billing.trial-reminders", async (_job, { db }) => {
    await runTrialReminders(db);
  });
  registerRecurringJob("billing.trial-reminders", 60 * 60_000);
  // Uploaded files: EDA report for CSV/XLS/XLSX, metadata for PDF/Word (retried with back-off).
  registerJobHandler(FILE_JOB, processFileJob);
  // Connections: the import (ETL), and re-syncs of API connections on their schedule.
  registerJobHandler(IMPORT_JOB, (job, helpers) => handleImportJob(helpers.db, job, helpers));
  registerJobHandler(SCHEDULE_JOB, async (_job, { db }) => {
    const started = await scheduleDueSyncs(db);
    if (started > 0) log.info({ area: "jobs", started }, "started scheduled syncs");
  });
  registerRecurringJob(SCHEDULE_JOB, 15 * 60_000);
  // Renewals: forecast computation (per tenant, and daily for all) and task write-back to the AMS.
  registerJobHandler(FORECAST_RECOMPUTE_JOB, handleForecastRecompute);
  registerJobHandler("forecast.recompute-all", handleForecastRecomputeAll);
  registerRecurringJob("forecast.recompute-all", 24 * 3_600_000);
  registerJobHandler(TASK_WRITEBACK_JOB, handleTaskWriteback);
  // "What needs me today": hourly, so each agency gets it soon after DIGEST_HOUR in its own time zone.
  registerJobHandler(DAILY_DIGEST_JOB, async (_job, { db }) => {
    const sent = await sendDailyDigests(db);
    if (sent > 0) log.info({ area: "jobs", sent }, "sent daily digests");
  });
  registerRecurringJob(DAILY_DIGEST_JOB, 60 * 60_000);
  // Connections: how a task reaches the connection's system (Salesforce); file connectors: CSV.
  registerTaskWriteback();
}
