import { Readable } from "node:stream";
import { describe, expect, test } from "vitest";
import { makeXlsx } from "../../../../tests/support/zip";
import {
  K_BOOLEAN,
  K_CURRENCY,
  K_DATE,
  K_EMAIL,
  K_INTEGER,
  K_MISSING,
  K_NUMBER,
  K_PHONE,
  K_TEXT,
  classify,
  parsedDate,
  parsedNumber,
} from "./classify";
import { profileCsv, type TableOptions } from "./csv.server";
import { SheetProfiler, normalizeHeader } from "./profiler";
import { HyperLogLog } from "./sketches";

const options: Omit<TableOptions, "name"> = {
  delimiter: "auto",
  headerRow: 1,
  dateOrder: "auto",
  encoding: "auto",
  maxColumns: 2000,
  maxRowBytes: 8 * 1024 * 1024,
};

const csv = (text: string | Buffer) => () => Promise.resolve(Readable.from([typeof text === "string" ? Buffer.from(text) : text]));

describe("classify", () => {
  test.each([
    ["42", K_INTEGER, 42],
    ["-7", K_INTEGER, -7],
    ["1,234", K_INTEGER, 1234],
    ["3.5", K_NUMBER, 3.5],
    ["1,234.50", K_NUMBER, 1234.5],
    ["12%", K_NUMBER, 12],
    ["$1,234.50", K_CURRENCY, 1234.5],
    ["($20.00)", K_CURRENCY, -20],
    ["-$5", K_CURRENCY, -5],
  ])("%s is numeric", (text, kind, value) => {
    expect(classify(text)).toBe(kind);
    expect(parsedNumber).toBe(value);
  });

  test.each([
    ["2024-03-05", Date.UTC(2024, 2, 5)],
    ["03/05/2024", Date.UTC(2024, 2, 5)],
    ["25/12/2024", Date.UTC(2024, 11, 25)],
    ["Mar 5, 2024", Date.UTC(2024, 2, 5)],
    ["5-Mar-2024", Date.UTC(2024, 2, 5)],
    ["2024-03-05T10:30:00Z", Date.UTC(2024, 2, 5, 10, 30)],
  ])("%s is a date", (text, ms) => {
    expect(classify(text)).toBe(K_DATE);
    expect(parsedDate).toBe(ms);
  });

  test("day-first order reads 03/05 as 3 May", () => {
    expect(classify("03/05/2024", "dmy")).toBe(K_DATE);
    expect(parsedDate).toBe(Date.UTC(2024, 4, 3));
  });

  test.each([
    ["", K_MISSING],
    ["  ", K_MISSING],
    ["N/A", K_MISSING],
    ["null", K_MISSING],
    ["yes", K_BOOLEAN],
    ["FALSE", K_BOOLEAN],
    ["ann@example.com", K_EMAIL],
    ["(555) 123-4567", K_PHONE],
    ["555-123-4567", K_PHONE],
    ["+44 20 7946 0958", K_PHONE],
    ["02134", K_TEXT],
    ["2024-02-30", K_TEXT],
    ["Smith, John", K_TEXT],
  ])("%j → kind %i", (text, kind) => {
    expect(classify(text)).toBe(kind);
  });
});

