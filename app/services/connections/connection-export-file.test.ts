import { and, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { connections, fileReports, files, jobs } from "~/db/schema";
import * as createRoute from "~/routes/_app.create-connection.($connectionId)";
import { createTestTenant, sessionCookieFor } from "../../../tests/support/factories";
import { storeSampleExport } from "./connection-fixtures.server";
import { saveConnectionSettings } from "./connections.server";
import { processFileJob } from "../files/file-processing.server";
import { FILE_JOB, listFiles } from "../files/files.server";

// The export uploaded in wizard step 1 is a file of the files capability (on /files, with its EDA report).

const tenantFiles = (db: Awaited<ReturnType<typeof createTestTenant>>["db"], tenantId: string) =>
  db.select().from(files).where(eq(files.tenantId, tenantId));

describe("the step-1 export in the files capability", () => {
  test("saving the connection records the export as a file, queues its EDA, and the connection points at it", async () => {
    const { ctx, db, tenant } = await createTestTenant();
    const file = await storeSampleExport(tenant.id, { policies: 40 }, "Book of business.csv");
    const saved = await saveConnectionSettings(ctx, null, { integrationId: "ezlynx", name: "EZLynx", credentials: {}, file });
    const rows = await tenantFiles(db, tenant.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      name: "Book of business.csv",
      extension: "csv",
      domain: "policies",
      storageKey: file.key,
      size: file.bytes,
      status: "Uploaded",
      uploadedBy: ctx.userId,
    });
    expect(saved.fileId).toBe(rows[0].id);
    const listed = await listFiles(ctx, { view: "all", sort: "newest", page: 1 });
    expect(JSON.stringify(listed)).toContain(rows[0].id);

    // Its EDA report, as for any upload.
    const [job] = await db
      .select()
      .from(jobs)
      .where(and(eq(jobs.tenantId, tenant.id), eq(jobs.type, FILE_JOB)));
    expect(job.payload).toMatchObject({ fileId: rows[0].id });
    expect(rows[0].jobId).toBe(job.id);
    await processFileJob(
      { id: job.id, tenantId: tenant.id, type: job.type, payload: job.payload, attempts: 1, maxAttempts: job.maxAttempts },
      { db, progress: async () => {}, signal: new AbortController().signal },
    );
    const [processed] = await tenantFiles(db, tenant.id);
    expect(processed.status).toBe("Ready");
    const reports = await db.select({ fileId: fileReports.fileId }).from(fileReports).where(eq(fileReports.fileId, processed.id));
    expect(reports).toHaveLength(1);

    // Saving again without a new file adds nothing; a new export is a new file.
    await saveConnectionSettings(ctx, saved.id, { integrationId: "ezlynx", name: "EZLynx renamed", credentials: {} });
    expect(await tenantFiles(db, tenant.id)).toHaveLength(1);
    const next = await storeSampleExport(tenant.id, { policies: 20 }, "June export.csv");
    const resaved = await saveConnectionSettings(ctx, saved.id, { integrationId: "ezlynx", name: "EZLynx", credentials: {}, file: next });
    const after = await tenantFiles(db, tenant.id);
    expect(after.map((f) => f.name).sort()).toEqual(["Book of business.csv", "June export.csv"]);
    expect(resaved.fileId).toBe(after.find((f) => f.name === "June export.csv")!.id);
  });

  test("all or nothing: a save that fails in the database leaves neither a connection nor a file row", async () => {
    const { ctx, db, tenant } = await createTestTenant();
    const file = await storeSampleExport(tenant.id, { policies: 10 });
    // An out-of-range interval fails the connection insert, after the file row was written.
    await expect(
      saveConnectionSettings(ctx, null, { integrationId: "csv", name: "Broken", credentials: {}, file, syncIntervalHours: 1e12 }),
    ).rejects.toThrow();
    expect(await tenantFiles(db, tenant.id)).toHaveLength(0);
    expect(await db.select().from(connections).where(eq(connections.tenantId, tenant.id))).toHaveLength(0);
    expect(
      await db
        .select()
        .from(jobs)
        .where(and(eq(jobs.tenantId, tenant.id), eq(jobs.type, FILE_JOB))),
    ).toHaveLength(0);
  });

  test("all or nothing through the form: an upload with an invalid field answers 400 and records no file", async () => {
    const { db, tenant, user } = await createTestTenant();
    const form = new FormData();
    form.set("intent", "save");
    form.set("name", "");
    form.set("file", new File(["Client Number,Applicant Name\n1,Lee\n"], "export.csv", { type: "text/csv" }));
    const request = new Request("http://localhost/create-connection/?integrationId=csv", {
      method: "POST",
      headers: { Cookie: await sessionCookieFor(user) },
      body: form,
    });
    const result = (await createRoute.action({ request, params: {}, context: {} })) as { init?: { status?: number } };
    expect(result.init?.status).toBe(400);
    expect(await tenantFiles(db, tenant.id)).toHaveLength(0);
  });
});
