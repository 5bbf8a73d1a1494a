import { eq } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { fileReports, files, notifications } from "~/db/schema";
import { createDemoTenant } from "../platform/demo-data.server";
import { countUnread } from "../platform/notifications.server";
import { getStorage } from "./storage.server";

// Opening the database costs seconds (PGlite): do it once, before the first test’s clock starts.
beforeAll(() => getDb());

test("the demo agency gets processed files with reports, a failed one, and notifications", async () => {
  const db = await getDb();
  const user = await createDemoTenant(db);
  const rows = await db.select().from(files).where(eq(files.tenantId, user.tenantId));
  expect(rows.map((r) => r.status).sort()).toEqual(["Failed", "Ready", "Ready"]);
  const reports = await db.select().from(fileReports).where(eq(fileReports.tenantId, user.tenantId));
  expect(reports).toHaveLength(2);
  const renewals = reports.find((r) => r.report.fileName === "Renewals Q1 2026.csv")!;
  expect(renewals.report.sheets[0]).toMatchObject({ rows: 61, columns: 8, duplicateRows: 1 });
  for (const row of rows) expect(await getStorage().size(row.storageKey)).toBe(row.size);
  // Other capabilities' demo data raises notifications too: count the files' own.
  const fileNotes = await db.select().from(notifications).where(eq(notifications.tenantId, user.tenantId));
  expect(fileNotes.filter((n) => n.kind.startsWith("file.") && !n.readAt)).toHaveLength(2);
  expect(await countUnread(db, { tenantId: user.tenantId, userId: user.id })).toBeGreaterThanOrEqual(2);
});