describe("profile statistics (known answers)", () => {
  test("a small messy CSV", async () => {
    const text =
      "\uFEFFid,premium,state,email,start,active,notes\n" +
      "1,$100.00,CA,a@example.com,2024-01-01,yes,\n" +
      "2,200,CA,b@example.com,2024-02-01,no,\n" +
      "3,$300.00,TX,c@example.com,2024-03-01,yes,N/A\n" +
      "4,400,NY,,2024-04-01,yes,\n" +
      "5,10000,CA,e@example.com,2024-12-31,yes,\n" +
      "5,10000,CA,e@example.com,2024-12-31,yes,\n";
    const { sheet, encoding, delimiter } = await profileCsv(csv(text), { ...options, name: "messy.csv" });
    expect(encoding).toBe("utf-8");
    expect(delimiter).toBe(",");
    expect(sheet.rows).toBe(6);
    expect(sheet.columns).toBe(7);
    expect(sheet.duplicateRows).toBe(1);
    const byName = Object.fromEntries(sheet.profiles.map((p) => [p.name, p]));
    expect(byName.id.type).toBe("integer");
    expect(byName.premium.type).toBe("currency");
    expect(byName.premium.numeric).toMatchObject({ min: 100, max: 10000, median: 350, q1: 225, q3: 7600, exact: true });
    expect(byName.premium.numeric!.mean).toBeCloseTo(3500, 6);
    // sample standard deviation of 100, 200, 300, 400, 10000, 10000
    expect(byName.premium.numeric!.stddev).toBeCloseTo(5035.871, 2);
    expect(byName.state).toMatchObject({ type: "text", distinct: 3, missing: 0 });
    expect(byName.state.top[0]).toEqual({ value: "CA", count: 4 });
    expect(byName.email).toMatchObject({ type: "email", missing: 1, missingPct: 16.67, distinct: 4 });
    expect(byName.start.type).toBe("date");
    expect(byName.start.dates).toEqual({ min: "2024-01-01", max: "2024-12-31" });
    expect(byName.active).toMatchObject({ type: "boolean", distinct: 2 });
    expect(byName.notes.count).toBe(0);
    expect(byName.notes.warnings).toContain("Empty: every value is missing");
  });

  test("warnings: constant, mixed types, outliers, likely identifier, mostly empty", async () => {
    const rows = ["code,kind,amount,mixed,sparse"];
    for (let i = 1; i <= 40; i++) {
      rows.push(`ID-${1000 + i},same,${i === 40 ? 5000 : 10 + i},${i % 2 ? "abc" : i},${i % 3 === 0 ? "x" : ""}`);
    }
    const { sheet } = await profileCsv(csv(rows.join("\n")), { ...options, name: "w.csv" });
    const byName = Object.fromEntries(sheet.profiles.map((p) => [p.name, p]));
    expect(byName.code.warnings).toContain("Likely identifier: almost every value is unique");
    expect(byName.kind.warnings).toContain("Constant: one value only");
    expect(byName.amount.warnings.some((w) => w.startsWith("Outliers: 1 "))).toBe(true);
    expect(byName.mixed.warnings.some((w) => w.startsWith("Mixed types"))).toBe(true);
    expect(byName.sparse.warnings.some((w) => w.startsWith("Mostly empty"))).toBe(true);
    expect(byName.amount.chart?.kind).toBe("histogram");
    expect(byName.kind.chart).toEqual({ kind: "bar", bins: [{ label: "same", count: 40 }] });
  });

  test("semicolons, Windows-1252 text and a header on row 3", async () => {
    const bytes = Buffer.concat([
      Buffer.from("Report export\nGenerated today\nName;Amount\n"),
      Buffer.from([0x43, 0x61, 0x66, 0xe9]), // "Café" in Windows-1252
      Buffer.from(";1,5\nBob;2\n"),
    ]);
    const { sheet, encoding, delimiter } = await profileCsv(csv(bytes), { ...options, headerRow: 3, name: "x.csv" });
    expect(encoding).toBe("windows-1252");
    expect(delimiter).toBe(";");
    expect(sheet.profiles.map((p) => p.name)).toEqual(["Name", "Amount"]);
    expect(sheet.profiles[0].top.map((t) => t.value)).toContain("Café");
    expect(sheet.rows).toBe(2);
  });

  test("UTF-16 LE with a byte order mark", async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("a,b\n1,2\n3,4\n", "utf16le")]);
    const { sheet, encoding } = await profileCsv(csv(bytes), { ...options, name: "u16.csv" });
    expect(encoding).toBe("utf-16le");
    expect(sheet.rows).toBe(2);
    expect(sheet.profiles[1].numeric?.mean).toBe(3);
  });

  test("header names: blanks and repeats", () => {
    expect(normalizeHeader(["Name", "", "Name", null, " Premium "])).toEqual(["Name", "Column 2", "Name (2)", "Column 4", "Premium"]);
  });

  test("distinct counts switch to an estimate past 10,000 values, within 5 %", () => {
    const profiler = new SheetProfiler("big", { maxColumns: 10 });
    profiler.setHeader(["n"]);
    for (let i = 0; i < 50_000; i++) profiler.addRow([`v${i}`]);
    const column = profiler.finish().profiles[0];
    expect(column.distinctExact).toBe(false);
    expect(Math.abs(column.distinct - 50_000) / 50_000).toBeLessThan(0.05);
  });

  test("HyperLogLog is close on small and large sets", () => {
    for (const n of [100, 20_000]) {
      const hll = new HyperLogLog();
      for (let i = 0; i < n; i++) hll.add(`key-${i}`);
      expect(Math.abs(hll.estimate() - n) / n).toBeLessThan(0.05);
    }
  });

  test("xlsx cells keep their types", async () => {
    const { profileXlsx } = await import("./xlsx.server");
    const { openZip } = await import("./zip.server");
    const fs = await import("node:fs/promises");
    const os = await import("node:os");
    const path = await import("node:path");
    const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), "xlsx-")), "t.xlsx");
    await fs.writeFile(
      file,
      makeXlsx([
        {
          name: "Policies",
          rows: [
            ["Policy", "Premium", "Effective", "Active"],
            ["P-1", 100, new Date(Date.UTC(2024, 0, 1)), true],
            ["P-2", 250.5, new Date(Date.UTC(2024, 5, 30)), false],
            ["P-3", null, new Date(Date.UTC(2024, 11, 31)), true],
          ],
        },
        { name: "Empty", rows: [["Only a header"]] },
      ]),
    );
    const zip = await openZip(file, 1e9);
    const sheets = await profileXlsx(zip, { ...options });
    zip.close();
    expect(sheets.map((s) => [s.name, s.rows])).toEqual([
      ["Policies", 3],
      ["Empty", 0],
    ]);
    const [policy, premium, effective, active] = sheets[0].profiles;
    expect(policy.type).toBe("text");
    expect(premium).toMatchObject({ type: "number", missing: 1 });
    expect(premium.numeric?.mean).toBeCloseTo(175.25, 6);
    expect(effective.dates).toEqual({ min: "2024-01-01", max: "2024-12-31" });
    expect(active.type).toBe("boolean");
  });
});
