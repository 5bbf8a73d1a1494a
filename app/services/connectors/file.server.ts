import type { Readable } from "node:stream";
import { readCsvBatches, type CsvRecord } from "./csv-reader.server";
import type { SourceRow } from "~/services/mapping/transform";
import { ConnectorError, type Connector, type SourceValue } from "./types";

// The file connector: an uploaded export (CSV or XLSX) read as a stream, page by page, so a
// 100 000-row export never sits in memory. Handles a UTF-8 BOM, ; or tab delimiters, title rows
// above the header, blank lines, ragged rows, blank or repeated headers.

export type FileFormat = "csv" | "xlsx";

export function fileFormatFor(fileName: string): FileFormat | null {
  const ext = fileName.toLowerCase().split(".").pop();
  if (ext === "csv" || ext === "txt" || ext === "tsv") return "csv";
  if (ext === "xlsx") return "xlsx";
  return null;
}

type RawRow = CsvRecord;

export function createFileConnector(input: { open: () => Promise<Readable>; format: FileFormat; fileName: string }): Connector {
  const { open, format, fileName } = input;
  const csvObject = "rows";

  // Rows travel in batches (a chunk of the file, or a run of sheet rows) and are turned into
  // records synchronously: no async step per row (memory: see docs/decisions/008-connections-import.md).
  async function* rawBatches(object: string): AsyncIterable<RawRow[]> {
    if (format === "csv") {
      if (object !== csvObject) throw new ConnectorError(`Unknown object ${object}`);
      yield* csvBatches(open, await sniffDelimiter(open));
    } else {
      yield* xlsxBatches(await open(), object);
    }
  }

  /** The header row, and the data rows of each batch (title rows above the header and blank rows left out). */
  async function* dataBatches(object: string): AsyncIterable<{ headers: string[]; rows: RawRow[] }> {
    let headers: string[] | null = null;
    for await (const batch of rawBatches(object)) {
      const rows: RawRow[] = [];
      for (const raw of batch) {
        let filled = 0;
        for (const cell of raw.cells) if (cell !== "" && cell.trim() !== "") filled++;
        if (!headers) {
          // Title rows ("Book of Business Report", a date) sit above the header in some exports.
          if (filled < 2) continue;
          headers = uniqueHeaders(raw.cells);
          continue;
        }
        if (filled > 0) rows.push(raw);
      }
      if (headers) yield { headers, rows };
    }
    if (!headers) yield { headers: [], rows: [] };
  }

  /** The data rows of each batch as records (values by header). */
  async function* recordBatches(object: string): AsyncIterable<SourceRow[]> {
    // Each record's values start as a copy of a template holding every header: the copies share
    // one hidden class (a few hundred bytes), where growing an empty object property by property
    // turns it into a dictionary several times that size.
    let template: Record<string, string> | null = null;
    for await (const { headers, rows } of dataBatches(object)) {
      template ??= Object.fromEntries(headers.map((h) => [h, ""]));
      yield rows.map((raw) => {
        const values = { ...template };
        const n = Math.min(headers.length, raw.cells.length);
        for (let i = 0; i < n; i++) values[headers[i]] = raw.cells[i];
        return { rowNumber: raw.line, values };
      });
    }
  }

  async function headersOf(object: string) {
    for await (const item of dataBatches(object)) return item.headers;
    return [];
  }

  return {
    async listObjects() {
      if (format === "csv") return [{ name: csvObject, label: fileName }];
      return (await xlsxSheetNames(await open())).map((name) => ({ name, label: `${fileName} — ${name}` }));
    },

    async listAttributes(object) {
      return (await headersOf(object)).map((h) => ({ name: h, label: h }));
    },

    async listValues(object, attribute, limit = 200) {
      // One column only: the cell at the attribute's index, no record per row.
      const counts = new Map<string, number>();
      let column = -1;
      for await (const { headers, rows } of dataBatches(object)) {
        if (column < 0) column = headers.indexOf(attribute);
        if (column < 0) break;
        for (const raw of rows) {
          const value = (raw.cells[column] ?? "").trim();
          if (counts.has(value) || counts.size < 10_000) counts.set(value, (counts.get(value) ?? 0) + 1);
        }
      }
      return topValues(counts, limit);
    },

    async *readRecords(object, options = {}) {
      const pageSize = options.pageSize ?? 1000;
      let page: SourceRow[] = [];
      for await (const rows of recordBatches(object)) {
        if (options.signal?.aborted) throw new ConnectorError("Import stopped");
        for (const row of rows) {
          page.push(row);
          if (page.length >= pageSize) {
            yield page;
            page = [];
          }
        }
      }
      if (page.length > 0) yield page;
    },

    async testCredentials() {
      try {
        const objects = await this.listObjects();
        if (objects.length === 0) return { ok: false, message: "The workbook has no sheets." };
        const headers = await headersOf(objects[0].name);
        if (headers.length < 2) return { ok: false, message: "We could not find a header row in the file." };
        let rows = 0;
        for await (const page of this.readRecords(objects[0].name, { pageSize: 500 })) {
          rows += page.length;
          if (rows >= 500) break;
        }
        if (rows === 0) return { ok: false, message: "The file has a header row but no data rows." };
        return { ok: true, message: `The file can be read: ${headers.length} columns, ${rows >= 500 ? "500+" : rows} rows checked.` };
      } catch (error) {
        return { ok: false, message: `The file could not be read: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}

export function topValues(counts: Map<string, number>, limit: number): SourceValue[] {
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([value, count]) => ({ value, count }));
}

function uniqueHeaders(cells: string[]) {
  const seen = new Map<string, number>();
  return cells.map((cell, i) => {
    const base = cell.replace(/^\uFEFF/, "").trim().replace(/\s+/g, " ") || `Column ${i + 1}`;
    const n = (seen.get(base.toLowerCase()) ?? 0) + 1;
    seen.set(base.toLowerCase(), n);
    return n === 1 ? base : `${base} (${n})`;
  });
}

async function sniffDelimiter(open: () => Promise<Readable>) {
  const stream = await open();
  let head = "";
  for await (const chunk of stream) {
    head += chunk.toString("utf8");
    if (head.length > 16_384) break;
  }
  stream.destroy();
  const firstLines = head.split(/\r?\n/).filter((l) => l.trim()).slice(0, 5).join("\n");
  const candidates = [",", ";", "\t", "|"];
  const counts = candidates.map((d) => firstLines.split(d).length - 1);
  const best = counts.indexOf(Math.max(...counts));
  return counts[best] > 0 ? candidates[best] : ",";
}

async function* csvBatches(open: () => Promise<Readable>, delimiter: string): AsyncIterable<RawRow[]> {
  yield* readCsvBatches(await open(), delimiter);
}

type Reader = AsyncIterable<WorksheetLike>;
type WorksheetLike = AsyncIterable<{ number: number; values: unknown }> & { name?: string; id?: number };

async function workbookReader(stream: Readable) {
  // Loaded on demand: ExcelJS is large and CSV imports never need it.
  const { default: ExcelJS } = await import("exceljs");
  return new ExcelJS.stream.xlsx.WorkbookReader(stream, {
    entries: "emit",
    sharedStrings: "cache",
    styles: "cache",
    hyperlinks: "ignore",
    worksheets: "emit",
  }) as unknown as Reader;
}

async function xlsxSheetNames(stream: Readable) {
  const names: string[] = [];
  for await (const sheet of await workbookReader(stream)) {
    names.push(sheetName(sheet, names.length));
    // Drain the sheet so the reader can move on to the next one.
    for await (const _row of sheet) void _row;
  }
  return names;
}

function sheetName(sheet: WorksheetLike, index: number) {
  return sheet.name || `Sheet${sheet.id ?? index + 1}`;
}

const XLSX_BATCH = 500;

async function* xlsxBatches(stream: Readable, object: string): AsyncIterable<RawRow[]> {
  let index = 0;
  for await (const sheet of await workbookReader(stream)) {
    const name = sheetName(sheet, index++);
    if (name !== object) {
      for await (const _row of sheet) void _row;
      continue;
    }
    let batch: RawRow[] = [];
    for await (const row of sheet) {
      const values = Array.isArray(row.values) ? (row.values as unknown[]).slice(1) : [];
      batch.push({ line: row.number, cells: Array.from(values, cellText) });
      if (batch.length >= XLSX_BATCH) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
    return;
  }
  throw new ConnectorError(`The workbook has no sheet named ${object}`);
}

/** An Excel cell as the text a CSV export would have held. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
  }
  if (typeof value === "object") {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.richText)) return (v.richText as { text: string }[]).map((r) => r.text).join("");
    if ("result" in v) return cellText(v.result);
    if (typeof v.text === "string") return v.text;
    if ("error" in v) return "";
    return "";
  }
  return String(value);
}
