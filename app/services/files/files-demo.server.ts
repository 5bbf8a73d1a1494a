import { Readable } from "node:stream";
import { and, eq } from "drizzle-orm";
import { fileEvents, fileReports, files, notifications, type FileStatus } from "~/db/schema";
import { getEnv } from "~/env.server";
import { registerDemoSeeder, type DemoSeedContext } from "../platform/demo.server";
import { profileCsv } from "./eda/csv.server";
import type { EdaReport } from "./eda/types";
import { CONTENT_TYPES } from "./file-types.server";
import { newStorageKey } from "./files.server";
import { notify } from "../platform/notifications.server";
import { getStorage } from "./storage.server";

const CARRIERS = ["Travelers", "Safeco", "Progressive", "Hartford", "Nationwide"];
const LINES = ["PAUTO", "HOME", "DFIRE", "UMBRP", "BOP"];
const NAMES = ["Avery Brooks", "Jordan Lee", "Morgan Diaz", "Casey Patel", "Riley Chen", "Taylor Nguyen", "Quinn Walker", "Jamie Ortiz"];

/** A messy-but-real-looking renewal export: currency and plain amounts, blanks, N/A, a duplicate row. */
function renewalsCsv() {
  const rows = ["Policy #,Customer,Line of Business,Carrier,Exp Date,Written Premium,Prior Premium,Email"];
  for (let i = 0; i < 60; i++) {
    const prior = 600 + ((i * 137) % 2400);
    const premium =
      i % 11 === 0
        ? "N/A"
        : i % 2
          ? `"$${(prior * (1 + ((i % 7) - 2) / 20)).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}"`
          : (prior * 1.08).toFixed(2);
    const month = String(1 + (i % 12)).padStart(2, "0");
    const day = String(1 + (i % 27)).padStart(2, "0");
    rows.push(
      `HP-${20400 + i},"${NAMES[i % NAMES.length]}",${LINES[i % LINES.length]},${CARRIERS[i % CARRIERS.length]},${month}/${day}/2026,${premium},${prior},${i % 9 === 0 ? "" : `client${i}@example.com`}`,
    );
  }
  rows.push(rows[5]);
  return rows.join("\r\n") + "\r\n";
}

function customersCsv() {
  const rows = ["Client Number;Name;State;Phone;Customer Since;Active"];
  for (let i = 0; i < 40; i++) {
    rows.push(
      `C${1000 + i};${NAMES[i % NAMES.length]} ${i};${["CA", "OR", "WA", "NV"][i % 4]};(555) ${String(200 + i)}-${String(1000 + i * 7)};20${String(10 + (i % 14)).padStart(2, "0")}-0${1 + (i % 9)}-15;${i % 6 ? "Yes" : "No"}`,
    );
  }
  return "\uFEFF" + rows.join("\n") + "\n";
}

async function addFile(
  ctx: DemoSeedContext,
  input: {
    name: string;
    domain: "policies" | "customers" | "carriers";
    content: string;
    status: FileStatus;
    reason?: string;
    report?: EdaReport;
    minutesAgo: number;
    read: boolean;
  },
) {
  const key = newStorageKey(ctx.tenantId, "csv");
  const bytes = Buffer.from(input.content, "utf8");
  await getStorage().write(key, Readable.from([bytes]));
  const at = (offset: number) => new Date(ctx.now.getTime() - (input.minutesAgo - offset) * 60_000);
  const [row] = await ctx.db
    .insert(files)
    .values({
      tenantId: ctx.tenantId,
      uploadedBy: ctx.userId,
      name: input.name,
      extension: "csv",
      contentType: CONTENT_TYPES.csv,
      size: bytes.length,
      domain: input.domain,
      storageKey: key,
      status: input.status,
      failureReason: input.reason ?? null,
      createdAt: at(0),
      updatedAt: at(1),
    })
    .returning({ id: files.id });
  const steps: FileStatus[] =
    input.status === "Ready" ? ["Uploaded", "Progress", "Processed", "Ready"] : ["Uploaded", "Progress", "Failed"];
  await ctx.db.insert(fileEvents).values(
    steps.map((status, i) => ({
      tenantId: ctx.tenantId,
      fileId: row.id,
      status,
      message: status === "Failed" ? input.reason : null,
      createdAt: at(i * 0.2),
    })),
  );
  if (input.report)
    await ctx.db.insert(fileReports).values({ fileId: row.id, tenantId: ctx.tenantId, report: input.report, createdAt: at(1) });
  const id = await notify(
    ctx.db,
    {
      tenantId: ctx.tenantId,
      userId: ctx.userId,
      kind: input.status === "Ready" ? "file.ready" : "file.failed",
      title: input.status === "Ready" ? "File ready" : "File failed",
      message: input.status === "Ready" ? `${input.name} is processed and ready.` : `${input.name} could not be processed: ${input.reason}`,
      fileName: input.name,
      link: `/files/${row.id}`,
    },
    at(1),
  );
  if (input.read)
    await ctx.db
      .update(notifications)
      .set({ readAt: at(2) })
      .where(and(eq(notifications.tenantId, ctx.tenantId), eq(notifications.id, id)));
}

async function reportFor(name: string, content: string, delimiter = "auto"): Promise<EdaReport> {
  const env = getEnv();
  const started = Date.now();
  const result = await profileCsv(async () => Readable.from([Buffer.from(content, "utf8")]), {
    name,
    delimiter,
    headerRow: 1,
    dateOrder: "auto",
    encoding: "auto",
    maxColumns: env.EDA_MAX_COLUMNS,
    maxRowBytes: env.EDA_MAX_ROW_BYTES,
  });
  return {
    version: 1,
    fileName: name,
    format: "csv",
    generatedAt: new Date().toISOString(),
    durationMs: Date.now() - started,
    encoding: result.encoding,
    delimiter: result.delimiter,
    sheets: [result.sheet],
    warnings: result.notes,
  };
}

// "Try the demo": two processed exports with reports, one failed upload, and their notifications.
registerDemoSeeder("files", async (ctx) => {
  const renewals = renewalsCsv();
  const customers = customersCsv();
  await addFile(ctx, {
    name: "Customer export (AMS).csv",
    domain: "customers",
    content: customers,
    status: "Ready",
    report: await reportFor("Customer export (AMS).csv", customers),
    minutesAgo: 26 * 60,
    read: true,
  });
  await addFile(ctx, {
    name: "Renewals Q1 2026.csv",
    domain: "policies",
    content: renewals,
    status: "Ready",
    report: await reportFor("Renewals Q1 2026.csv", renewals),
    minutesAgo: 90,
    read: false,
  });
  await addFile(ctx, {
    name: "carriers-appointments.csv",
    domain: "carriers",
    content: "Carrier,Agency Code,States\nTravelers,TRV-221,CA\nSafeco,SAF-19\n",
    status: "Failed",
    reason: "Ragged rows: data row 2 has 2 fields where 3 were expected",
    minutesAgo: 30,
    read: false,
  });
});
