import { Readable } from "node:stream";
import ExcelJS from "exceljs";
import { describe, expect, test } from "vitest";
import { createFileConnector, fileFormatFor } from "./file.server";

const fromText = (text: string | Buffer) => async () => Readable.from([Buffer.isBuffer(text) ? text : Buffer.from(text, "utf8")]);

async function all(connector: ReturnType<typeof createFileConnector>, object: string, pageSize = 2) {
  const pages = [];
  for await (const page of connector.readRecords(object, { pageSize })) pages.push(page);
  return pages;
}

describe("file connector", () => {
  test("messy CSV: BOM, title row, semicolons, blank lines, ragged rows, repeated headers", async () => {
    const csv = "\uFEFFBook of Business Report\r\n\r\nClient;Name;Premium;Name\r\n1;\"Smith, Jane\";$1,200.50;x\r\n\r\n;;;\r\n2;Lee, Al;1200.5\r\n3;Ng, Bo;N/A;y;extra\r\n";
    const c = createFileConnector({ open: fromText(csv), format: "csv", fileName: "export.csv" });
    expect(await c.listObjects()).toEqual([{ name: "rows", label: "export.csv" }]);
    expect((await c.listAttributes("rows")).map((a) => a.name)).toEqual(["Client", "Name", "Premium", "Name (2)"]);
    const pages = await all(c, "rows");
    expect(pages.map((p) => p.length)).toEqual([2, 1]);
    expect(pages[0][0]).toEqual({ rowNumber: 4, values: { Client: "1", Name: "Smith, Jane", Premium: "$1,200.50", "Name (2)": "x" } });
    expect(pages[0][1].values).toEqual({ Client: "2", Name: "Lee, Al", Premium: "1200.5", "Name (2)": "" });
    expect(await c.listValues("rows", "Premium")).toEqual([
      { value: "$1,200.50", count: 1 },
      { value: "1200.5", count: 1 },
      { value: "N/A", count: 1 },
    ]);
    expect((await c.testCredentials()).ok).toBe(true);
  });

  test("a file without a header row fails the test with a clear message", async () => {
    const c = createFileConnector({ open: fromText("just one line\n"), format: "csv", fileName: "x.csv" });
    expect(await c.testCredentials()).toEqual({ ok: false, message: "We could not find a header row in the file." });
  });

  test("XLSX: sheets are objects; dates, numbers, formulas and rich text read as text", async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet("Notes").addRow(["nothing here"]);
    const sheet = workbook.addWorksheet("Policies");
    sheet.addRow(["Policy #", "Effective Date", "Premium", "Insured"]);
    sheet.addRow(["P-1", new Date(Date.UTC(2025, 2, 1)), 1234.5, { richText: [{ text: "Smith, " }, { text: "Jane" }] }]);
    sheet.addRow(["P-2", new Date(Date.UTC(2025, 3, 15)), { formula: "1000+1", result: 1001 }, "Lee, Al"]);
    const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
    const c = createFileConnector({ open: fromText(buffer), format: "xlsx", fileName: "book.xlsx" });
    expect((await c.listObjects()).map((o) => o.name)).toEqual(["Notes", "Policies"]);
    expect((await c.listAttributes("Policies")).map((a) => a.name)).toEqual(["Policy #", "Effective Date", "Premium", "Insured"]);
    const pages = await all(c, "Policies", 10);
    expect(pages[0]).toEqual([
      { rowNumber: 2, values: { "Policy #": "P-1", "Effective Date": "2025-03-01", Premium: "1234.5", Insured: "Smith, Jane" } },
      { rowNumber: 3, values: { "Policy #": "P-2", "Effective Date": "2025-04-15", Premium: "1001", Insured: "Lee, Al" } },
    ]);
  });

  test("formats by extension", () => {
    expect(fileFormatFor("Book.XLSX")).toBe("xlsx");
    expect(fileFormatFor("a.csv")).toBe("csv");
    expect(fileFormatFor("a.xls")).toBeNull();
    expect(fileFormatFor("a.pdf")).toBeNull();
  });
});
