import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { fileReports, files } from "~/db/schema";
import { getEnv } from "~/env.server";
import { UnreadableFileError, documentMetadata, profileStoredFile } from "./eda/index.server";
import { getDomainConfig } from "./file-config.server";
import { TABULAR_EXTENSIONS } from "./file-types.server";
import { transitionFile } from "./files.server";
import type { JobHelpers, JobRecord } from "../platform/jobs.server";
import { notify } from "../platform/notifications.server";
import { getStorage } from "./storage.server";

const PROGRESS_EVERY_MS = 1_000;

/**
 * The `file.process` job: Uploaded → Progress → Processed → Ready, or Failed with a reason.
 * Safe to run again after a crash: transitions are conditional, the report is upserted and
 * the notification is raised only by the one run that moves the file to Ready or Failed.
 * cross-tenant: the job worker runs any tenant's job; the file is found by the job's id and must belong to the job's tenant.
 */
export async function processFileJob(job: JobRecord, helpers: JobHelpers) {
  const { db } = helpers;
  const fileId = String(job.payload.fileId ?? "");
  const [file] = await db.select().from(files).where(eq(files.id, fileId));
  if (!file || (job.tenantId && file.tenantId !== job.tenantId)) return;
  if (file.status === "Ready" || file.status === "Failed") return;

  await transitionFile(db, file.id, "Progress", { from: ["Uploaded"] });
  const env = getEnv();
  const limits = { maxColumns: env.EDA_MAX_COLUMNS, maxRowBytes: env.EDA_MAX_ROW_BYTES, maxUncompressed: env.XLSX_MAX_UNCOMPRESSED_BYTES };
  let lastProgress = 0;
  const onProgress = (rows: number) => {
    const now = Date.now();
    if (now - lastProgress < PROGRESS_EVERY_MS) return;
    lastProgress = now;
    helpers.progress({ rows }).catch(() => {});
  };
  try {
    if (TABULAR_EXTENSIONS.includes(file.extension)) {
      const settings = await getDomainConfig(db, file.tenantId, file.domain);
      const report = await profileStoredFile(file, { storage: getStorage(), settings, limits, onProgress, signal: helpers.signal });
      await db.transaction(async (tx) => {
        await tx
          .insert(fileReports)
          .values({ fileId: file.id, tenantId: file.tenantId, report })
          .onConflictDoUpdate({ target: fileReports.fileId, set: { report, createdAt: new Date() } });
        const rows = report.sheets.reduce((n, s) => n + s.rows, 0);
        await transitionFile(tx, file.id, "Processed", {
          from: ["Progress"],
          message: `${rows.toLocaleString("en-US")} rows in ${report.sheets.length} sheet${report.sheets.length === 1 ? "" : "s"}`,
        });
      });
    } else {
      const metadata = await documentMetadata(file, { storage: getStorage(), limits });
      await db.transaction(async (tx) => {
        await tx.update(files).set({ metadata }).where(eq(files.id, file.id));
        await transitionFile(tx, file.id, "Processed", { from: ["Progress"] });
      });
    }
    await finish(db, file, "Ready");
  } catch (error) {
    if (error instanceof UnreadableFileError) return finish(db, file, "Failed", error.message);
    // Storage or database trouble: retried with back-off; the last attempt fails the file.
    if (job.attempts >= job.maxAttempts) {
      await finish(db, file, "Failed", `Processing failed after ${job.attempts} attempts: ${(error as Error).message}`);
      return;
    }
    throw error;
  }
}

async function finish(
  db: Db,
  file: { id: string; tenantId: string; uploadedBy: string | null; name: string },
  to: "Ready" | "Failed",
  reason?: string,
) {
  await db.transaction(async (tx) => {
    const moved = await transitionFile(tx, file.id, to, {
      from: to === "Ready" ? ["Processed"] : ["Uploaded", "Progress", "Processed"],
      message: reason,
    });
    if (!moved) return;
    await notify(tx, {
      tenantId: file.tenantId,
      userId: file.uploadedBy,
      kind: to === "Ready" ? "file.ready" : "file.failed",
      title: to === "Ready" ? "File ready" : "File failed",
      message: to === "Ready" ? `${file.name} is processed and ready.` : `${file.name} could not be processed: ${reason}`,
      fileName: file.name,
      link: `/files/${file.id}`,
    });
  });
}
