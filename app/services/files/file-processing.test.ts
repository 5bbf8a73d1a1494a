import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { Readable } from "node:stream";
import { createDeflateRaw, crc32 } from "node:zlib";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { notifications } from "~/db/schema";
import { createTestTenant } from "../../../tests/support/factories";
import { makeXlsx, makeZip } from "../../../tests/support/zip";
import type { TenantContext } from "../platform/context.server";
import { processFileJob } from "./file-processing.server";
import { extensionOf } from "./file-types.server";
import { FILE_JOB, createUploadedFile, getFileDetail, getFileReport, newStorageKey } from "./files.server";
import { getStorage } from "./storage.server";

// Opening the database costs seconds (PGlite): do it once, before the first test’s clock starts.
beforeAll(() => getDb());

async function upload(ctx: TenantContext, name: string, body: Buffer | AsyncIterable<Buffer>) {
  const extension = extensionOf(name)!;
  const storageKey = newStorageKey(ctx.tenantId, extension);
  const { bytes } = await getStorage().write(storageKey, Buffer.isBuffer(body) ? Readable.from([body]) : Readable.from(body));
  return createUploadedFile(ctx, { name, extension, size: bytes, domain: "policies", storageKey });
}

async function run(ctx: TenantContext, fileId: string, attempts = 1) {
  await processFileJob(
    { id: "00000000-0000-0000-0000-000000000000", tenantId: ctx.tenantId, type: FILE_JOB, payload: { fileId }, attempts, maxAttempts: 3 },
    { db: ctx.db, progress: async () => {}, signal: new AbortController().signal },
  );
  return getFileDetail(ctx, fileId);
}

async function processBytes(name: string, body: Buffer | AsyncIterable<Buffer>) {
  const { ctx } = await createTestTenant();
  const { id } = await upload(ctx, name, body);
  return { ctx, id, detail: await run(ctx, id) };
}

async function* repeat(chunk: Buffer, times: number, head = Buffer.alloc(0), tail = Buffer.alloc(0)) {
  yield head;
  for (let i = 0; i < times; i++) yield chunk;
  yield tail;
}

describe("processing a good file", () => {
  test("CSV: Uploaded → Progress → Processed → Ready, a report and one notification", async () => {
    const { ctx, id, detail } = await processBytes("book.csv", Buffer.from("Name,Premium\nAnn,100\nBob,200\n"));
    expect(detail.file.status).toBe("Ready");
    expect(detail.history.map((h) => h.status)).toEqual(["Uploaded", "Progress", "Processed", "Ready"]);
    const { report } = await getFileReport(ctx, id);
    expect(report.sheets[0]).toMatchObject({ rows: 2, columns: 2 });
    // Running the job again (a retry after a crash) changes nothing and notifies nobody twice.
    await run(ctx, id, 2);
    const rows = await ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.tenantId, ctx.tenantId), eq(notifications.fileName, "book.csv")));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "file.ready", userId: ctx.userId, link: `/files/${id}` });
    expect((await getFileDetail(ctx, id)).history).toHaveLength(4);
  });

  test("XLS (Excel 97–2003): every sheet is profiled", async () => {
    const { ctx, id, detail } = await processBytes("policies.xls", readFileSync("tests/fixtures/files/policies.xls"));
    expect(detail.file.status).toBe("Ready");
    const { report } = await getFileReport(ctx, id);
    expect(report.sheets.map((s) => [s.name, s.rows, s.columns])).toEqual([
      ["Policies", 4, 5],
      ["Carriers", 2, 2],
    ]);
    const byName = Object.fromEntries(report.sheets[0].profiles.map((p) => [p.name, p]));
    expect(byName["Policy #"].type).toBe("integer");
    expect(byName.Premium.numeric?.max).toBe(1500.25);
    expect(byName.Effective.dates).toEqual({ min: "2024-01-15", max: "2024-04-30" });
    expect(byName.Active.type).toBe("boolean");
  });

  test("XLSX with two sheets", async () => {
    const xlsx = makeXlsx([
      {
        name: "A",
        rows: [
          ["x", "y"],
          [1, "a"],
          [2, "b"],
        ],
      },
      { name: "B", rows: [["z"], ["q"]] },
    ]);
    const { ctx, id, detail } = await processBytes("two.xlsx", xlsx);
    expect(detail.file.status).toBe("Ready");
    const { report } = await getFileReport(ctx, id);
    expect(report.sheets.map((s) => s.rows)).toEqual([2, 1]);
  });

  test("PDF: pages counted, no report", async () => {
    const pdf = Buffer.from(
      "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >> endobj\n" +
        "3 0 obj << /Type /Page /Parent 2 0 R >> endobj\n4 0 obj << /Type/Page /Parent 2 0 R >> endobj\n5 0 obj << /Title (Renewal letter) >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
    );
    const { detail } = await processBytes("letter.pdf", pdf);
    expect(detail.file.status).toBe("Ready");
    expect(detail.file.metadata).toMatchObject({ pages: 2, version: "1.4", title: "Renewal letter" });
    expect(detail.hasReport).toBe(false);
  });

  test("DOCX: pages and words from docProps", async () => {
    const docx = makeZip([
      { name: "[Content_Types].xml", data: "<Types/>" },
      { name: "word/document.xml", data: "<w:document/>" },
      { name: "docProps/app.xml", data: "<Properties><Pages>3</Pages><Words>812</Words></Properties>" },
      {
        name: "docProps/core.xml",
        data: '<cp:coreProperties xmlns:dc="x"><dc:title>Coverage summary</dc:title><dc:creator>Dana</dc:creator></cp:coreProperties>',
      },
    ]);
    const { detail } = await processBytes("summary.docx", docx);
    expect(detail.file.status).toBe("Ready");
    expect(detail.file.metadata).toMatchObject({ pages: 3, words: 812, title: "Coverage summary", author: "Dana" });
  });
});

