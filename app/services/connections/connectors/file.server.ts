import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { getEnv } from "~/env.server";
import { UnreadableFileError } from "~/services/files/eda/errors";
import type { Cell } from "~/services/files/eda/profiler";
import { readWorkbookIndex, sheetRows, type WorkbookIndex } from "~/services/files/eda/xlsx.server";
import { openZip, type ZipReader } from "~/services/files/eda/zip.server";
import type { SourceRow } from "~/services/connections/mapping/transform";
import { createContentMemo } from "~/utils/content-memo.server";
import { readCsvBatches, type CsvRecord } from "./csv-reader.server";
import { ConnectorError, UnreadableExportError, type Connector, type SourceAttribute, type SourceObject, type SourceValue } from "./types";

// The file connector: an uploaded export (CSV or XLSX) read as a stream, page by page, so a
// 100 000-row export never sits in memory. Handles a UTF-8 BOM, ; or tab delimiters, title rows
// above the header, blank lines, ragged rows, blank or repeated headers.
//
// XLSX goes through the same reader as the files' EDA report (services/eda): the archive is read
// by random access, the workbook part, shared strings and styles first, then one sheet's XML as a
// stream, with the zip-bomb caps. (ExcelJS's streaming reader, used before, parsed the archive in
// one pass and lost the parts its unzipper read while it was busy with a sheet: a workbook whose
// workbook part comes after the sheets failed with "Cannot read properties of undefined (reading
// 'sheets')" or came back with sheets missing, every time with stored parts, now and then under load.)

export type FileFormat = "csv" | "xlsx";

export function fileFormatFor(fileName: string): FileFormat | null {
  const ext = fileName.toLowerCase().split(".").pop();
  if (ext === "csv" || ext === "txt" || ext === "tsv") return "csv";
  if (ext === "xlsx") return "xlsx";
  return null;
}

type RawRow = CsvRecord;

// The mapping step lists the export's sheets, headers and a column's values on every load (each a
// pass over the file): kept per stored export, which never changes (see createContentMemo).
const objectsMemo = createContentMemo<SourceObject[]>(100);
const attributesMemo = createContentMemo<SourceAttribute[]>(200);
const valuesMemo = createContentMemo<SourceValue[]>(400);

export function createFileConnector(input: {
  open: () => Promise<Readable>;
  format: FileFormat;
  fileName: string;
  /** The file on this machine's disk, when storage keeps it there (saves copying an XLSX to a temporary file). */
  localPath?: () => string | null;
  /** The stored export's key: its content never changes, so listings read from it are kept. */
  contentKey?: string;
}): Connector {
  const { open, format, fileName, contentKey } = input;
  const kept = <T>(memo: ReturnType<typeof createContentMemo<T>>, parts: unknown[], read: () => Promise<T>) =>
    contentKey ? memo.get(JSON.stringify([contentKey, ...parts]), read) : read();
  const csvObject = "rows";
  const workbook = () => openWorkbook(open, input.localPath?.() ?? null);

  // Rows travel in batches (a chunk of the file, or a run of sheet rows) and are turned into
  // records synchronously: no async step per row (memory: see docs/decisions/008-connections-import.md).
  async function* rawBatches(object: string): AsyncIterable<RawRow[]> {
    if (format === "csv") {
      if (object !== csvObject) throw new ConnectorError(`Unknown object ${object}`);
      yield* csvBatches(open, await sniffDelimiter(open));
    } else {
      yield* xlsxBatches(await workbook(), object);
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
    contentKey,

    listObjects() {
      return kept(objectsMemo, ["objects", fileName], async () => {
        if (format === "csv") return [{ name: csvObject, label: fileName }];
        const opened = await workbook();
        try {
          return opened.book.refs.map((ref) => ({ name: ref.name, label: `${fileName} — ${ref.name}` }));
        } finally {
          await opened.close();
        }
      });
    },

    listAttributes(object) {
      return kept(attributesMemo, ["attributes", object], async () => (await headersOf(object)).map((h) => ({ name: h, label: h })));
    },

    listValues(object, attribute, limit = 200) {
      return kept(valuesMemo, ["values", object, attribute, limit], async () => {
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
      });
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
    const base =
      cell
        .replace(/^\uFEFF/, "")
        .trim()
        .replace(/\s+/g, " ") || `Column ${i + 1}`;
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
  const firstLines = head
    .split(/\r?\n/)
    .filter((l) => l.trim())
    .slice(0, 5)
    .join("\n");
  const candidates = [",", ";", "\t", "|"];
  const counts = candidates.map((d) => firstLines.split(d).length - 1);
  const best = counts.indexOf(Math.max(...counts));
  return counts[best] > 0 ? candidates[best] : ",";
}

async function* csvBatches(open: () => Promise<Readable>, delimiter: string): AsyncIterable<RawRow[]> {
  yield* readCsvBatches(await open(), delimiter);
}

type OpenWorkbook = { zip: ZipReader; book: WorkbookIndex; close: () => Promise<void> };

/** An XLSX opened for random access: the stored file itself, or the upload copied to a temporary file. */
async function openWorkbook(open: () => Promise<Readable>, localPath: string | null): Promise<OpenWorkbook> {
  const env = getEnv();
  const temp = localPath ? null : path.join(os.tmpdir(), `remarket-import-${randomUUID()}.xlsx`);
  const removeTemp = async () => {
    if (temp) await fs.rm(temp, { force: true });
  };
  try {
    if (temp) await pipeline(await open(), createWriteStream(temp));
    const zip = await openZip(localPath ?? temp!, env.XLSX_MAX_UNCOMPRESSED_BYTES);
    try {
      const book = await readWorkbookIndex(zip, env.EDA_MAX_ROW_BYTES);
      const close = async () => {
        zip.close();
        await removeTemp();
      };
      return { zip, book, close };
    } catch (error) {
      zip.close();
      throw error;
    }
  } catch (error) {
    await removeTemp();
    throw connectorError(error);
  }
}

/**
 * A file that cannot be read is the source's problem, said in its own words: garbage bytes named
 * .xlsx or a file cut off become UnreadableExportError, a 4xx for the user instead of a 500.
 */
function connectorError(error: unknown) {
  return error instanceof UnreadableFileError ? new UnreadableExportError(error.message) : error;
}

const XLSX_BATCH = 500;

async function* xlsxBatches(opened: OpenWorkbook, object: string): AsyncIterable<RawRow[]> {
  try {
    const ref = opened.book.refs.find((r) => r.name === object);
    if (!ref) throw new ConnectorError(`The workbook has no sheet named ${object}`);
    let batch: RawRow[] = [];
    for await (const rows of sheetRows(opened.zip, ref, opened.book, getEnv().EDA_MAX_ROW_BYTES)) {
      for (const row of rows) batch.push({ line: row.index + 1, cells: Array.from(row.cells, cellText) });
      if (batch.length >= XLSX_BATCH) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  } catch (error) {
    throw connectorError(error);
  } finally {
    await opened.close();
  }
}

/** An Excel cell as the text a CSV export would have held (a date without a time as yyyy-mm-dd). */
export function cellText(value: Cell): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
  }
  return String(value);
}
