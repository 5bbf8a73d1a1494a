import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { connections, connectionTaskOptions, importRuns, notifications } from "~/db/schema";
import { registerDemoSeeder } from "../platform/demo.server";
import { notify } from "../platform/notifications.server";
import { storeSampleExport } from "./connection-fixtures.server";
import { getPreset, applyPreset } from "./mapping/presets";
import { SAMPLE_HEADERS } from "./sample-export.server";
import { suggestValueMaps } from "./mapping/values";

// The demo agency's connections: a completed EZLynx CSV connection that imported last night,
// and an Applied Epic connection stopped at the mapping step. Customers and policies of the
// demo come from the renewals capability's seeder, not from here.

registerDemoSeeder(
  "connections",
  async ({ db, tenantId, now }) => {
    const ezlynxFile = await storeSampleExport(tenantId, { policies: 240, seed: 42 }, "ezlynx-book-of-business.csv");
    const epicFile = await storeSampleExport(tenantId, { policies: 80, seed: 43 }, "epic-book-of-business.csv");
    const lastSync = new Date(now.getTime() - 9 * 3_600_000);
    const ezlynxId = randomUUID();
    const fields = applyPreset(getPreset("ezlynx")!, SAMPLE_HEADERS);
    await db.insert(connections).values([
      {
        id: ezlynxId,
        tenantId,
        integrationId: "ezlynx",
        name: "EZLynx book of business",
        status: "connected",
        step: "COMPLETED",
        fileKey: ezlynxFile.key,
        fileName: ezlynxFile.name,
        fileBytes: ezlynxFile.bytes,
        mapping: {
          object: "rows",
          fields,
          valueMaps: suggestValueMaps(
            ["AUTOP", "HOME", "DFIRE", "PUMBR", "BOAT", "Renters", "BOP", "CGL", "WCOMP", "AUTOB"],
            ["Active", "Renewed", "Cancelled", "Expired"],
          ),
          preset: "ezlynx",
        },
        filters: { excluded: { linesOfBusiness: [], states: [], carriers: [], statuses: ["cancelled"] } },
        lastSyncAt: lastSync,
        lastDurationMs: 4_200,
        recordsImported: 237,
        createdAt: new Date(now.getTime() - 14 * 86_400_000),
        updatedAt: lastSync,
      },
      {
        tenantId,
        integrationId: "appliedepic",
        name: "Applied Epic (commercial lines)",
        status: "not_connected",
        step: "CONNECTION_MAPPING",
        fileKey: epicFile.key,
        fileName: epicFile.name,
        fileBytes: epicFile.bytes,
        createdAt: new Date(now.getTime() - 86_400_000),
        updatedAt: new Date(now.getTime() - 86_400_000),
      },
    ]);
    await db.insert(importRuns).values({
      tenantId,
      connectionId: ezlynxId,
      status: "succeeded",
      rowsTotal: 240,
      rowsRead: 240,
      rowsImported: 237,
      rowsRejected: 3,
      checkpoint: 240,
      durationMs: 4_200,
      startedAt: new Date(lastSync.getTime() - 4_200),
      finishedAt: lastSync,
      createdAt: new Date(lastSync.getTime() - 5_000),
    });
    await db.insert(connectionTaskOptions).values(
      [
        { kind: "activity_code" as const, code: "RMKT", label: "Re-market renewal" },
        { kind: "work_group" as const, code: "PL", label: "Personal lines" },
      ].map((o) => ({ ...o, tenantId, connectionId: ezlynxId })),
    );
    const noteId = await notify(
      db,
      {
        tenantId,
        kind: "import.finished",
        title: "Import finished: 96 customers, 237 policies, 3 rejected in 4 s",
        message: "EZLynx book of business: 240 rows read, 237 imported.",
        link: `/connect-database/${ezlynxId}`,
      },
      lastSync,
    );
    // Last night's import was seen already: the demo's unread items are the files capability's.
    await db
      .update(notifications)
      .set({ readAt: new Date(lastSync.getTime() + 3_600_000) })
      .where(and(eq(notifications.id, noteId), eq(notifications.tenantId, tenantId)));
  },
  50,
);