describe("hostile files end Failed with a reason", () => {
  async function expectFailed(name: string, body: Buffer | AsyncIterable<Buffer>, reason: RegExp) {
    const { ctx, detail } = await processBytes(name, body);
    expect(detail.file.status).toBe("Failed");
    expect(detail.file.failureReason).toMatch(reason);
    expect(detail.history.at(-1)).toMatchObject({ status: "Failed" });
    const [note] = await ctx.db.select().from(notifications).where(eq(notifications.tenantId, ctx.tenantId));
    expect(note).toMatchObject({ kind: "file.failed", fileName: name });
    return detail;
  }

  test("ragged rows", () =>
    expectFailed("ragged.csv", Buffer.from("a,b,c\n1,2,3\n4,5\n"), /^Ragged rows: data row 2 has 2 fields where 3 were expected/));

  test("a stray quote inside a value", () =>
    expectFailed("quotes3.csv", Buffer.from('a,b\nx"y,2\n'), /^Bad quoting: a quote opens in the middle of a value/));

  test("bad quoting", () => expectFailed("quotes.csv", Buffer.from('a,b\n"1,2\n3,4\n'), /^Bad quoting: a quoted value is never closed/));

  test("text after a closing quote", () =>
    expectFailed("quotes2.csv", Buffer.from('a,b\n"x"y,2\n'), /^Bad quoting: text follows a closing quote \(line 2\)/));

  test("a UTF-32 byte order mark", () =>
    expectFailed(
      "utf32.csv",
      Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), Buffer.from("a\0\0\0")]),
      /^Unsupported encoding: the file starts with a UTF-32 LE byte order mark/,
    ));

  test("a UTF-7 byte order mark", () => expectFailed("utf7.csv", Buffer.from("+/v8-a,b\n1,2\n"), /UTF-7 byte order mark/));

  test("binary control characters (unknown encoding)", () =>
    expectFailed("binary.csv", Buffer.from(Array.from({ length: 2000 }, (_, i) => (i % 7) + 1)), /^Unknown encoding/));

  test("a single 50 MB cell", () =>
    expectFailed(
      "huge-cell.csv",
      repeat(Buffer.alloc(1024 * 1024, "x"), 50, Buffer.from("a,b\n1,")),
      /^A row is too large: more than 8 MB/,
    ));

  test("a spreadsheet with a million empty columns (CSV)", () =>
    expectFailed(
      "wide.csv",
      repeat(Buffer.alloc(100_000, ","), 10, Buffer.from("a"), Buffer.from("\n1\n")),
      /^Too many columns: 1,000,001 \(the limit is 2,000\)/,
    ));

  test("a spreadsheet with a million empty columns (XLSX)", async () => {
    const sheet = `<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c>${"<c/>".repeat(1_000_000)}</row></sheetData></worksheet>`;
    await expectFailed(
      "wide.xlsx",
      makeXlsx([{ name: "Wide", rows: [] }], { sheetXml: { 0: sheet } }),
      /^Too many columns: the sheet Wide has cells past column 16,384/,
    );
  });

  test("a 50 MB cell inside an XLSX", async () => {
    // Random text, so the entry compresses like real data rather than like a bomb.
    const cell = randomBytes(Math.ceil((50 * 1024 * 1024 * 3) / 4)).toString("base64");
    const sheet = `<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>${cell}</t></is></c></row></sheetData></worksheet>`;
    await expectFailed("huge-cell.xlsx", makeXlsx([{ name: "S", rows: [] }], { sheetXml: { 0: sheet } }), /^A cell is too large/);
  });

  test("a zip bomb disguised as .xlsx (600 MB of zeros in 600 KB)", async () => {
    const bomb = await deflatedZeros(600);
    const zip = makeZip([
      { name: "[Content_Types].xml", data: "<Types/>" },
      { name: "xl/workbook.xml", data: '<workbook><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>' },
      { name: "xl/worksheets/sheet1.xml", data: "", raw: bomb },
    ]);
    expect(zip.length).toBeLessThan(2 * 1024 * 1024);
    await expectFailed(
      "bomb.xlsx",
      zip,
      /^Zip bomb suspected: xl\/worksheets\/sheet1.xml would decompress to 600 MB \(the cap is 512 MB\)/,
    );
  });

  test("a zip bomb that lies about its size", async () => {
    const bomb = await deflatedZeros(64);
    const zip = makeZip([
      { name: "[Content_Types].xml", data: "<Types/>" },
      { name: "xl/workbook.xml", data: '<workbook><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>' },
      { name: "xl/worksheets/sheet1.xml", data: "", raw: { ...bomb, size: 1000 } },
    ]);
    await expectFailed("liar.xlsx", zip, /^Zip bomb suspected/);
  });

  test("not a zip at all behind .xlsx", () =>
    expectFailed("fake.xlsx", Buffer.from("PK\u0003\u0004 broken"), /^Not a readable Office file/));
});

/** `mb` megabytes of zeros, deflated in pieces (never held inflated). */
async function deflatedZeros(mb: number) {
  const deflate = createDeflateRaw({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => deflate.on("end", resolve));
  const zeros = Buffer.alloc(1024 * 1024);
  let crc = 0;
  for (let i = 0; i < mb; i++) {
    crc = crc32(zeros, crc);
    if (!deflate.write(zeros)) await new Promise((r) => deflate.once("drain", r));
  }
  deflate.end();
  await done;
  return { deflated: Buffer.concat(chunks), size: mb * 1024 * 1024, crc };
}
